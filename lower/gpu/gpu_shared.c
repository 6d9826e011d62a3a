/* gpu_shared.c — shared tiles and barriers in the GPU lowering.
 *
 * An st is block-shared memory that the vendor places (gpu_lower.h
 * shared_at: an addrspace(3) array on a GPU, the emulator's per-block buffer
 * on sm_80-emu), row-major, bf16 as 16-bit patterns. What the language makes
 * block-collective — the zero fill of a declaration, `s = load(gl, ...)`,
 * `s = fill(x)`, `store(gl, s, ...)` — the block's threads share: thread t handles elements t,
 * t + threads, t + 2·threads, ... So the thread that zero-fills an element is
 * the one that later loads it, and a thread reads what others wrote only
 * after a sync(), as the language asks (docs/LANGUAGE.md §4). A register tile
 * is read from an st lane by lane through the base tile's lane maps, like a
 * load from a gl but without masks: the checker keeps st coordinates in range.
 * An st is stored swizzled (gpu_swizzle.h: 16-byte chunks of a row exchanged
 * so that 8 rows at one column fall in 8 different banks); the block's loops
 * walk its storage in order and find each element's (row, col) from it.
 * A bf16/f16 register tile whose fragments are ldmatrix's (the mma A layout,
 * or B's with .trans) is read with ldmatrix where the vendor has it, one
 * 16-byte row per lane and 8x8 matrix; other tiles one element at a time.
 * Register tiles and vectors stored into an st or
 * sv are per-warp: each lane writes the elements it owns, and the warp meets
 * (warp_sync) so that its later reads see them. An sv is placed and filled
 * like an st; rv loads and stores of one go through gpu_vector.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"
#include "gpu_swizzle.h"

static bool is_shared(const TkType *t) { return t && tk_is_shared(t->kind); }

/* the declaration of shared tile or vector x (x itself, or a GET of it), or NULL */
static const TirInstr *shared_var(const TirInstr *x)
{
    if (x->op == TIR_GET) x = x->args[0];
    return x->op == TIR_VAR && is_shared(x->type) ? x : NULL;
}

/* elements of an st or sv */
static int64_t shared_elems(const TkType *t) { return t->kind == TK_TY_SV ? t->dims[0] : t->dims[0] * t->dims[1]; }

static bool st_elem_ok(const TkType *t) { return gpu_half(t->elem) || t->elem == TK_TY_F32; }

/* ---------------------------------------------------------------- checking */

static int refuse(GpuLower *g, const TirInstr *i, const char *what)
{
    return gpu_not_supported(g, i, what);
}

/* the SET that must consume a collective value: the next statement */
static bool set_into_st(const TirInstr *i)
{
    const TirInstr *n = i->next;
    return n && n->op == TIR_SET && n->args[1] == i && is_shared(n->args[0]->type);
}

