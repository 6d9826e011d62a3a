/* emit.h — TIR → LLVM IR through the LLVM-C API, shared state of the two
 * halves: emit_llvm.c (functions, regions, the warp schedule, scalars,
 * control flow), emit_tiles.c and emit_fuse.c (tile and vector operations).
 *
 * The CPU execution model (docs/ARCHITECTURE.md): one call of NAME__block
 * runs one block. Its warps run one after another: code between two barrier
 * statements is wrapped in a loop over the warps, and barrier FOR/IFs run
 * once per block with their (uniform) bounds evaluated as warp 0. Per-warp
 * slots live in [warps × elements] stack arrays, shared slots once per block.
 * Tile values are pointers to stack buffers laid out as their type says:
 * rt row layout = row-major, col layout = column-major, st = row-major. */
#ifndef TK_LOWER_EMIT_H
#define TK_LOWER_EMIT_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <stdbool.h>
#include <stdint.h>

#include "ast.h"   /* TkOp */
#include "cpu_mma.h"   /* TkMmaBuilder */
#include "tir.h"

typedef struct {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMBuilderRef alloca_b;      /* positioned in the entry block, for stack buffers */
    LLVMValueRef fn;
    const TirFunc *f;
    /* function parameters of NAME__block */
    LLVMValueRef args, sizes, bid[3];
    LLVMValueRef warp;            /* i32: the executing warp (constant 0 in block context) */
    /* values by instruction id, valid while their scope is open */
    uint32_t count;
    LLVMValueRef *vals;
    int *val_depth;               /* scope depth that set the value, -1 = unset, INT32_MAX = permanent */
    uint32_t *set_stack;          /* ids set per scope, for popping */
    uint32_t set_top, set_cap;
    uint32_t scope_marks[512];
    int depth;
    /* slots (VAR) storage by instruction id */
    LLVMValueRef *slots;
    uint32_t *uses;               /* operand references per instruction id (emit_kernel) */
    const TirInstr **user;        /* ... and the (last) instruction that refers to it */
    /* element-wise fusion (emit_fuse.c), by instruction id, allocated on first use:
     * the root whose loop computes a node (itself if materialised; 0 unknown),
     * and, within the loop being emitted (epoch), each shared node's value at (i, j) */
    const TirInstr **fuse_owner;
    uint32_t *fuse_epoch_of;
    LLVMValueRef *fuse_memo, *fuse_memo_i, *fuse_memo_j;
    uint8_t *fuse_memo_lanes;
    uint32_t fuse_epoch;
    /* which copy of the loop a memo was made in: fuse_run emits a root's loop
     * twice (tiles inside their tensors, and the rest), and with constant
     * (i, j) (computed in lanes) the second copy must not reuse the first's */
    uint32_t *fuse_memo_pass, fuse_pass;
    /* > 1 while a fused loop computes `fuse_lanes` consecutive elements of a
     * row at a time as one vector (emit_lanes.c); 0 in element-by-element loops */
    unsigned fuse_lanes;
    /* loads from row-major tensors read in place by the fused loops (emit_fuse.c), by id:
     * 0 not judged, 1 read in place, 2 materialised; and for the loop being emitted,
     * the loads it reads (a list) with each one's first element and row stride */
    uint8_t *fuse_load;
    const TirInstr **fuse_loads;
    uint32_t nfuse_loads;
    bool fuse_judged;             /* fuse_load holds every load's users' verdict */
    LLVMValueRef *fuse_src, *fuse_stride;
    bool *param_stored;           /* by parameter index: some store writes it (emit_plan_views) */
    bool *param_read;             /* by parameter index: some instruction reads it (emit_plan_streams) */
    bool streamed;                /* the block function made a non-temporal store (emit_stream.c) */
    /* common types */
    LLVMTypeRef i1, i8, i16, i32, i64, f32, f16, bf16, ptr, vd;
    const char *features;         /* target features ("+avx512f,..."): picks mma micro-kernels */
    /* DWARF line tables (tkc -g): every instruction carries its .tk line */
    const TkSource *src;
    LLVMDIBuilderRef dib;
    LLVMMetadataRef di_file, di_unit, di_sub;
    unsigned long long stack_bytes;   /* stack buffers of the block function */
    LLVMValueRef shared_arena;        /* the block's st/sv tiles (planned by plan-shared) */
    /* view variables (emit_packed.c, emit_rowview.c): rt slots that point into a tensor */
    uint8_t *is_view;                 /* by slot id: 0, or the EmitViewKind */
    LLVMValueRef *views;              /* by slot id: per-warp pointer to the current tile */
    LLVMValueRef *view_backing;       /* by slot id: per-warp tile for loads that cross an edge */
    LLVMValueRef *view_strides;       /* by slot id: per-warp stride of the tile pointed to (per kind) */
    /* accumulators kept lazily zero / in their output (emit_outview.c), by slot id, NULL if not */
    struct EmitOutview **outviews;
    const TirInstr **alias;           /* by slot id: the variable whose storage it shares (emit_coalesce.c), or NULL */
    struct EmitLazyZero *lazyzero;    /* zero fills the first mma takes over (emit_lazyzero.c) */
    bool failed;
    char err[256];
} Emit;

