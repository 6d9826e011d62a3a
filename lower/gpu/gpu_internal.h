/* gpu_internal.h — what the files of the GPU lowering share (gpu_lower.c:
 * checking, control flow, kernels; gpu_mma.c: register tiles as fragments,
 * the base tile, mma; gpu_global.c: global
 * tensors and register tiles loaded from them; gpu_exchange.c: layouts that
 * cross lanes; gpu_element.c: single elements; gpu_elementwise.c: maps
 * and conversions of register tiles; gpu_vector.c: register vectors,
 * reductions, broadcasts and masks; gpu_shared.c: shared tiles and
 * barriers; gpu_async.c: shared tiles loaded by asynchronous copies, and
 * the waits they need). Not a public interface. */
#ifndef TK_LOWER_GPU_INTERNAL_H
#define TK_LOWER_GPU_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "emit.h"
#include "gpu_lower.h"
#include "gpu_tma_desc.h"

typedef enum { ROLE_NONE, ROLE_A, ROLE_B, ROLE_C } Role;

/* How a tile of some role splits into fragments of the kernel's base tile. */
typedef struct {
    Role role;
    int64_t frows, fcols;     /* fragment grid */
    int64_t bm, bn;           /* base tile rows/cols for this role */
    int elems;                /* elements per lane per fragment */
    const TkLaneMap *lay;
    int64_t n;                /* elements per lane in the whole tile */
} Frags;

/* How an rv's N elements spread over a warp's lanes (gpu_vector.c). Either
 * every lane holds all of them (repl), or they follow the rows or columns of
 * a register tile: the lane's element blk·nofs + k is vector element
 *     blk·period + t(lane) + ofs[k]
 * so that a row reduction and a row broadcast never leave the lane. */
typedef struct {
    bool repl;
    TkLaneTerm t;
    int nofs, period;
    int16_t ofs[TK_GPU_FRAG_MAX];
} Dist;

/* shared tiles (a bit each) with asynchronous copies possibly in flight, and
 * touched element by element by a collective since the last barrier (gpu_async.c) */
typedef struct {
    uint64_t inflight, touched;
} GpuAsyncState;

enum { GPU_TMA_MAX_TILES = 16 };

typedef struct GpuLower {
    Emit e;                   /* scalar helpers of emit_llvm.c: ctx, mod, b, types */
    const TirModule *m;
    const TkGpuVendor *v;
    const char *cpu;          /* the processor: "gfx942", "sm_90a" */
    int wave;                 /* lanes per warp (wavefront) */
    const TirFunc *f;
    TkGpuMma rowbuf;
    const TkGpuMma *row;      /* the kernel's base tile (NULL: no rt tiles) */
    LLVMBuilderRef ab;        /* allocas, in the entry block */
    LLVMValueRef fn;
    LLVMValueRef lane, warp;  /* i32 */
    LLVMValueRef env;         /* the emulation target's environment parameter (NULL on a GPU) */
    LLVMValueRef tid;         /* i32: the thread's index in its block */
    int64_t shared_used;      /* bytes of shared tiles placed so far in this kernel */
    LLVMTypeRef p1;           /* ptr addrspace(1) */
    uint32_t count;
    LLVMValueRef *vals, *slots;
    Dist *dist;               /* per instruction id: the distribution of an rv value or slot */
    uint8_t *meet;            /* per parameter: its stores meet the warp before and after (gpu_store_meets) */
    int64_t exchange_bytes;   /* per warp: shared scratch for layouts that cross lanes (gpu_exchange.c) */
    LLVMValueRef exchange;    /* the block's scratch: exchange_bytes per warp */
    bool async;               /* the kernel loads a shared tile by asynchronous copies (gpu_async.c) */
    GpuAsyncState pending;    /* here, as the kernel is emitted */
    const TirInstr *async_vars[63];
    int async_nvars;
    /* TMA loads of shared tiles (gpu_tma.c): the kernel's maps (its trailing
     * parameters from tma_param0 on), the tiles they fill with their
     * mbarriers and each thread's parity of the last load; whether some
     * asynchronous load still goes by cp.async */
    TkTmaPlan tma_maps[TK_TMA_MAX_MAPS];
    int tma_nmaps;
    const TirInstr *tma_tiles[GPU_TMA_MAX_TILES];
    LLVMValueRef tma_bars, tma_bar[GPU_TMA_MAX_TILES], tma_phase[GPU_TMA_MAX_TILES];
    int tma_ntiles;
    unsigned tma_param0;
    bool cp_async_any;
    uint8_t *wg;              /* per instruction id: its part in a warpgroup product (gpu_wgmma.c), or NULL */
    bool wgmma_any;           /* the kernel has one */
    int status;               /* 0, 1 unsupported input, -1 internal */
    char *err;
    size_t errlen;
} GpuLower;