int gpu_shared_check(GpuLower *g, const TirInstr *i)
{
    char ty[128], ty2[128], what[320];
    switch (i->op) {
    case TIR_VAR:
        if (!st_elem_ok(i->type)) {
            snprintf(what, sizeof what, "of %s (shared tiles and vectors are bf16 or f32)", gpu_type_str(i->type, ty, sizeof ty));
            return refuse(g, i, what);
        }
        return 0;
    case TIR_FILL:
        if (!set_into_st(i)) return refuse(g, i, "of a shared tile used other than as `s = fill(x)`");
        return 0;
    case TIR_LOAD: {
        const TirInstr *src = i->args[0];
        if (src->type->kind == TK_TY_SV) {   /* an rv from an sv: a sub-vector, or the whole */
            TkTypeKind se = src->type->elem, te = i->type->elem;
            if (i->type->kind != TK_TY_RV || src->op != TIR_VAR || i->nargs > 2 || !(se == te || (te == TK_TY_F32 && gpu_half(se)))) {
                snprintf(what, sizeof what, "from %s into %s", gpu_type_str(src->type, ty, sizeof ty), gpu_type_str(i->type, ty2, sizeof ty2));
                return refuse(g, i, what);
            }
            return 0;
        }
        if (is_shared(i->type)) {   /* s = load(gl, ...): the whole block */
            TkTypeKind ge = src->type->elem, te = i->type->elem;
            if (src->op != TIR_PARAM || src->type->kind != TK_TY_GL || (gpu_is_st(i->type) && src->type->rank < 2) ||
                i->nargs != 1 + src->type->rank ||
                !(ge == te || (te == TK_TY_F32 && (ge == TK_TY_BF16 || ge == TK_TY_F16))) || !set_into_st(i)) {
                snprintf(what, sizeof what, "from %s into %s", gpu_type_str(src->type, ty, sizeof ty), gpu_type_str(i->type, ty2, sizeof ty2));
                return refuse(g, i, what);
            }
            return 0;
        }
        /* an rt from an st: the same element type, a role the base tile has, two coordinates or none */
        if (i->type->kind != TK_TY_RT || gpu_role_of(i->type) == ROLE_NONE || src->type->elem != i->type->elem ||
            src->op != TIR_VAR || (i->nargs != 1 && i->nargs != 3)) {
            snprintf(what, sizeof what, "from %s into %s", gpu_type_str(src->type, ty, sizeof ty), gpu_type_str(i->type, ty2, sizeof ty2));
            return refuse(g, i, what);
        }
        return 0;
    }
    case TIR_SET: {
        const TirInstr *v = i->args[1];
        if ((v->op == TIR_LOAD || v->op == TIR_FILL) && is_shared(v->type)) return 0;
        snprintf(what, sizeof what, "of %s from %s (a shared tile is set by load(gl, ...) or fill(x) only, yet)",
                 gpu_type_str(i->args[0]->type, ty, sizeof ty), tir_op_name(v->op));
        return refuse(g, i, what);
    }
    case TIR_STORE: {   /* per warp: an rt into an st, an rv into an sv; by the block: an st or sv into a gl */
        const TirInstr *dst = i->args[0], *v = i->args[1];
        if (is_shared(v->type)) {
            if (shared_var(v) == NULL || dst->op != TIR_PARAM || dst->type->kind != TK_TY_GL || i->nargs != 2 + dst->type->rank ||
                (gpu_is_st(v->type) && dst->type->rank < 2) || dst->type->elem != v->type->elem) {
                snprintf(what, sizeof what, "of %s into %s (a shared tile or vector is stored into a tensor of its element type)",
                         gpu_type_str(v->type, ty, sizeof ty), gpu_type_str(dst->type, ty2, sizeof ty2));
                return refuse(g, i, what);
            }
            return 0;
        }
        bool tile = dst->type->kind == TK_TY_ST && v->type->kind == TK_TY_RT && gpu_role_of(v->type) != ROLE_NONE &&
                    (i->nargs == 2 || i->nargs == 4);
        bool vec = dst->type->kind == TK_TY_SV && v->type->kind == TK_TY_RV && i->nargs <= 3;
        if (dst->op != TIR_VAR || !(tile || vec) || dst->type->elem != v->type->elem) {
            snprintf(what, sizeof what, "of %s into %s (register tiles into shared tiles and register vectors into shared "
                                        "vectors of their element type, yet)",
                     gpu_type_str(v->type, ty, sizeof ty), gpu_type_str(dst->type, ty2, sizeof ty2));
            return refuse(g, i, what);
        }
        return 0;
    }
    case TIR_GET:   /* the tile as a value: its place, for a store into a tensor (checked there) */
        if (shared_var(i)) return 0;
        snprintf(what, sizeof what, "on %s", gpu_type_str(i->type, ty, sizeof ty));
        return refuse(g, i, what);
    default:
        snprintf(what, sizeof what, "on %s", gpu_type_str(i->type, ty, sizeof ty));
        return refuse(g, i, what);
    }
}