/* Tiles live on the stack of a launch worker (64 MiB, targets/cpu/launch.c). */
#define TK_CPU_STACK_LIMIT (48 << 20)
/* What a block needs beyond its tile buffers (spills, calls into libm), added
 * to the size NAME__grid reports so a launcher can judge a smaller stack. */
#define TK_CPU_FRAME_SLACK (256 << 10)

/* emit_fuse.c: is element-wise value x computed inside the loop of the root
 * its users belong to (so it is not emitted where it stands)? */
bool emit_fused_into_user(Emit *E, const TirInstr *x);
/* emit_subtile.c: sub-tiles, rows and columns (SLICE, LINE: element-wise
 * reads that fuse; SET_SLICE, SET_LINE: region writes). emit_subtile_elem is
 * element (i, j) of read x, through `elem` (the fusion's element of an
 * operand, f32); emit_subtile_in_tree: does fused tree x read one (then it
 * must not be written in place into a variable it may read). */
typedef LLVMValueRef (*EmitElemFn)(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j);
bool emit_is_subtile_read(const TirInstr *x);
LLVMValueRef emit_subtile_elem(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j, EmitElemFn elem);
bool emit_subtile_in_tree(Emit *E, const TirInstr *x);
void emit_subtile_set(Emit *E, const TirInstr *s);
/* emit_lanes.c: fused element loops over small row-major values, in vectors.
 * emit_lanes_for: the lanes per vector for a value of type t (0: the value
 * is too large or not row-major, an element loop serves it). The others are
 * emit_ld / emit_st / a splat for `n` consecutive elements at once. */
unsigned emit_lanes_for(const TkType *t);
LLVMValueRef emit_ld_lanes(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx, unsigned n);
void emit_st_lanes(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v);
LLVMValueRef emit_splat(Emit *E, LLVMValueRef scalar, unsigned n);
LLVMValueRef emit_lane_index(Emit *E, LLVMValueRef first, unsigned n);
/* x is an element-wise value or a reduction that nothing reads: not emitted at all. */
bool emit_is_dead_tile_value(Emit *E, const TirInstr *x);

/* emit_stream.c: non-temporal stores of large write-only outputs.
 * emit_stream_candidate: may a fused store of `tile` into tensor parameter
 * dst stream (compile-time facts); emit_stream_ok: i1, may this tile's
 * store stream (the tensor's size, `first` and the row pitch aligned);
 * emit_st_stream: a non-temporal store of vector v (f32 lanes, rounded to
 * t's elements) at element idx, for 16-bit elements followed by v2's lanes; emit_stream_fence: before the block
 * function returns, the sfence its streamed stores need. */
int emit_plan_streams(Emit *E, const TirRegion *body);
void emit_free_streams(Emit *E);
bool emit_stream_candidate(const Emit *E, const TirInstr *dst, const TkType *tile);
LLVMValueRef emit_stream_ok(Emit *E, const TkType *g, LLVMValueRef first, LLVMValueRef ncols);
void emit_st_stream(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v, LLVMValueRef v2);
void emit_stream_fence(Emit *E);

/* emit_llvm.c */
LLVMValueRef emit_value(Emit *E, const TirInstr *i);
LLVMTypeRef emit_scalar_type(Emit *E, TkTypeKind k);
LLVMValueRef emit_alloca(Emit *E, LLVMTypeRef elem, int64_t count, const char *name);
/* Elements from one warp's copy of a per-warp tile buffer to the next: the
 * tile's elements, padded to 64 bytes, because tile copies and fills
 * (emit_tile_copy, emit_tile_zero) assume the 64-byte alignment of the
 * alloca for every warp's copy (an rv<f16, 48> is 96 bytes: unpadded, warp
 * 1's copy sat at 96 and an aligned zmm store faulted). */