static inline LLVMValueRef c64(GpuLower *g, int64_t v) { return LLVMConstInt(g->e.i64, (unsigned long long)v, 1); }
static inline LLVMValueRef c32(GpuLower *g, int64_t v) { return LLVMConstInt(g->e.i32, (unsigned long long)v, 1); }

/* diagnostics: the first one wins; 1 (an input error) is returned */
int gpu_fail(GpuLower *g, const TirInstr *at, const char *fmt, ...);
int gpu_not_supported(GpuLower *g, const TirInstr *i, const char *what);
const char *gpu_type_str(const TkType *t, char *buf, size_t n);

/* register tiles: the role of a tile type and how it splits into fragments */
Role gpu_role_of(const TkType *t);
bool gpu_frags_of(const TkGpuMma *r, const TkType *t, Frags *F);            /* in the layout of its role */
bool gpu_frags_as(const TkGpuMma *r, const TkType *t, Role role, Frags *F); /* as an operand of that role */
LLVMTypeRef gpu_tile_type(GpuLower *g, const TkType *t);
/* the row and column within the tile of each element a lane holds in layout F: <F->n x i64> */
void gpu_frags_rc(GpuLower *g, const Frags *F, LLVMValueRef *row, LLVMValueRef *col);
int gpu_pick_row(GpuLower *g, const TirFunc *f);      /* g->row for f (checked), or a diagnostic */
void gpu_tile_mma(GpuLower *g, const TirInstr *i);    /* MMA, base tile by base tile */

/* values */
LLVMValueRef gpu_val(GpuLower *g, const TirInstr *i);
void gpu_set_val(GpuLower *g, const TirInstr *i, LLVMValueRef v);
LLVMValueRef gpu_special(GpuLower *g, TkGpuSpecial which);
LLVMValueRef gpu_i64v(GpuLower *g, LLVMValueRef v);
LLVMValueRef gpu_lane_term(GpuLower *g, LLVMValueRef lane, TkLaneTerm t);

LLVMValueRef gpu_splat(GpuLower *g, LLVMValueRef x, unsigned n);
LLVMValueRef gpu_sub_vector(GpuLower *g, LLVMValueRef v, int64_t off, int len);            /* elements [off, off+len) */
LLVMValueRef gpu_insert_vector(GpuLower *g, LLVMValueRef big, LLVMValueRef small, int64_t off);   /* big with small at off */
LLVMValueRef gpu_elem_value(GpuLower *g, const TirInstr *s, TkTypeKind elem);   /* scalar s as a lane holds an elem (bf16/f16: i16 bits) */
unsigned gpu_width(GpuLower *g, const TirInstr *i);            /* elements a lane holds of rt/rv value (or slot) i */
LLVMTypeRef gpu_value_type(GpuLower *g, const TirInstr *i);     /* <width x elem> */
LLVMTypeRef gpu_elem_type(GpuLower *g, TkTypeKind k);          /* f32; i1 for bool; i16 (bits) for bf16/f16 */
static inline bool gpu_half(TkTypeKind k) { return k == TK_TY_BF16 || k == TK_TY_F16; }   /* held as i16 bits */
static inline bool gpu_is_st(const TkType *t) { return t && t->kind == TK_TY_ST; }
/* bytes of an element of a tile or tensor in memory (f32; bf16 and f16) */
static inline int gpu_elem_bytes(TkTypeKind k) { return k == TK_TY_F32 ? 4 : 2; }
LLVMValueRef gpu_widen(GpuLower *g, LLVMValueRef v, TkTypeKind elem);    /* bf16/f16 bits (scalar or vector) → f32; f32 as is */
LLVMValueRef gpu_narrow(GpuLower *g, LLVMValueRef v, TkTypeKind elem);   /* f32 → bf16/f16 bits, to nearest even; f32 as is */