static int64_t st_bytes(const TkType *t)
{
    return shared_elems(t) * gpu_elem_bytes(t->elem);
}

/* Shared tiles start at 16 bytes, or where their swizzle pattern starts
 * when it is one of NVIDIA's (rows of 128·k, 64 or 32 bytes): every 8 lines
 * of 128 bytes, at 1024, 512 or 256 bytes. wgmma's descriptors
 * (gpu_wgmma.c) and the TMA (gpu_tma.c) read the pattern from the address
 * itself, so a tile elsewhere would be read or written in another order. */
static int64_t st_align(const TkType *t)
{
    int sw = t->kind == TK_TY_ST ? tk_swizzle_nvidia_bytes(t->dims[1], gpu_elem_bytes(t->elem)) : 0;
    return sw ? 8 * sw : 16;
}
static int64_t align_to(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

int64_t gpu_shared_bytes(const TirRegion *r)
{
    int64_t n = 0;
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_VAR && is_shared(i->type)) n = align_to(n, st_align(i->type)) + st_bytes(i->type);
        n += gpu_shared_bytes(&i->body[0]) + gpu_shared_bytes(&i->body[1]);
    }
    return n;
}

/* ---------------------------------------------------------------- block-shared loops */

/* for (e = tid; e < n; e += threads) */
void gpu_coop_begin(GpuLower *g, Coop *L, int64_t n)
{
    LLVMBuilderRef B = g->e.b;
    L->pre = LLVMGetInsertBlock(B);
    L->head = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "coop");
    L->body = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "coop.body");
    L->exit = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "coop.end");
    LLVMValueRef start = LLVMBuildZExt(B, g->tid, g->e.i64, "");
    LLVMBuildBr(B, L->head);
    LLVMPositionBuilderAtEnd(B, L->head);
    L->e = LLVMBuildPhi(B, g->e.i64, "e");
    LLVMAddIncoming(L->e, &start, &L->pre, 1);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, L->e, c64(g, n), ""), L->body, L->exit);
    LLVMPositionBuilderAtEnd(B, L->body);
}