int64_t emit_warp_stride(const TkType *t);
LLVMValueRef emit_const_i64(Emit *E, int64_t v);
LLVMValueRef emit_const_i32(Emit *E, int64_t v);
void emit_scope_push(Emit *E);
void emit_scope_pop(Emit *E);
LLVMValueRef emit_intrinsic(Emit *E, const char *name, LLVMTypeRef *overloads, unsigned noverloads,
                            LLVMValueRef *args, unsigned nargs);
/* A float constant of kind k (bf16 as its RNE-rounded bit pattern). */
LLVMValueRef emit_const_float(Emit *E, TkTypeKind k, double value);
/* f16/bf16 → f32. bf16 values are carried as i16 bit patterns throughout. */
LLVMValueRef emit_to_f32(Emit *E, LLVMValueRef v, TkTypeKind from);
/* f32 → f16/bf16 with round-to-nearest-even, without runtime libcalls; `to` is
 * the element type (a vector v gives a vector). */
LLVMValueRef emit_fptrunc(Emit *E, LLVMValueRef v, LLVMTypeRef to);
/* The scalar type `scalar`, or a vector of it as long as v. */
LLVMTypeRef emit_type_like(LLVMValueRef v, LLVMTypeRef scalar);
/* Scalar value `v` of kind `from` as kind `to` (float kinds: RNE). */
LLVMValueRef emit_convert_scalar(Emit *E, LLVMValueRef v, TkTypeKind from, TkTypeKind to);
/* A counted loop: for (idx = 0; idx < n; idx++). */
typedef struct {
    LLVMBasicBlockRef header, body, exit;
    LLVMValueRef idx;   /* i64 */
} EmitLoop;
void emit_loop_begin(Emit *E, EmitLoop *L, LLVMValueRef n, const char *name);
void emit_loop_end(Emit *E, EmitLoop *L);
/* Ends the row loop of a row × column nest over a tile: its inner loop walks
 * contiguous elements and is fully unrolled by LLVM, after which the loop
 * vectoriser would vectorise across rows with gathers and scatters; this keeps
 * it off the row loop so the SLP vectoriser turns each row into vector ops. */
void emit_loop_end_rows(Emit *E, EmitLoop *L);
void emit_loop_end_lanes(Emit *E, EmitLoop *L);   /* an element loop for the loop vectoriser, not full unrolling */
/* Slot storage of VAR instruction v for the current warp (pointer). */
LLVMValueRef emit_slot_ptr(Emit *E, const TirInstr *v);
/* Dimension d of tensor parameter type t as i64, from the bound sizes. */
LLVMValueRef emit_tensor_dim(Emit *E, const TkType *t, unsigned d);

/* emit_tiles.c: value ops on tiles (return a pointer to the result buffer) and
 * tile statements; emit_mma.c: emit_tile_mma */
LLVMValueRef emit_tile_value(Emit *E, const TirInstr *i);
void emit_tile_store(Emit *E, const TirInstr *i);
/* The stack buffer of tile value i (made on first use). */
LLVMValueRef emit_temp_buffer(Emit *E, const TirInstr *i);
/* emit_fuse.c: element-wise values (one fused loop per root), fills,
 * reductions, and a store of an element-wise value (written in its loop). */
LLVMValueRef emit_elementwise(Emit *E, const TirInstr *x);
LLVMValueRef emit_fill(Emit *E, const TirInstr *i);
LLVMValueRef emit_reduce(Emit *E, const TirInstr *i);
void emit_fused_store(Emit *E, const TirInstr *st);
/* The streamed branch of a store of the tile in buf (emit_fuse.c): the join
 * block, with the builder at the ordinary copy; NULL when it cannot stream. */
LLVMBasicBlockRef emit_store_stream_begin(Emit *E, const TirInstr *st, LLVMValueRef buf);
void emit_tile_mma(Emit *E, const TirInstr *i);
/* The micro-kernel row (intrinsics/cpu_mma.h) an mma runs on: legalise's
 * choice, else the target's; NULL for the portable loop. */
