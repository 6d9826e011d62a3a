/* gpu_tma_desc.h — what a TMA tensor map describes: the contract between the
 * GPU lowering (gpu_tma.c, which decides which shared-tile loads go through
 * Hopper's tensor memory accelerator and with what box), the launchers that
 * make the maps (the CUDA device encodes one CUtensorMap per description with
 * cuTensorMapEncodeTiled; the emulator takes the description itself as its
 * map), and the emulator's own TMA (targets/emu/emu_tma.c).
 *
 * One copy (cp.async.bulk.tensor) brings a box of box[0] × box[1] × ...
 * elements whose first element is at tensor coordinates (c[0], c[1], ...),
 * innermost dimension first; elements outside the tensor (any coordinate
 * negative or past its dimension) arrive as zeros. The box lands in shared
 * memory row after row, box[0] elements a row, with the 16-byte chunks of
 * each row exchanged by the swizzle (bytes 0: none; 32, 64, 128: NVIDIA's
 * patterns, which XOR address bits [4, 4 + log2(swizzle/16)) with bits
 * [7, ...)). With a swizzle, box[0] · elem_bytes equals the swizzle's bytes. */
#ifndef TK_LOWER_GPU_TMA_DESC_H
#define TK_LOWER_GPU_TMA_DESC_H

#include <stdbool.h>
#include <stdint.h>

enum { TK_TMA_MAX_RANK = 5 };
enum { TK_TMA_BF16 = 1, TK_TMA_F16 = 2, TK_TMA_F32 = 3 };

typedef struct {
    uint64_t base;                         /* address of the tensor's first element */
    uint64_t dims[TK_TMA_MAX_RANK];        /* elements per dimension, innermost first */
    uint64_t strides[TK_TMA_MAX_RANK];     /* bytes from index i to i + 1 of each dimension; strides[0] = elem_bytes */
    uint32_t box[TK_TMA_MAX_RANK];         /* elements one copy brings, per dimension */
    int32_t rank;                          /* 1 .. TK_TMA_MAX_RANK */
    int32_t elem_bytes;                    /* 2 or 4 */
    int32_t dtype;                         /* TK_TMA_BF16, TK_TMA_F16, TK_TMA_F32 */
    int32_t swizzle;                       /* 0, 32, 64 or 128 */
} TkTmaDesc;

/* Whether a tensor can be described to the TMA unit: its base 16-byte
 * aligned, its strides (rows of whole 16-byte chunks) multiples of 16 below
 * 2^40, every dimension 1 .. 2^32. The kernel makes the same test on the
 * device (gpu_tma.c) and takes its element-by-element load where it fails;
 * a launcher passes a zeroed map there. */
static inline bool tk_tma_usable(const TkTmaDesc *d)
{
    if (d->base % 16 != 0 || d->rank < 1 || d->rank > TK_TMA_MAX_RANK) return false;
    for (int k = 0; k < d->rank; k++) {
        if (d->dims[k] < 1 || d->dims[k] > ((uint64_t)1 << 32)) return false;
        if (k > 0 && (d->strides[k] % 16 != 0 || d->strides[k] >= ((uint64_t)1 << 40))) return false;
    }
    return true;
}

/* What the kernel fixes of one map (gpu_tma.c lists them per kernel, in the
 * order of its trailing map parameters): which tensor parameter, the box
 * and the swizzle. The rest comes from the tensor at launch. */
typedef struct {
    int32_t param;                         /* the kernel's gl parameter */
    int32_t rank;                          /* the tensor's */
    int32_t dtype, elem_bytes, swizzle;
    uint32_t box[TK_TMA_MAX_RANK];         /* innermost first */
} TkTmaPlan;

enum { TK_TMA_MAX_MAPS = 16 };   /* maps one kernel takes, at most */

/* The map of plan p for a dense row-major tensor at base of the given shape
 * (outermost first, p->rank of them). */
static inline void tk_tma_describe(const TkTmaPlan *p, uint64_t base, const int64_t *shape, TkTmaDesc *d)
{
    *d = (TkTmaDesc){ .base = base, .rank = p->rank, .elem_bytes = p->elem_bytes, .dtype = p->dtype, .swizzle = p->swizzle };
    uint64_t stride = (uint64_t)p->elem_bytes;
    for (int k = 0; k < p->rank && k < TK_TMA_MAX_RANK; k++) {
        int64_t n = shape[p->rank - 1 - k];
        d->dims[k] = n > 0 ? (uint64_t)n : 0;
        d->strides[k] = stride;
        d->box[k] = p->box[k];
        stride *= d->dims[k];
    }
}

#endif
