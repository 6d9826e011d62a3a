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
 *
 * Rows of more than 8 chunks (128 bytes) whose chunk count is a multiple of
 * 8 are cut into panels 8 chunks wide: panel p holds columns p·P .. p·P+P-1
 * (P = 8 chunks of elements) of every row, row after row, 128 bytes each, and
 * the panels follow one another. Within a panel the rule above (mask 7)
 * applies. A panel is then exactly what NVIDIA's matrix descriptors call a
 * 128-byte swizzle layout (and the TMA unit writes): 8 rows of 128 bytes, 16-byte chunk
 * j of row r at j ^ (r mod 8), with the next 8 rows 1024 bytes on; rows of
 * 4 and 2 chunks are the 64- and 32-byte layouts. So wgmma reads a shared
 * tile of any width in place (gpu_wgmma.c), whichever of its two dims is
 * the K one: a K-major operand's rows are its K, an N-major one's its N.
 *
 * The swizzle permutes chunks and panels only, so the tile keeps its size;
 * whole chunks move, so a 16-byte access at a chunk-aligned column stays one
 * access. Checked in tests/nvptx/test_nvptx.c
 * (a permutation; conflict-free for 8 consecutive rows); the emulator's
 * ldmatrix and wgmma read rows where the lowering says they are, so a wrong swizzle
 * gives wrong numbers there. */
#ifndef TK_LOWER_GPU_SWIZZLE_H
#define TK_LOWER_GPU_SWIZZLE_H

#include <stdint.h>

typedef struct {
    int chunk_shift;   /* log2 of elements per 16-byte chunk */
    int shift;         /* the row's bits that choose the XOR start here */
    int64_t mask;      /* 0: no swizzle */
    int64_t panel;     /* columns of a panel (8 chunks), or 0: rows are not cut */
} TkSwizzle;

static inline TkSwizzle tk_swizzle_of(int64_t cols, int elem_bytes)
{
    TkSwizzle s = { elem_bytes == 4 ? 2 : elem_bytes == 2 ? 3 : 4, 0, 0, 0 };
    int64_t per = (int64_t)1 << s.chunk_shift;
    if (elem_bytes != 2 && elem_bytes != 4) return s;
    if (cols % per) return s;
    int64_t n = cols / per;
    int a = n % 8 == 0 ? 3 : n % 4 == 0 ? 2 : n % 2 == 0 ? 1 : 0;
    s.mask = ((int64_t)1 << a) - 1;
    s.shift = 3 - a;
    if (n % 8 == 0 && n > 8) s.panel = 8 * per;
    return s;
}

/* The bytes of NVIDIA's swizzle pattern a tile whose rows are `cols`
 * elements of elem_bytes is stored in — 128 (rows, or panels, of 128
 * bytes), 64 or 32 — or 0 for a layout that is none of NVIDIA's. wgmma's
 * matrix descriptors (gpu_wgmma.c) and the TMA's boxes (gpu_tma.c) can
 * address only those. */
static inline int tk_swizzle_nvidia_bytes(int64_t cols, int elem_bytes)
{
    int64_t bytes = cols * elem_bytes;
    return bytes % 128 == 0 ? 128 : bytes == 64 || bytes == 32 ? (int)bytes : 0;
}

/* the element index of (row, col) in a tile of `rows` × `cols` */
static inline int64_t tk_swizzle_index(TkSwizzle s, int64_t rows, int64_t cols, int64_t row, int64_t col)
{
    int64_t w = s.panel ? s.panel : cols, panel = col / w;
    col %= w;
    int64_t chunk = (col >> s.chunk_shift) ^ ((row >> s.shift) & s.mask);
    return panel * rows * w + row * w + (chunk << s.chunk_shift) + (col & (((int64_t)1 << s.chunk_shift) - 1));
}

/* the (row, col) of the element stored at index e: tk_swizzle_index undone */
static inline void tk_swizzle_cell(TkSwizzle s, int64_t rows, int64_t cols, int64_t e, int64_t *row, int64_t *col)
{
    int64_t w = s.panel ? s.panel : cols, panel = e / (rows * w), in = e % (rows * w);
    int64_t r = in / w, c = in % w;
    int64_t chunk = (c >> s.chunk_shift) ^ ((r >> s.shift) & s.mask);
    *row = r;
    *col = panel * w + (chunk << s.chunk_shift) + (c & (((int64_t)1 << s.chunk_shift) - 1));
}

#endif
