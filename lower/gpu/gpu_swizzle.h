/* gpu_swizzle.h — where element (row, col) of a shared tile lies in shared
 * memory: row-major, with 16-byte chunks of each row exchanged (an XOR
 * swizzle) so that the accesses the lowering makes do not collide in banks.
 *
 * Shared memory (and AMD's LDS) serves a warp in banks of 4 bytes, 32 of
 * them: 128 bytes side by side. Accesses to one bank at different addresses
 * are served one after the other. In a plain row-major tile whose rows are a
 * multiple of 128 bytes long, a column lies in the same bank in every row, so
 * the 8 rows of an 8×8 ldmatrix (each row 16 bytes, one lane's address) or
 * the 8 rows an mma accumulator fragment spans (lane / 4) collide 8 ways.
 *
 * The tile is cut into chunks of 16 bytes (8 bf16 or 4 f32): ldmatrix reads
 * one chunk per row, and a chunk never straddles banks unevenly. Chunk j of
 * row r is stored in chunk j ^ ((r >> shift) & mask) of that row. With n =
 * m·2^a chunks per row (m odd, a ≤ 3 counted up to 8): row r starts at chunk
 * position r·n mod 8 of a 128-byte line, which takes 8 / 2^a values over 8
 * consecutive rows, each by 2^a rows — those that differ in r >> (3 - a).
 * XORing the low a bits of the chunk index with (r >> (3 - a)) mod 2^a
 * sends those 2^a rows to different positions, so 8 consecutive rows (from
 * any row) put one column in 8 different groups of 4 banks:
 *   n a multiple of 8: mask 7, shift 0;   n = 4·odd: mask 3, shift 1;
 *   n = 2·odd: mask 1, shift 2;           n odd: no swizzle needed.
 * Chunk indices stay below n (n is a multiple of 2^a). A row that is not a
 * whole number of chunks is not swizzled.
 * The XOR permutes chunks within a row, so the tile keeps its size and
 * every element keeps its row; whole chunks move, so a 16-byte access at a
 * chunk-aligned column stays one access. Checked in tests/nvptx/test_nvptx.c
 * (a permutation; conflict-free for 8 consecutive rows); the emulator's
 * ldmatrix reads rows where the lowering says they are, so a wrong swizzle
 * gives wrong numbers there. */
#ifndef TK_LOWER_GPU_SWIZZLE_H
#define TK_LOWER_GPU_SWIZZLE_H

#include <stdint.h>

typedef struct {
    int chunk_shift;   /* log2 of elements per 16-byte chunk */
    int shift;         /* the row's bits that choose the XOR start here */
    int64_t mask;      /* 0: no swizzle */
} TkSwizzle;

static inline TkSwizzle tk_swizzle_of(int64_t cols, int elem_bytes)
{
    TkSwizzle s = { elem_bytes == 4 ? 2 : elem_bytes == 2 ? 3 : 4, 0, 0 };
    int64_t per = (int64_t)1 << s.chunk_shift;
    if (elem_bytes != 2 && elem_bytes != 4) return s;
    if (cols % per) return s;
    int64_t n = cols / per;
    int a = n % 8 == 0 ? 3 : n % 4 == 0 ? 2 : n % 2 == 0 ? 1 : 0;
    s.mask = ((int64_t)1 << a) - 1;
    s.shift = 3 - a;
    return s;
}

/* the element index of (row, col) in a tile of `cols` columns */
static inline int64_t tk_swizzle_index(TkSwizzle s, int64_t cols, int64_t row, int64_t col)
{
    int64_t chunk = (col >> s.chunk_shift) ^ ((row >> s.shift) & s.mask);
    return row * cols + (chunk << s.chunk_shift) + (col & (((int64_t)1 << s.chunk_shift) - 1));
}

#endif