void gpu_coop_end(GpuLower *g, Coop *L)
{
    LLVMBuilderRef B = g->e.b;
    int64_t threads = (int64_t)(g->f->warps > 0 ? g->f->warps : 1) * g->wave;
    LLVMValueRef next = LLVMBuildAdd(B, L->e, c64(g, threads), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMAddIncoming(L->e, &next, &latch, 1);
    LLVMBuildBr(B, L->head);
    LLVMPositionBuilderAtEnd(B, L->exit);
}

/* how an st element is held: bf16 as its bits */
static void st_store(GpuLower *g, const TkType *st, LLVMValueRef base, LLVMValueRef e, LLVMValueRef x)
{
    LLVMTypeRef et = gpu_elem_type(g, st->elem);
    LLVMBuildStore(g->e.b, x, LLVMBuildGEP2(g->e.b, et, base, &e, 1, ""));
}

/* an st's swizzle (gpu_swizzle.h); an sv is not swizzled */
static TkSwizzle st_swizzle(const TkType *sh)
{
    TkSwizzle none = { 0, 0, 0, 0 };
    return sh->kind == TK_TY_ST ? tk_swizzle_of(sh->dims[1], gpu_elem_bytes(sh->elem)) : none;
}

/* column col (within its panel) of row `row` moved by the swizzle (i64
 * values); the same exchange maps a stored column back to the tile's */
static LLVMValueRef swz_col(GpuLower *g, TkSwizzle z, LLVMValueRef row, LLVMValueRef col)
{
    LLVMBuilderRef B = g->e.b;
    if (z.mask == 0) return col;
    LLVMValueRef x = LLVMBuildAnd(B, LLVMBuildLShr(B, row, c64(g, z.shift), ""), c64(g, z.mask), "");
    return LLVMBuildXor(B, col, LLVMBuildShl(B, x, c64(g, z.chunk_shift), ""), "swz");
}

/* where element (row, col) of st lies: an element index (i64);
 * tk_swizzle_index in IR */
LLVMValueRef gpu_st_index(GpuLower *g, const TkType *st, LLVMValueRef row, LLVMValueRef col)
{
    LLVMBuilderRef B = g->e.b;
    TkSwizzle z = st_swizzle(st);
    if (!z.panel) return LLVMBuildAdd(B, LLVMBuildMul(B, row, c64(g, st->dims[1]), ""), swz_col(g, z, row, col), "");
    LLVMValueRef panel = LLVMBuildSDiv(B, col, c64(g, z.panel), ""), in = LLVMBuildSRem(B, col, c64(g, z.panel), "");
    LLVMValueRef at = LLVMBuildAdd(B, LLVMBuildMul(B, panel, c64(g, st->dims[0] * z.panel), ""), LLVMBuildMul(B, row, c64(g, z.panel), ""), "");
    return LLVMBuildAdd(B, at, swz_col(g, z, row, in), "");
}

void gpu_st_cell(GpuLower *g, const TkType *st, LLVMValueRef e, LLVMValueRef *row, LLVMValueRef *col)
{
    LLVMBuilderRef B = g->e.b;
    TkSwizzle z = st_swizzle(st);
    int64_t w = z.panel ? z.panel : st->dims[1], plane = st->dims[0] * w;
    LLVMValueRef panel = LLVMBuildSDiv(B, e, c64(g, plane), ""), in = LLVMBuildSRem(B, e, c64(g, plane), "");
    *row = LLVMBuildSDiv(B, in, c64(g, w), "");
    LLVMValueRef c = swz_col(g, z, *row, LLVMBuildSRem(B, in, c64(g, w), ""));
    *col = z.panel ? LLVMBuildAdd(B, LLVMBuildMul(B, panel, c64(g, w), ""), c, "") : c;
}

/* ---------------------------------------------------------------- emission */

static bool mentions(const TirRegion *r, const TirInstr *var)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        for (unsigned a = 0; a < i->nargs; a++)
            if (i->args[a] == var) return true;
        if (mentions(&i->body[0], var) || mentions(&i->body[1], var)) return true;
    }
    return false;
}

/* The first statement from `from` on that uses var: 1 if it is a collective
 * `var = load(...)` / `var = fill(x)` (which writes every element), 0 if
 * something else (or one inside an if), -1 if none does. A loop's body comes
 * first: its first iteration runs before anything after the loop. */
static int first_use_sets(const TirInstr *from, const TirInstr *var)
{
    for (const TirInstr *i = from; i; i = i->next) {
        if (i->op == TIR_FOR) {
            int r = first_use_sets(i->body[0].first, var);
            if (r >= 0) return r;
            continue;
        }
        if (i->op == TIR_IF) {
            if (mentions(&i->body[0], var) || mentions(&i->body[1], var)) return 0;
            continue;
        }
        for (unsigned a = 0; a < i->nargs; a++)
            if (i->args[a] == var)
                return i->op == TIR_SET && a == 0 && (i->args[1]->op == TIR_LOAD || i->args[1]->op == TIR_FILL);
    }
    return -1;
}

void gpu_shared_var(GpuLower *g, const TirInstr *i)
{
    int64_t bytes = st_bytes(i->type), off = align_to(g->shared_used, st_align(i->type));
    g->shared_used = off + bytes;
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    LLVMValueRef base = g->v->shared_at(&gb, i->name ? i->name : "st", bytes, off);
    g->slots[i->id] = base;
    /* a declaration is zero-filled (by the block), before any warp's own
     * access: a warp may store into it next, without a sync(). Unless the
     * block sets every element first (examples/gemm.tk's As = load(...)). */
    if (first_use_sets(i->next, i) == 1) return;
    Coop L;
    gpu_coop_begin(g, &L, shared_elems(i->type));
    st_store(g, i->type, base, L.e, LLVMConstNull(gpu_elem_type(g, i->type->elem)));
    gpu_coop_end(g, &L);
    gpu_sync(g);
}

