/* emu_wgmma.h — the emulator's Hopper warpgroup matrix instruction, written
 * from NVIDIA's PTX ISA document (section 9.7.15, "Asynchronous Warpgroup
 * Level Matrix Instructions": register fragments, shared-memory canonical
 * layouts, the matrix descriptor) and not from the compiler's wgmma lowering,
 * whose register and shared-memory layouts it is meant to check.
 *
 * One call is the whole warpgroup's instruction: every thread's registers
 * in, every thread's accumulators out, B read from the block's shared memory
 * exactly where the descriptor and the swizzle mode put each element. The
 * products of 16-bit values are exact; the sum of the 16 products and C is
 * taken in double and rounded once to f32 (the hardware's order of
 * additions is unspecified, so exact inputs give exact, comparable results).
 *
 * A descriptor with a nonzero matrix base offset (bits 49-51, for swizzle
 * patterns that do not start on their 256/512/1024-byte boundary) is reported
 * as unsupported. The ISA defines all four values of the 2-bit swizzle field,
 * so no swizzle mode is reserved. */
#ifndef TK_TARGETS_EMU_WGMMA_H
#define TK_TARGETS_EMU_WGMMA_H

#include <stddef.h>
#include <stdint.h>

/* wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}.{bf16,f16} with A from
 * registers and B from shared memory through a matrix descriptor, for one
 * warpgroup (128 threads, thread t = 32·warp + lane, warp 0..3 of the group).
 *   a[t][0..3]: thread t's four 32-bit A registers (two 16-bit elements each, low half = lower column)
 *   d[t][0..N/2-1]: thread t's f32 accumulators: in C, out D = A·B + (scale_d ? C : 0)
 *   desc: the 64-bit B matrix descriptor; trans_b: 0 = B is K-major, 1 = B is N-major (imm-trans-b)
 *   shared/shared_bytes: the block's shared memory; descriptor address x (bytes) is shared[x]
 * Returns 0; or -1 with a one-line reason in err (N not a multiple of 8 in 8..256,
 * an element address outside shared_bytes, a reserved swizzle mode), leaving d untouched. */
int tk_emu_wgmma(int n, int f16, int trans_b, uint64_t desc, const uint32_t a[128][4], float d[128][128], int scale_d,
                 const unsigned char *shared, int64_t shared_bytes, char *err, size_t errlen);

#endif