/* Element p of a gl tensor at idx[p] where mask[p] (0 elsewhere); idx/mask: <n x i64>/<n x i1> */
typedef struct {
    LLVMValueRef idx, mask;     /* <n x i64>, <n x i1> */
    LLVMValueRef nonempty;      /* i1: the tensor has an element */
} Access;
LLVMValueRef gpu_gather(GpuLower *g, LLVMValueRef base, LLVMTypeRef ety, Access A, unsigned n);
/* global tensors (gpu_global.c) */
/* where elements (row, col) (<n x i64>) of the plane at leading coordinates lead[] of gl type gt lie, row-major or packed */
Access gpu_gl_access(GpuLower *g, const TkType *gt, const TirInstr *const *lead, LLVMValueRef row, LLVMValueRef col, unsigned n);
LLVMValueRef gpu_size_arg(GpuLower *g, unsigned var);                    /* size variable var (a kernel parameter) */
LLVMValueRef gpu_tensor_dim(GpuLower *g, const TkType *t, unsigned d);   /* extent d of gl type t: i64 */
/* the row and column within the tile of each element a lane holds of rt type t: <n x i64> */
void gpu_tile_rc(GpuLower *g, const TkType *t, LLVMValueRef *row, LLVMValueRef *col);
void gpu_scatter(GpuLower *g, LLVMValueRef base, LLVMTypeRef ety, Access A, LLVMValueRef v, unsigned n);
/* Called before and after a per-warp store into gl parameter dst: the warp
 * meets when the kernel reaches dst at another place too (gpu_global.c) */
void gpu_store_meet(GpuLower *g, const TirInstr *dst);
void gpu_store_meets_plan(GpuLower *g, const TirFunc *f);   /* g->meet, at check */
LLVMValueRef gpu_tile_load(GpuLower *g, const TirInstr *i);   /* rt = LOAD gl[coords], masked at the edges */
void gpu_tile_store(GpuLower *g, const TirInstr *i);           /* STORE rt into gl[coords], masked at the edges */

/* element-wise work on register tiles (gpu_elementwise.c) */
int gpu_map_check(GpuLower *g, const TirInstr *i);
int gpu_convert_check(GpuLower *g, const TirInstr *i);
LLVMValueRef gpu_tile_map(GpuLower *g, const TirInstr *i);
LLVMValueRef gpu_tile_convert(GpuLower *g, const TirInstr *i);
LLVMValueRef gpu_tile_transpose(GpuLower *g, const TirInstr *i);
int gpu_relayout_check(GpuLower *g, const TirRegion *r);   /* every convert and mma operand relayout stays in its lane (g->row chosen) */
/* an mma's operands as the instruction's A [M][K] and B [K][N] fragments, whatever its form (ab, abt, atb, atbt) */
void gpu_mma_operands(GpuLower *g, const TirInstr *i, LLVMValueRef *a, LLVMValueRef *b);