/* Where the element stored at e of shared tile or vector sh lies in gl type gt
 * at coords[] (tile coordinates last, docs/LANGUAGE.md §4.4), and whether it
 * is inside the tensor: a one-element Access. */
static Access gl_cell(GpuLower *g, const TkType *gt, const TirInstr *const *coords, const TkType *sh, LLVMValueRef e)
{
    LLVMBuilderRef B = g->e.b;
    unsigned rank = gt->rank;
    LLVMValueRef row, col, last = gpu_i64v(g, gpu_val(g, coords[rank - 1]));
    if (sh->kind == TK_TY_SV) {   /* an element index (rank ≥ 2), then the vector's tile coordinate */
        row = rank >= 2 ? gpu_i64v(g, gpu_val(g, coords[rank - 2])) : c64(g, 0);
        col = LLVMBuildAdd(B, LLVMBuildMul(B, last, c64(g, sh->dims[0]), ""), e, "col");
    } else {
        int64_t R = sh->dims[0], C = sh->dims[1];
        LLVMValueRef r, c;
        gpu_st_cell(g, sh, e, &r, &c);   /* e is where the element is stored */
        row = LLVMBuildAdd(B, LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, coords[rank - 2])), c64(g, R), ""), r, "row");
        col = LLVMBuildAdd(B, LLVMBuildMul(B, last, c64(g, C), ""), c, "col");
    }
    LLVMTypeRef v1 = LLVMVectorType(g->e.i64, 1);
    return gpu_gl_access(g, gt, coords, LLVMBuildInsertElement(B, LLVMGetPoison(v1), row, c32(g, 0), ""),
                         LLVMBuildInsertElement(B, LLVMGetPoison(v1), col, c32(g, 0), ""), 1);
}

/* element e of `s = load(X, coords)`: X's element or 0 outside it, in the
 * shared tile's type */
static LLVMValueRef gl_element(GpuLower *g, const TirInstr *ld, const TkType *st, LLVMValueRef e)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *src = ld->args[0];
    const TkType *gt = src->type;
    Access A = gl_cell(g, gt, (const TirInstr *const *)&ld->args[1], st, e);
    /* read only inside the tensor (0 outside): a gather of one element */
    LLVMTypeRef rt = gpu_elem_type(g, gt->elem), want = gpu_elem_type(g, st->elem);
    LLVMValueRef x = LLVMBuildExtractElement(B, gpu_gather(g, gpu_val(g, src), rt, A, 1), c32(g, 0), "");
    if (want == g->e.f32 && rt == g->e.i16) {   /* bf16 / f16 widened into an f32 tile */
        LLVMTypeRef h = gt->elem == TK_TY_BF16 ? g->e.bf16 : g->e.f16;
        x = LLVMBuildFPExt(B, LLVMBuildBitCast(B, x, h, ""), g->e.f32, "");
    }
    return x;
}

/* store(X, s, coords) of a shared tile or vector: by the block, element by
 * element, inside the tensor only */
void gpu_shared_to_global(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *dst = i->args[0], *s = i->args[1];
    const TkType *sh = s->type;
    LLVMTypeRef et = gpu_elem_type(g, sh->elem);
    gpu_async_before_collective(g, i);
    Coop L;
    gpu_coop_begin(g, &L, shared_elems(sh));
    Access A = gl_cell(g, dst->type, (const TirInstr *const *)&i->args[2], sh, L.e);
    LLVMValueRef x = LLVMBuildLoad2(B, et, LLVMBuildGEP2(B, et, g->slots[shared_var(s)->id], &L.e, 1, ""), "");
    LLVMValueRef v = LLVMBuildInsertElement(B, LLVMGetPoison(LLVMVectorType(et, 1)), x, c32(g, 0), "");
    gpu_scatter(g, gpu_val(g, dst), et, A, v, 1);
    gpu_coop_end(g, &L);
}

