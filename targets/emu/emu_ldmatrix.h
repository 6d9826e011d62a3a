/* emu_ldmatrix.h — the emulator's ldmatrix: whole-warp semantics from every
 * lane's row address, written from NVIDIA's PTX ISA document (not from the
 * lowering's lane maps, which it is meant to check). */
#ifndef TK_TARGETS_EMU_LDMATRIX_H
#define TK_TARGETS_EMU_LDMATRIX_H

#include <stdbool.h>
#include <stdint.h>

/* ldmatrix.sync.aligned.m8n8.x{num}{.trans}.shared.b16 for one warp: rows[l]
 * is the address lane l gave (lane 8i + r: row r of matrix i, 8 16-bit
 * elements); out[l][i] receives lane l's register i (i < num). */
void tk_emu_ldmatrix(int num, bool trans, const uint16_t *const rows[32], uint32_t out[32][4]);

/* How many of the num matrices' 8-row reads collide in shared-memory banks
 * (32 banks of 4 bytes; two rows of one matrix in the same banks at
 * different addresses): 0 for a conflict-free instruction. */
int tk_emu_ldmatrix_conflicts(int num, const uint16_t *const rows[32], const void *shared);

#endif