/* layouts that move elements between lanes, through a per-warp scratch in shared memory (gpu_exchange.c) */
int gpu_exchange_need(GpuLower *g, const TirInstr *i, const TkType *from, const TkType *to);   /* at check: sizes the scratch, or refuses */
LLVMValueRef gpu_exchange(GpuLower *g, LLVMValueRef v, const TkType *from, const TkType *to, Role role, bool transpose);
/* Places of a lane's elements in a row-major array: element p at at + off[p],
 * one scalar for the lane and a constant per element (as <n x i64> vectors
 * the index arithmetic costs registers and spills on NVPTX). */
typedef struct {
    LLVMValueRef at;   /* i64 */
    int64_t *off;      /* n constants; free with gpu_cells_free */
    unsigned n;
} Cells;
/* element (r, c) of a tile in layout F, placed at (r0, c0) of a tile of `cols` columns, at (r0 + r)·cols + c0 + c (transposed: (c0 + c)·cols + r0 + r) */
Cells gpu_tile_cells(GpuLower *g, const Frags *F, LLVMValueRef r0, LLVMValueRef c0, int64_t cols, bool transpose);
/* element e of rv x (value or slot) at e·scale + add */
Cells gpu_vector_cells(GpuLower *g, const TirInstr *x, int64_t scale, LLVMValueRef add);
void gpu_cells_free(Cells *c);

/* the warp's scratch: sized at check time (bytes), its base, the lane's elements v (of type et) to and from cells c */
void gpu_scratch_need(GpuLower *g, int64_t bytes);
LLVMValueRef gpu_scratch(GpuLower *g);
void gpu_scratch_put(GpuLower *g, LLVMValueRef base, LLVMTypeRef et, Cells c, LLVMValueRef v);
LLVMValueRef gpu_scratch_get(GpuLower *g, LLVMValueRef base, LLVMTypeRef et, Cells c);

/* sub-tiles, sub-vectors, rows and columns, read and written (gpu_slice.c) */
int gpu_slice_check(GpuLower *g, const TirInstr *i);    /* at check, g->row chosen: sizes the scratch, or refuses */
LLVMValueRef gpu_slice(GpuLower *g, const TirInstr *i);  /* SLICE, LINE */
void gpu_set_slice(GpuLower *g, const TirInstr *i);      /* SET_SLICE, SET_LINE */

/* single elements of register tiles and vectors (gpu_element.c) */
int gpu_element_check(GpuLower *g, const TirInstr *i);      /* ELEM and SET_ELEM */
LLVMValueRef gpu_element(GpuLower *g, const TirInstr *i);   /* ELEM: the element, in every lane */
void gpu_set_element(GpuLower *g, const TirInstr *i);       /* SET_ELEM */

/* register vectors, reductions, broadcasts and masks (gpu_vector.c) */
int gpu_vector_check(GpuLower *g, const TirInstr *i);    /* rv VAR/FILL/LOAD/STORE, REDUCE, BROADCAST, MASK, TRI */
int gpu_vector_plan(GpuLower *g, const TirFunc *f);      /* g->dist for every rv of f (ids numbered, g->row chosen) */
unsigned gpu_vector_width(GpuLower *g, const TirInstr *i);
LLVMValueRef gpu_vector_elements(GpuLower *g, const TirInstr *x);   /* <n x i64>: the element index of each of the lane's elements of rv x */
LLVMValueRef gpu_vector_load(GpuLower *g, const TirInstr *i);
void gpu_vector_store(GpuLower *g, const TirInstr *i);
LLVMValueRef gpu_reduce(GpuLower *g, const TirInstr *i);
LLVMValueRef gpu_broadcast(GpuLower *g, const TirInstr *i);
LLVMValueRef gpu_mask(GpuLower *g, const TirInstr *i);    /* MASK of an rt or rv, TRI of an rt */