void gpu_shared_set(GpuLower *g, const TirInstr *i)
{
    const TirInstr *slot = i->args[0], *v = i->args[1];
    const TkType *st = slot->type;
    LLVMValueRef base = g->slots[slot->id];
    Coop L;
    gpu_async_before_collective(g, i);
    if (v->op == TIR_FILL) {
        const TirInstr *s = v->args[0];
        LLVMValueRef x = emit_convert_scalar(&g->e, gpu_val(g, s), s->type->kind, st->elem);
        if (st->elem != TK_TY_F32) x = LLVMBuildBitCast(g->e.b, x, g->e.i16, "");
        gpu_coop_begin(g, &L, shared_elems(st));
        st_store(g, st, base, L.e, x);
        gpu_coop_end(g, &L);
        return;
    }
    LLVMBasicBlockRef done = gpu_async_ok(g, i) ? gpu_async_load(g, i) : NULL;
    gpu_coop_begin(g, &L, shared_elems(st));
    st_store(g, st, base, L.e, gl_element(g, v, st, L.e));
    gpu_coop_end(g, &L);
    if (done) {
        LLVMBuildBr(g->e.b, done);
        LLVMPositionBuilderAtEnd(g->e.b, done);
    }
}

/* Where in st the lane's elements of an rt of type t at sub-tile
 * coordinates (r0, c0) (none: (0, 0)) are: the row and column of the lane's
 * element 0 of fragment 0, to which cell() adds each element's constant
 * part. Scalar index arithmetic: as <n x i64> vectors it cost
 * examples/gemm.tk 32 registers and a spill on sm_80. */
typedef struct {
    LLVMValueRef row, col, at;   /* at: the index of (row, col) in an unswizzled st */
} Base;

static Base tile_base(GpuLower *g, const TkType *st, const TkType *t, const TirInstr *const *coords, bool has, Frags *F)
{
    LLVMBuilderRef B = g->e.b;
    gpu_frags_of(g->row, t, F);
    LLVMValueRef lane = LLVMBuildZExt(B, g->lane, g->e.i64, "");
    LLVMValueRef r0 = has ? gpu_i64v(g, gpu_val(g, coords[0])) : c64(g, 0), c0 = has ? gpu_i64v(g, gpu_val(g, coords[1])) : c64(g, 0);
    Base b;
    b.row = LLVMBuildAdd(B, LLVMBuildMul(B, r0, c64(g, t->dims[0]), ""), gpu_lane_term(g, lane, F->lay->row), "");
    b.col = LLVMBuildAdd(B, LLVMBuildMul(B, c0, c64(g, t->dims[1]), ""), gpu_lane_term(g, lane, F->lay->col), "");
    b.at = LLVMBuildAdd(B, LLVMBuildMul(B, b.row, c64(g, st->dims[1]), ""), b.col, "");
    return b;
}

static LLVMValueRef cell(GpuLower *g, const TkType *st, const Frags *F, Base b, unsigned p)
{
    int64_t frag = p / F->elems, e = p % F->elems;
    int64_t r = frag / F->fcols * F->bm + F->lay->row_of[e], c = frag % F->fcols * F->bn + F->lay->col_of[e];
    if (st_swizzle(st).mask == 0) return LLVMBuildAdd(g->e.b, b.at, c64(g, r * st->dims[1] + c), "");
    return gpu_st_index(g, st, LLVMBuildAdd(g->e.b, b.row, c64(g, r), ""), LLVMBuildAdd(g->e.b, b.col, c64(g, c), ""));
}