const TkMmaKernel *emit_mma_kernel(const Emit *E, const TirInstr *mma);
void emit_tile_copy(Emit *E, LLVMValueRef dst, LLVMValueRef src, const TkType *t);
void emit_tile_zero(Emit *E, LLVMValueRef dst, const TkType *t);
void emit_tile_set_elem(Emit *E, const TirInstr *i);
LLVMValueRef emit_tile_elem(Emit *E, const TirInstr *i);
int64_t emit_tile_elems(const TkType *t);
/* Element (i, j) offset of a tile of type t (i64 values). */
LLVMValueRef emit_tile_index(Emit *E, const TkType *t, LLVMValueRef i, LLVMValueRef j);
/* Element helpers shared by emit_tiles.c and emit_mma.c: the LLVM type of a
 * tile's elements; load element idx widened to f32; store an f32 value as
 * element idx (rounded, RNE); copy one element without conversion. */
LLVMTypeRef emit_elem_type(Emit *E, const TkType *t);
LLVMValueRef emit_ld(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx);
void emit_st(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v);
void emit_copy_elem(Emit *E, const TkType *t, LLVMValueRef dst, LLVMValueRef di, LLVMValueRef src, LLVMValueRef si);
/* Offset of element (i, j) of a tile stored with physical packing `pack`
 * (TIR_PACK_NONE: the layout its type says). */
LLVMValueRef emit_packed_index(Emit *E, const TkType *t, TirPack pack, LLVMValueRef i, LLVMValueRef j);

/* emit_packed.c: tiles in and out of packed tensors (2-byte elements). */
void emit_packed_transfer(Emit *E, const TkType *g, LLVMValueRef tensor, const TirInstr *const *coords, const TkType *tile,
                          LLVMValueRef buf, bool to_tile, TirPack pack);
/* Load `load` (from a packed tensor, in the plane's own packing) without a
 * copy: a pointer into the tensor when the tile lies in its paired rows,
 * else `backing` filled the masked way; *panel_stride gets its B panel stride. */
LLVMValueRef emit_packed_view(Emit *E, const TirInstr *load, LLVMValueRef backing, LLVMValueRef *panel_stride);
/* View variables: an rt slot packed for mma B whose every assignment is a
 * load from a packed tensor the kernel never writes holds a pointer — into
 * the tensor, or to its own tile when a load crosses the edge — instead of
 * a copy. emit_plan_views decides (after uses are counted); the rest emit
 * the declaration, an assignment and a read of such a slot. */
typedef enum {
    EMIT_VIEW_PACKED = 1,   /* B in a packed tensor; the stride is B's panel stride */
    EMIT_VIEW_ROWS,         /* A in a row-major tensor (emit_rowview.c); the stride is A's row stride */
    EMIT_VIEW_ROWS_B,       /* f32 B in a row-major tensor (emit_rowview.c); the stride is B's row stride */
} EmitViewKind;
int emit_plan_views(Emit *E, const TirRegion *body);
void emit_free_views(Emit *E);
bool emit_is_view(const Emit *E, const TirInstr *slot);
/* The EmitViewKind of a view slot, 0 if it is none. */
int emit_view_kind(const Emit *E, const TirInstr *slot);
/* emit_rowview.c: marks the row views among the slots that are no view yet,
 * given which params the kernel stores into (0, or -1 out of memory);
 * emit_row_view is emit_packed_view's counterpart for them. */
int emit_find_row_views(Emit *E, const TirRegion *body, const bool *stored);
LLVMValueRef emit_row_view(Emit *E, const TirInstr *load, LLVMValueRef backing, LLVMValueRef *row_stride);
void emit_view_declare(Emit *E, const TirInstr *slot, bool zero);
void emit_view_set(Emit *E, const TirInstr *slot, const TirInstr *load);
LLVMValueRef emit_view_ptr(Emit *E, const TirInstr *slot);
/* The stride of the tile a view points to, in elements: B's panel stride
 * (cpu_mma.h) for a packed view, A's row stride for a row view. */
LLVMValueRef emit_view_stride(Emit *E, const TirInstr *slot);
/* Lazy zero (emit_lazyzero.c): a zero fill that the next statement, an mma,
 * or the mmas up to the variable's first other mention take over. Planned
 * after views. fill_left_to_mma: is this SET such a fill; set_is_zero_for_mma:
 * the same, and the SET is not emitted (it sets the run-time flag instead, if
 * any); mma_acc_zero: the i1 for the builder's acc_zero (NULL: none), and
 * mma_acc_written after the micro-kernel; settle: called before every
 * instruction, fills a lazy variable still zero before its first other
 * mention. is_zero_fill: a FILL of +0; mma_has_row_kernel: an mma bound to a
 * micro-kernel with the row-major accumulator. */