/* shared tiles loaded by the TMA (gpu_tma.c) */
void gpu_tma_plan(GpuLower *g, const TirFunc *f);            /* g->tma_maps, tma_tiles, cp_async_any */
int gpu_tma_map_of(const GpuLower *g, const TirInstr *i, int *tile);   /* the map of SET i (and its tile's index), or -1: not by the TMA */
void gpu_tma_begin(GpuLower *g);                             /* at the kernel's start: the mbarriers */
LLVMValueRef gpu_tma_usable(GpuLower *g, const TkType *gt, LLVMValueRef base_ok);   /* i1: the tensor can be described */
void gpu_tma_load(GpuLower *g, const TirInstr *i, int map, int tile);
void gpu_tma_wait(GpuLower *g, uint64_t bits);               /* for the TMA loads into the tiles of gpu_async.c's bits */
void gpu_tma_end(GpuLower *g);                               /* before the kernel returns */

/* shared tiles and barriers (gpu_shared.c) */
int gpu_shared_check(GpuLower *g, const TirInstr *i);       /* VAR/LOAD/FILL/SET of an st or sv; rt and rv loads and stores of them */
int64_t gpu_shared_bytes(const TirRegion *r);               /* the shared tiles a region declares */
void gpu_shared_var(GpuLower *g, const TirInstr *i);        /* VAR st: placed, zero-filled by the block */
void gpu_shared_set(GpuLower *g, const TirInstr *i);        /* SET st = LOAD gl / FILL: by the whole block */
LLVMValueRef gpu_shared_load(GpuLower *g, const TirInstr *i);   /* an rt from an st */
void gpu_shared_store(GpuLower *g, const TirInstr *i);          /* an rt into an st, by the warp */
void gpu_shared_to_global(GpuLower *g, const TirInstr *i);      /* an st or sv into a gl, by the block */
void gpu_warp_sync(GpuLower *g);                                /* the warp's lanes meet; their shared writes are seen */
void gpu_sync(GpuLower *g);
/* where element (row, col) (i64) of an st is stored: an element index (gpu_swizzle.h) */
LLVMValueRef gpu_st_index(GpuLower *g, const TkType *st, LLVMValueRef row, LLVMValueRef col);
/* warpgroup products (gpu_wgmma.c): which mmas are, and which loads they make unneeded */
int gpu_wgmma_plan(GpuLower *g, const TirFunc *f);
bool gpu_wgmma_skips(const GpuLower *g, const TirInstr *i);   /* a load of b the wgmma reads in place */
bool gpu_wgmma_takes(const GpuLower *g, const TirInstr *i);   /* an mma lowered to wgmma */
void gpu_wgmma(GpuLower *g, const TirInstr *i);
/* the (row, col) of the element stored at index e (i64) of an st: the swizzle undone (gpu_swizzle.h) */
void gpu_st_cell(GpuLower *g, const TkType *st, LLVMValueRef e, LLVMValueRef *row, LLVMValueRef *col);
/* for (e = tid; e < n; e += threads) { ... }: the block's threads share n items */
typedef struct {
    LLVMBasicBlockRef pre, head, body, exit;
    LLVMValueRef e;   /* i64: the item this thread handles */
} Coop;
void gpu_coop_begin(GpuLower *g, Coop *L, int64_t n);
void gpu_coop_end(GpuLower *g, Coop *L);

/* shared tiles loaded by asynchronous copies, and the waits they need (gpu_async.c) */
bool gpu_async_ok(const GpuLower *g, const TirInstr *i);        /* SET st = LOAD gl that can go by 16-byte copies */
void gpu_async_begin(GpuLower *g, const TirFunc *f);            /* before a kernel's body */
GpuAsyncState gpu_async_loop_in(GpuLower *g, const TirInstr *loop);   /* the state at the top of a loop's body */
GpuAsyncState gpu_async_join(GpuAsyncState a, GpuAsyncState b);       /* either one (after an if) */
void gpu_async_before_collective(GpuLower *g, const TirInstr *i);   /* the wait and barrier a collective needs first; steps the state */
void gpu_async_before_sync(GpuLower *g);                        /* the thread's copies are in before the barrier */
LLVMBasicBlockRef gpu_async_load(GpuLower *g, const TirInstr *i);   /* the copies; leaves the builder at the fallback, returns the join */

#endif