/* ---------------------------------------------------------------- ldmatrix */

/* The first row and column (in the tile) of the 8x8 matrix each 32-bit
 * register of a lane's fragments comes from, if every register is one that
 * ldmatrix gives: its two elements in one row at columns 2(l%4) + 0..1 of a
 * matrix whose row l/4 the lane holds (the mma A layout), or with .trans in
 * one column l/4 at rows 2(l%4) + 0..1 (B's). 0: not ldmatrix's layout; 1:
 * plain; 2: .trans. The lane terms are compared with the PTX ISA's pattern,
 * so a vendor table whose layout differs simply does not use it. */
static int ldm_layout(const Frags *F, int64_t *mr, int64_t *mc)
{
    const TkLaneMap *m = F->lay;
    bool quad_rows = m->row.shift == 2 && m->row.mask == 7 && m->row.mul == 1;
    bool pair_cols = m->col.shift == 0 && m->col.mask == 3 && m->col.mul == 2;
    bool pair_rows = m->row.shift == 0 && m->row.mask == 3 && m->row.mul == 2;
    bool quad_cols = m->col.shift == 2 && m->col.mask == 7 && m->col.mul == 1;
    int kind = quad_rows && pair_cols ? 1 : pair_rows && quad_cols ? 2 : 0;
    if (kind == 0 || F->elems % 2) return 0;
    for (int64_t q = 0; q < F->n / 2; q++) {
        int64_t p = 2 * q, frag = p / F->elems;
        int e = (int)(p % F->elems);
        int64_t r = frag / F->fcols * F->bm + m->row_of[e], c = frag % F->fcols * F->bn + m->col_of[e];
        bool ok = kind == 1 ? m->row_of[e + 1] == m->row_of[e] && m->col_of[e + 1] == m->col_of[e] + 1 && c % 8 == 0
                            : m->col_of[e + 1] == m->col_of[e] && m->row_of[e + 1] == m->row_of[e] + 1 && c % 8 == 0;
        if (!ok) return 0;
        mr[q] = r;
        mc[q] = c;
    }
    return kind;
}

/* rt = load(st[, r0, c0]) by ldmatrix, 4 registers (matrices) at a time:
 * lane 8i + r gives the address of row r of matrix i of the group. Its row
 * is 16 bytes of one swizzle chunk (a chunk-aligned column), so the swizzle
 * moves it whole. NULL if the tile is not in ldmatrix's layout. */