int emit_plan_lazy_zero(Emit *E, const TirRegion *body);
void emit_free_lazy_zero(Emit *E);
bool emit_is_lazy_zero(const Emit *E, const TirInstr *v);
bool emit_fill_left_to_mma(const Emit *E, const TirInstr *set);
bool emit_set_is_zero_for_mma(Emit *E, const TirInstr *set);
LLVMValueRef emit_mma_acc_zero(Emit *E, const TirInstr *mma);
void emit_mma_acc_written(Emit *E, const TirInstr *mma);
void emit_lazy_zero_settle(Emit *E, const TirInstr *i);
bool emit_is_zero_fill(const TirInstr *v);
bool emit_mma_has_row_kernel(const TirInstr *mma);
/* Output views (emit_outview.c): a top-level f32 accumulator whose zero fill
 * lazy zero took over, only mma'd, then stored once, lives in C itself where
 * its tile lies inside C. emit_plan_outviews decides (after lazy zero); the
 * rest emit its declaration (where it lives), each mma into it (mma_begin:
 * the acc pointer and the builder's row stride; mma_end: after it, where the
 * result went), a lazy fill (zero: through
 * the pointer and stride) and its store (before_store: NULL if the store is
 * not of an output view, else an i1 that is true when C already holds the
 * tile and the copy must be skipped). */
int emit_plan_outviews(Emit *E, const TirRegion *body);
void emit_free_outviews(Emit *E);
bool emit_is_outview(const Emit *E, const TirInstr *slot);
void emit_outview_declare(Emit *E, const TirInstr *slot);
LLVMValueRef emit_outview_mma_begin(Emit *E, const TirInstr *slot, TkMmaBuilder *mb);
void emit_outview_mma_end(Emit *E, const TirInstr *slot, const TkMmaBuilder *mb);
void emit_outview_zero(Emit *E, const TirInstr *slot);
LLVMValueRef emit_outview_before_store(Emit *E, const TirInstr *store);
/* Coalescing (emit_coalesce.c): `SET v, GET w` where w dies and v is idle
 * during w's life stores w in v, so the copy vanishes. Planned after views
 * and output views; emit_storage_of gives the variable whose slot v uses. */
int emit_plan_coalesce(Emit *E, const TirRegion *body);
void emit_free_coalesce(Emit *E);
void emit_free_fusion(Emit *E);
const TirInstr *emit_storage_of(const Emit *E, const TirInstr *v);
/* emit_gl.c: is a tile of type `tile` at `coords` of tensor type g wholly
 * inside it (i1), and the element offset of its first element. */
LLVMValueRef emit_gl_tile_at(Emit *E, const TkType *g, const TirInstr *const *coords, const TkType *tile, LLVMValueRef *offset);
/* emit_gl.c: a tile to (to_tile) or from `buf` at `coords` of a global
 * tensor, masked at its edges (a load reads 0 outside). */
void emit_gl_transfer(Emit *E, const TkType *g, LLVMValueRef tensor, const TirInstr *const *coords, const TkType *tile, LLVMValueRef buf,
                      bool to_tile, TirPack pack);
/* emit_scalars.c: is k a float kind (typed or untyped); a scalar TIR_BINARY;
 * ceil(a / b) for b > 0 (0 when a ≤ 0). */
bool emit_is_float_kind(TkTypeKind k);
LLVMValueRef emit_scalar_binary(Emit *E, const TirInstr *i);
/* The same on values x, y of kind k (both CPU and GPU emitters use it). */
LLVMValueRef emit_scalar_binop(Emit *E, TkOp op, TkTypeKind k, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef emit_scalar_unop(Emit *E, TkOp op, TkTypeKind k, LLVMValueRef x);
LLVMValueRef emit_scalar_cdiv(Emit *E, LLVMValueRef a, LLVMValueRef b);
/* fma(x, y, z) with one rounding (llvm.fma), on f32 scalars or vectors. */
LLVMValueRef emit_fma(Emit *E, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z);
/* Scalar MAP1/MAP2/MAP3 instruction i on its operands' values opnds (of i's
 * type; bf16/f16 are computed in f32 and rounded once). */
/* A constant vector of n copies of constant c (any n). */
LLVMValueRef emit_const_splat(LLVMValueRef c, unsigned n);
LLVMValueRef emit_scalar_map(Emit *E, const TirInstr *i, const LLVMValueRef *opnds);
/* Scalar math function fn on float values (f32), or on ints for max/min. */
LLVMValueRef emit_fn(Emit *E, TirFn fn, LLVMValueRef x, LLVMValueRef y, bool is_int);

#endif
