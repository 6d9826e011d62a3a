/* types.h — semantic types of the checker: scalars, untyped constants,
 * tiles (rt/st/rv/sv with constant dims) and global tensors (gl with
 * symbolic dims). Scalars are singletons; tile types live in the arena. */
#ifndef TK_LANG_TYPES_H
#define TK_LANG_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "shape.h"

typedef enum {
    TK_TY_ERROR,        /* an expression already reported; suppresses follow-on errors */
    TK_TY_VOID,         /* result of store, mma_*, sync, helpers without result */
    TK_TY_BOOL, TK_TY_I32, TK_TY_I64, TK_TY_F32, TK_TY_F16, TK_TY_BF16,
    TK_TY_UINT,         /* untyped integer constant */
    TK_TY_UFLOAT,       /* untyped float constant */
    TK_TY_RT, TK_TY_ST, TK_TY_RV, TK_TY_SV, TK_TY_GL,
} TkTypeKind;

/* rt: row or col. gl: row (plain row-major) or packed, whose planes (the last
 * two dims) are stored in the CPU mma's B layout — see tk_packed_offset and
 * docs/LANGUAGE.md "Packed tensors". */
typedef enum { TK_ROW, TK_COL, TK_PACKED } TkLayout;

#define TK_GL_MAX_RANK 4
#define TK_TILE_DIM_MULTIPLE 16
#define TK_RT_MAX_DIM 256
#define TK_ST_MAX_DIM 1024

/* Names of a kernel's (or helper's) size variables, for printing gl dims. */
typedef struct {
    const char **names;
    unsigned count, cap;
} TkSizeNames;

typedef struct TkType {
    TkTypeKind kind;
    TkTypeKind elem;           /* tiles and gl: element scalar kind */
    TkLayout layout;           /* rt: row/col; gl: row/packed */
    uint8_t rank;              /* rt/st 2, rv/sv 1, gl 1..4 */
    int64_t dims[2];           /* rt/st: rows, cols; rv/sv: dims[0] */
    TkPoly gdims[TK_GL_MAX_RANK];     /* gl only */
    const TkSizeNames *size_names;    /* gl only: how to print its variables */
} TkType;

extern TkType tk_type_error, tk_type_void, tk_type_bool, tk_type_i32, tk_type_i64,
    tk_type_f32, tk_type_f16, tk_type_bf16, tk_type_uint, tk_type_ufloat;

TkType *tk_type_scalar(TkTypeKind kind);
TkType *tk_type_tile(TkArena *a, TkTypeKind kind, TkTypeKind elem, int64_t rows, int64_t cols, TkLayout layout);
TkType *tk_type_vec(TkArena *a, TkTypeKind kind, TkTypeKind elem, int64_t n);
TkType *tk_type_with_elem(TkArena *a, const TkType *t, TkTypeKind elem);

static inline bool tk_is_int(TkTypeKind k) { return k == TK_TY_I32 || k == TK_TY_I64 || k == TK_TY_UINT; }
static inline bool tk_is_float(TkTypeKind k) { return k == TK_TY_F32 || k == TK_TY_F16 || k == TK_TY_BF16 || k == TK_TY_UFLOAT; }
static inline bool tk_is_scalar(TkTypeKind k) { return k >= TK_TY_BOOL && k <= TK_TY_UFLOAT; }
static inline bool tk_is_untyped(TkTypeKind k) { return k == TK_TY_UINT || k == TK_TY_UFLOAT; }
static inline bool tk_is_tile(TkTypeKind k) { return k == TK_TY_RT || k == TK_TY_ST; }
static inline bool tk_is_vec(TkTypeKind k) { return k == TK_TY_RV || k == TK_TY_SV; }
static inline bool tk_is_register(TkTypeKind k) { return k == TK_TY_RT || k == TK_TY_RV; }
static inline bool tk_is_shared(TkTypeKind k) { return k == TK_TY_ST || k == TK_TY_SV; }

/* rt<bool, ...> or rv<bool, ...>: the result of comparing tiles (lang/check_mask.c). */
static inline bool tk_is_mask(const TkType *t) { return tk_is_register(t->kind) && t->elem == TK_TY_BOOL; }

bool tk_type_equal(const TkType *a, const TkType *b);
/* "rt<bf16, 64, 32, col>", "gl<f32, M, 2*N>", "i32", "untyped integer". */
int tk_type_format(const TkType *t, char *buf, size_t size);
const char *tk_type_kind_name(TkTypeKind k);   /* "i32", "rt", ... */

/* Element offset of (r, c) inside one plane of R rows × C columns of a packed
 * gl whose elements are `esize` bytes: the CPU mma's B layout
 * (intrinsics/cpu_mma.h). Panels of 32 columns (the last one C − 32q wide)
 * follow each other, panel q at 32·q·R; inside a panel of width w, 2-byte
 * elements interleave rows 2p and 2p+1 — (r, c) at (r/2)·2w + 2(c%32) + r%2,
 * the pairs of a bf16 dot-product instruction — and an odd last row is
 * stored plainly at (R−1)·w + c%32; other sizes are rows, r·w + c%32. */
static inline int64_t tk_packed_offset(int64_t r, int64_t c, int64_t R, int64_t C, unsigned esize)
{
    int64_t q = c / 32, w = C - 32 * q < 32 ? C - 32 * q : 32, base = 32 * q * R, cc = c % 32;
    if (esize != 2 || r >= (R & ~(int64_t)1)) return base + r * w + cc;
    return base + (r >> 1) * 2 * w + 2 * cc + (r & 1);
}

#endif