static LLVMValueRef ldm_load(GpuLower *g, const TirInstr *i, const Frags *F)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *src = i->args[0];
    const TkType *st = src->type, *t = i->type;
    if (!g->v->ldmatrix || !gpu_half(st->elem) || st->kind != TK_TY_ST || st->dims[1] % 8 || t->dims[1] % 8) return NULL;
    int64_t nregs = F->n / 2, *mr = malloc(sizeof *mr * (size_t)(nregs ? nregs : 1)), *mc = malloc(sizeof *mc * (size_t)(nregs ? nregs : 1));
    int kind = mr && mc ? ldm_layout(F, mr, mc) : 0;
    if (kind == 0) {
        free(mr);
        free(mc);
        return NULL;
    }
    bool has = i->nargs > 2;
    LLVMValueRef lane = LLVMBuildZExt(B, g->lane, g->e.i64, "");
    LLVMValueRef r0 = has ? LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, i->args[1])), c64(g, t->dims[0]), "") : c64(g, 0);
    LLVMValueRef c0 = has ? LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, i->args[2])), c64(g, t->dims[1]), "") : c64(g, 0);
    LLVMValueRef row_in = LLVMBuildAnd(B, lane, c64(g, 7), ""), mat = LLVMBuildLShr(B, lane, c64(g, 3), "");
    LLVMValueRef regs = LLVMGetPoison(LLVMVectorType(g->e.i32, (unsigned)nregs));
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    for (int64_t q = 0; q < nregs;) {
        int num = nregs - q >= 4 ? 4 : nregs - q >= 2 ? 2 : 1;
        /* this lane's matrix: lanes 8·num.. repeat the first ones' (unread) */
        LLVMValueRef k = LLVMBuildAnd(B, mat, c64(g, num - 1), "");
        LLVMValueRef R = c64(g, mr[q]), C = c64(g, mc[q]);
        for (int m = 1; m < num; m++) {
            LLVMValueRef is = LLVMBuildICmp(B, LLVMIntEQ, k, c64(g, m), "");
            R = LLVMBuildSelect(B, is, c64(g, mr[q + m]), R, "");
            C = LLVMBuildSelect(B, is, c64(g, mc[q + m]), C, "");
        }
        LLVMValueRef row = LLVMBuildAdd(B, LLVMBuildAdd(B, r0, R, ""), row_in, ""), col = LLVMBuildAdd(B, c0, C, "");
        LLVMValueRef ix = gpu_st_index(g, st, row, col);
        LLVMValueRef at = LLVMBuildGEP2(B, g->e.i16, g->slots[src->id], &ix, 1, "ldm.row");
        LLVMValueRef got = g->v->ldmatrix(&gb, at, num, kind == 2);
        for (int m = 0; m < num; m++)
            regs = LLVMBuildInsertElement(B, regs, LLVMBuildExtractElement(B, got, c32(g, m), ""), c32(g, q + m), "");
        q += num;
    }
    free(mr);
    free(mc);
    return LLVMBuildBitCast(B, regs, LLVMVectorType(g->e.i16, (unsigned)F->n), "");
}

LLVMValueRef gpu_shared_load(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *src = i->args[0];
    const TkType *st = src->type;
    Frags F;
    gpu_frags_of(g->row, i->type, &F);
    LLVMValueRef fast = ldm_load(g, i, &F);
    if (fast) return fast;
    Base at = tile_base(g, st, i->type, (const TirInstr *const *)&i->args[1], i->nargs > 2, &F);
    LLVMTypeRef et = gpu_elem_type(g, st->elem);
    LLVMValueRef v = LLVMGetPoison(LLVMVectorType(et, (unsigned)F.n)), base = g->slots[src->id];
    for (unsigned p = 0; p < (unsigned)F.n; p++) {
        LLVMValueRef ix = cell(g, st, &F, at, p);
        v = LLVMBuildInsertElement(B, v, LLVMBuildLoad2(B, et, LLVMBuildGEP2(B, et, base, &ix, 1, ""), ""), c32(g, p), "");
    }
    return v;
}

/* A warp's accesses of shared memory happen in program order
 * (docs/LANGUAGE.md §4.2), but its lanes run apart: the lanes meet before a
 * store (so that none overwrites what another has yet to read) and after it
 * (so that each later read sees it). */
void gpu_shared_store(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *dst = i->args[0], *val = i->args[1];
    const TkType *st = dst->type;
    Frags F;
    Base at = tile_base(g, st, val->type, (const TirInstr *const *)&i->args[2], i->nargs > 2, &F);
    LLVMValueRef v = gpu_val(g, val);
    gpu_warp_sync(g);
    for (unsigned p = 0; p < (unsigned)F.n; p++)
        st_store(g, st, g->slots[dst->id], cell(g, st, &F, at, p), LLVMBuildExtractElement(B, v, c32(g, p), ""));
    gpu_warp_sync(g);
}

void gpu_warp_sync(GpuLower *g)
{
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    g->v->warp_sync(&gb);
}

void gpu_sync(GpuLower *g)
{
    gpu_async_before_sync(g);
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    /* the tiles written so far are seen by the wgmmas, and ordered before the TMA's writes, after the barrier */
    if (g->wgmma_any || g->tma_ntiles) g->v->proxy_fence(&gb);
    g->v->barrier(&gb);
}
