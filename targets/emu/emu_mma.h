/* emu_mma.h — the emulator's matrix instructions: whole-warp semantics from
 * every lane's registers, written from NVIDIA's PTX ISA document and not
 * from intrinsics/nvptx_mma.c (whose lane maps the lowering uses, and which
 * these are meant to check). */
#ifndef TK_TARGETS_EMU_MMA_H
#define TK_TARGETS_EMU_MMA_H

#include <stdint.h>

/* mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 for one warp:
 * a[lane][0..3], b[lane][0..1] the 32-bit registers (two bf16 each),
 * c[lane][0..3] and d[lane][0..3] the f32 registers. */
void tk_emu_mma_m16n8k16_bf16(const uint32_t a[32][4], const uint32_t b[32][2], const float c[32][4], float d[32][4]);

/* mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: the same fragments, f16 elements */
void tk_emu_mma_m16n8k16_f16(const uint32_t a[32][4], const uint32_t b[32][2], const float c[32][4], float d[32][4]);

/* mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 for one warp:
 * a[lane][0..3], b[lane][0..1] one tf32 each (an f32 bit pattern whose low
 * 13 mantissa bits the instruction ignores), c, d as above. */
void tk_emu_mma_m16n8k8_tf32(const uint32_t a[32][4], const uint32_t b[32][2], const float c[32][4], float d[32][4]);

#endif
