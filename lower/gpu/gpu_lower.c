/* gpu_lower.c — TIR → LLVM IR for GPUs, one lowering for every vendor; see
 * gpu_lower.h. What differs between AMD and NVIDIA (intrinsic names, the
 * kernel calling convention, block-size attributes, which matrix
 * instructions a processor has) comes from the target's TkGpuVendor hooks.
 *
 * Register tiles (gpu_mma.c). A kernel picks one base tile (a matrix instruction of the
 * vendor's table, intrinsics/gpu_mma.h) that every rt tile and every mma of
 * it splits into, and each rt value is one LLVM vector per lane holding that lane's
 * fragments, fragment after fragment:
 *   rt<bf16, R, C, row>  (an A operand)   (R/m)·(C/k) fragments of a_elems i16 (bf16 bits)
 *   rt<bf16, R, C, col>  (a B operand)    (R/k)·(C/n) fragments of b_elems i16
 *   rt<f32,  R, C, row>  (an accumulator) (R/m)·(C/n) fragments of c_elems float
 * fragment (p, q) of a grid with Q columns starting at element (p·Q + q)·elems.
 * Which tile element a lane's element is comes from the row's lane maps;
 * the lane-dependent part is computed once per tile operation, the rest is
 * constant. Slots (VAR) are allocas in the entry block, loaded and stored as
 * whole vectors, which SROA/mem2reg turn into registers (phis across a K
 * loop).
 *
 * Scalars use the CPU emitter's helpers (emit_convert_scalar, emit_fn) so
 * that conversions and math functions mean the same on every target; integer
 * division by zero gives 0, as on the CPU. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "emit.h"
#include "gpu_internal.h"

/* ---------------------------------------------------------------- for the vendors */

LLVMValueRef tk_gpu_intrinsic(TkGpuBuilder *gb, const char *name, LLVMValueRef *args, unsigned n)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(gb->mod, id, NULL, 0);
    return LLVMBuildCall2(gb->b, LLVMGlobalGetValueType(f), f, args, n, "");
}

LLVMValueRef tk_gpu_shared_array(TkGpuBuilder *gb, const char *name, int64_t bytes, int64_t offset)
{
    /* each tile is its own array, which the backend places: aligned as its
     * offset is (gpu_shared.c aligns a tile to where its swizzle starts) */
    char full[160];
    snprintf(full, sizeof full, "shared.%s", name);
    LLVMTypeRef t = LLVMArrayType2(LLVMInt8TypeInContext(gb->ctx), (uint64_t)bytes);
    LLVMValueRef v = LLVMAddGlobalInAddressSpace(gb->mod, t, full, 3);
    LLVMSetLinkage(v, LLVMInternalLinkage);
    LLVMSetInitializer(v, LLVMGetPoison(t));
    int64_t align = offset ? offset & -offset : 1024;
    LLVMSetAlignment(v, (unsigned)(align > 1024 ? 1024 : align < 16 ? 16 : align));
    return v;
}

/* ---------------------------------------------------------------- diagnostics */

int gpu_fail(GpuLower *g, const TirInstr *at, const char *fmt, ...)
{
    if (g->status != 0) return g->status;
    char where[512] = "";
    if (g->m->src && at) {
        uint32_t line, col;
        tk_source_position(g->m->src, at->loc.begin, &line, &col);
        snprintf(where, sizeof where, "%s:%u:%u: ", g->m->src->name ? g->m->src->name : "<input>", line, col);
    }
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(g->err, g->errlen, "%s%s: %s", where, g->cpu, msg);
    g->status = 1;
    return 1;
}

#define SCOPE_HINT "(docs/ARCHITECTURE.md, \"GPU code\", lists what it covers)"

int gpu_not_supported(GpuLower *g, const TirInstr *i, const char *what)
{
    return gpu_fail(g, i, "TIR op %s%s%s is not supported by the %s backend yet " SCOPE_HINT, tir_op_name(i->op),
                what && what[0] != '.' ? " " : "", what ? what : "", g->v->name);
}

const char *gpu_type_str(const TkType *t, char *buf, size_t n)
{
    tk_type_format(t, buf, n);
    return buf;
}

/* ---------------------------------------------------------------- the subset */

static int check_tile(GpuLower *g, const TirInstr *i, const TkType *t)
{
    char ty[128], what[200];
    if (t->kind == TK_TY_RT && gpu_role_of(t) != ROLE_NONE) return 0;
    if (t->kind == TK_TY_RT) {
        return gpu_fail(g, i, "TIR op %s of %s is not supported by the %s backend yet: register tiles are rt<bf16>, "
                          "rt<f16> and rt<f32> (row or col) and rt<bool, row> " SCOPE_HINT,
                    tir_op_name(i->op), gpu_type_str(t, ty, sizeof ty), g->v->name);
    }
    char need[96];
    snprintf(need, sizeof need, "shared tiles and vectors need %s", g->v->shared_name);
    snprintf(what, sizeof what, "of %s (%s)", gpu_type_str(t, ty, sizeof ty), tk_is_shared(t->kind) ? need : "register vectors");
    return gpu_not_supported(g, i, what);
}

static int check_region(GpuLower *g, const TirRegion *r);

/* Does i make, read or write a shared tile (gpu_shared.c)? */
static bool touches_shared(const TirInstr *i)
{
    switch (i->op) {
    case TIR_VAR: case TIR_FILL: case TIR_GET: return tk_is_shared(i->type->kind);
    case TIR_LOAD: return tk_is_shared(i->type->kind) || tk_is_shared(i->args[0]->type->kind);
    case TIR_SET: case TIR_STORE: return tk_is_shared(i->args[0]->type->kind) || tk_is_shared(i->args[1]->type->kind);
    default: return false;
    }
}

/* Does i make, read or write an rv, or reduce, broadcast or mask (gpu_vector.c)? */
static bool touches_vector(const TirInstr *i)
{
    switch (i->op) {
    case TIR_VAR: case TIR_FILL: case TIR_LOAD: return i->type->kind == TK_TY_RV;
    case TIR_STORE: return i->args[1]->type->kind == TK_TY_RV;
    case TIR_REDUCE: case TIR_BROADCAST: case TIR_MASK: case TIR_TRI: return true;
    default: return false;
    }
}

static int check_instr(GpuLower *g, const TirInstr *i)
{
    char ty[128], ty2[128], what[300];
    if (touches_shared(i)) return gpu_shared_check(g, i);
    if (touches_vector(i)) return gpu_vector_check(g, i);
    switch (i->op) {
    case TIR_PARAM:
        if (i->type->kind == TK_TY_GL || tk_is_scalar(i->type->kind)) return 0;
        return gpu_not_supported(g, i, "of this type");
    case TIR_SIZE: case TIR_BLOCK_ID: case TIR_WARP_ID: case TIR_CONST_INT: case TIR_CONST_FLOAT:
    case TIR_BINARY: case TIR_UNARY: case TIR_CAST: case TIR_CDIV: case TIR_LOOP_IV: case TIR_GET: case TIR_SET:
        return 0;
    case TIR_MAP1: case TIR_MAP2: case TIR_MAP3:
        if (tk_is_scalar(i->type->kind)) return 0;
        return gpu_map_check(g, i);
    case TIR_CONVERT:
        return gpu_convert_check(g, i);
    case TIR_ELEM: case TIR_SET_ELEM:
        return gpu_element_check(g, i);
    case TIR_TRANSPOSE:   /* elements move (gpu_relayout_check): in the lanes, or through shared memory */
        if (gpu_role_of(i->args[0]->type) != ROLE_NONE && gpu_role_of(i->type) != ROLE_NONE) return 0;
        snprintf(what, sizeof what, "of %s", gpu_type_str(i->args[0]->type, ty, sizeof ty));
        return gpu_not_supported(g, i, what);
    case TIR_VAR:
        return tk_is_scalar(i->type->kind) ? 0 : check_tile(g, i, i->type);
    case TIR_FILL:
        return check_tile(g, i, i->type);
    case TIR_LOAD: {
        const TirInstr *src = i->args[0];
        if (src->op != TIR_PARAM || src->type->kind != TK_TY_GL || i->nargs != 1 + src->type->rank) {
            snprintf(what, sizeof what, "from %s into %s", gpu_type_str(src->type, ty, sizeof ty), gpu_type_str(i->type, ty2, sizeof ty2));
            return gpu_not_supported(g, i, what);
        }
        if (check_tile(g, i, i->type)) return 1;
        TkTypeKind ge = src->type->elem, te = i->type->elem;
        if (te == TK_TY_BOOL) ge = TK_TY_VOID;   /* refused below: masks are computed, not loaded */
        if (src->type->rank < 2 || !(ge == te || (te == TK_TY_F32 && (ge == TK_TY_BF16 || ge == TK_TY_F16)))) {
            snprintf(what, sizeof what, "from %s into %s", gpu_type_str(src->type, ty, sizeof ty), gpu_type_str(i->type, ty2, sizeof ty2));
            return gpu_not_supported(g, i, what);
        }
        return 0;
    }
    case TIR_STORE: {
        const TirInstr *dst = i->args[0];
        const TkType *vt = i->args[1]->type;
        if (dst->op != TIR_PARAM || dst->type->kind != TK_TY_GL || i->nargs != 2 + dst->type->rank) {
            snprintf(what, sizeof what, "of %s into %s", gpu_type_str(vt, ty, sizeof ty), gpu_type_str(dst->type, ty2, sizeof ty2));
            return gpu_not_supported(g, i, what);
        }
        if (check_tile(g, i, vt)) return 1;
        if (dst->type->rank < 2 || dst->type->elem != vt->elem) {
            snprintf(what, sizeof what, "of %s into %s", gpu_type_str(vt, ty, sizeof ty), gpu_type_str(dst->type, ty2, sizeof ty2));
            return gpu_not_supported(g, i, what);
        }
        return 0;
    }
    case TIR_MMA: {
        /* every form: a transposed operand is relaid out in its lanes (gpu_relayout_check) */
        static const char *const forms[] = { "ab", "abt", "atb", "atbt" };
        const TkType *acc = i->args[0]->type, *a = i->args[1]->type, *b = i->args[2]->type;
        bool same = a->kind == TK_TY_RT && b->kind == TK_TY_RT && a->elem == b->elem;
        if (gpu_role_of(acc) != ROLE_C || acc->elem != TK_TY_F32 || !same || gpu_role_of(a) == ROLE_NONE) {
            return gpu_fail(g, i, "mma_%s(%s, %s, %s): the %s backend takes bf16, f16 or f32 operands (both the same) with an f32 "
                                  "accumulator (yet)",
                            forms[i->aux & 3], gpu_type_str(acc, ty, sizeof ty), gpu_type_str(a, ty2, sizeof ty2),
                            gpu_type_str(b, what, sizeof what), g->v->name);
        }
        return 0;
    }
    case TIR_FOR:
        return check_region(g, &i->body[0]);
    case TIR_IF:
        if (check_region(g, &i->body[0])) return 1;
        return check_region(g, &i->body[1]);
    case TIR_SYNC:
        return 0;
    case TIR_SLICE: case TIR_SET_SLICE: case TIR_LINE: case TIR_SET_LINE: {
        /* of register tiles and vectors; how, once the base tile is chosen (gpu_slice_check) */
        const TkType *w = i->args[0]->type;
        if ((w->kind == TK_TY_RT && gpu_role_of(w) != ROLE_NONE) || (w->kind == TK_TY_RV && w->elem != TK_TY_I32)) return 0;
        snprintf(what, sizeof what, "of %s", gpu_type_str(w, ty, sizeof ty));
        return gpu_not_supported(g, i, what);
    }
    default:
        return gpu_not_supported(g, i, NULL);
    }
}

static int check_region(GpuLower *g, const TirRegion *r)
{
    for (const TirInstr *i = r->first; i; i = i->next)
        if (check_instr(g, i)) return 1;
    return 0;
}

static void number(const TirRegion *r, uint32_t *next);

/* Checks f, picks its base tile and plans its register vectors: g->dist,
 * indexed by the instruction numbers, until the caller frees it. */
static int check_func(GpuLower *g, const TirFunc *f)
{
    g->row = NULL;
    if (check_region(g, &f->body)) return 1;
    int64_t shared = gpu_shared_bytes(&f->body);
    if (shared > g->v->shared_limit)
        return gpu_fail(g, NULL, "kernel %s declares %lld bytes of shared tiles; a block has %lld (%s)", f->name, (long long)shared,
                        (long long)g->v->shared_limit, g->v->shared_name);
    if (gpu_pick_row(g, f)) return 1;
    uint32_t n = 0;
    number(&f->body, &n);
    number(&f->grid_region, &n);
    g->count = n;
    free(g->dist);
    g->dist = calloc(n ? n : 1, sizeof *g->dist);
    free(g->meet);
    g->meet = calloc(f->nparams ? f->nparams : 1, 1);
    if (!g->dist || !g->meet) {
        g->status = -1;
        snprintf(g->err, g->errlen, "out of memory");
        return -1;
    }
    g->exchange_bytes = 0;
    if (gpu_relayout_check(g, &f->body)) return 1;   /* without a base tile: only vector slices */
    int64_t warps = f->warps > 0 ? f->warps : 1, tiles = gpu_shared_bytes(&f->body);
    if (g->exchange_bytes && (tiles + 15) / 16 * 16 + g->exchange_bytes * warps > g->v->shared_limit)
        return gpu_fail(g, NULL, "kernel %s needs %lld bytes of %s: %lld of shared tiles and %lld per warp to move a register "
                                 "tile's elements between lanes (a transpose or a change of layout); a block has %lld",
                        f->name, (long long)((tiles + 15) / 16 * 16 + g->exchange_bytes * warps), g->v->shared_name,
                        (long long)tiles, (long long)g->exchange_bytes, (long long)g->v->shared_limit);
    gpu_store_meets_plan(g, f);
    if (gpu_wgmma_plan(g, f)) return -1;
    return gpu_vector_plan(g, f);
}

/* ---------------------------------------------------------------- basics */


LLVMValueRef gpu_special(GpuLower *g, TkGpuSpecial which)
{
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    return g->v->special(&gb, which);
}

LLVMValueRef gpu_val(GpuLower *g, const TirInstr *i)
{
    if (i->id < g->count && g->vals[i->id]) return g->vals[i->id];
    if (g->status == 0) {
        g->status = -1;
        snprintf(g->err, g->errlen, "internal error: TIR value %%%u (%s) used before it was emitted", i->id, tir_op_name(i->op));
    }
    return LLVMGetPoison(g->e.i32);
}

void gpu_set_val(GpuLower *g, const TirInstr *i, LLVMValueRef v)
{
    if (i->id < g->count) g->vals[i->id] = v;
}

LLVMTypeRef gpu_elem_type(GpuLower *g, TkTypeKind k)
{
    return k == TK_TY_F32 ? g->e.f32 : k == TK_TY_BOOL ? g->e.i1 : g->e.i16;   /* bf16: bits */
}

LLVMValueRef gpu_widen(GpuLower *g, LLVMValueRef v, TkTypeKind elem)
{
    if (elem == TK_TY_F16) v = LLVMBuildBitCast(g->e.b, v, emit_type_like(v, g->e.f16), "");
    return gpu_half(elem) ? emit_to_f32(&g->e, v, elem) : v;
}

LLVMValueRef gpu_narrow(GpuLower *g, LLVMValueRef v, TkTypeKind elem)
{
    if (elem == TK_TY_BF16) return emit_fptrunc(&g->e, v, g->e.i16);
    if (elem == TK_TY_F16) return LLVMBuildBitCast(g->e.b, emit_fptrunc(&g->e, v, g->e.f16), emit_type_like(v, g->e.i16), "");
    return v;
}

LLVMTypeRef gpu_tile_type(GpuLower *g, const TkType *t)
{
    Frags F;
    gpu_frags_of(g->row, t, &F);
    return LLVMVectorType(gpu_elem_type(g, t->elem), (unsigned)F.n);
}

LLVMValueRef gpu_i64v(GpuLower *g, LLVMValueRef v)
{
    return LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64 ? v : LLVMBuildSExt(g->e.b, v, g->e.i64, "");
}

/* ((lane >> shift) & mask) · mul, as an i64 */
LLVMValueRef gpu_lane_term(GpuLower *g, LLVMValueRef lane, TkLaneTerm t)
{
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef x = LLVMBuildAnd(B, LLVMBuildLShr(B, lane, c64(g, t.shift), ""), c64(g, t.mask), "");
    return LLVMBuildMul(B, x, c64(g, t.mul), "");
}

unsigned gpu_width(GpuLower *g, const TirInstr *i)
{
    if (i->type->kind == TK_TY_RV) return gpu_vector_width(g, i);
    Frags F;
    gpu_frags_of(g->row, i->type, &F);
    return (unsigned)F.n;
}

LLVMTypeRef gpu_value_type(GpuLower *g, const TirInstr *i)
{
    return LLVMVectorType(gpu_elem_type(g, i->type->elem), gpu_width(g, i));
}

LLVMValueRef gpu_splat(GpuLower *g, LLVMValueRef x, unsigned n)
{
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(x), n);
    LLVMValueRef v = LLVMBuildInsertElement(g->e.b, LLVMGetPoison(vt), x, c32(g, 0), "");
    return LLVMBuildShuffleVector(g->e.b, v, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(g->e.i32, n)), "");
}

/* Elements [off, off+len) of vector v. */
LLVMValueRef gpu_sub_vector(GpuLower *g, LLVMValueRef v, int64_t off, int len)
{
    LLVMValueRef *mask = malloc(sizeof *mask * (size_t)len);
    if (!mask) return v;
    for (int k = 0; k < len; k++) mask[k] = c32(g, off + k);
    LLVMValueRef r = LLVMBuildShuffleVector(g->e.b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(mask, (unsigned)len), "");
    free(mask);
    return r;
}

/* big with elements [off, off + len(small)) replaced by small. */
LLVMValueRef gpu_insert_vector(GpuLower *g, LLVMValueRef big, LLVMValueRef small, int64_t off)
{
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(big)), k = LLVMGetVectorSize(LLVMTypeOf(small));
    LLVMValueRef *mask = malloc(sizeof *mask * n);
    if (!mask) return big;
    for (unsigned q = 0; q < n; q++) mask[q] = q < k ? c32(g, q) : LLVMGetPoison(g->e.i32);
    LLVMValueRef wide = LLVMBuildShuffleVector(g->e.b, small, LLVMGetPoison(LLVMTypeOf(small)), LLVMConstVector(mask, n), "");
    for (unsigned q = 0; q < n; q++)
        mask[q] = c32(g, (int64_t)q >= off && (int64_t)q < off + k ? (int64_t)n + (int64_t)q - off : (int64_t)q);
    LLVMValueRef r = LLVMBuildShuffleVector(g->e.b, big, wide, LLVMConstVector(mask, n), "");
    free(mask);
    return r;
}

/* ---------------------------------------------------------------- scalars
 * Binary operators and cdiv are the CPU's (emit_scalars.c): the same
 * semantics, integer division by 0 giving 0 included. */

static LLVMValueRef scalar_map(GpuLower *g, const TirInstr *i)
{
    LLVMValueRef x[3];
    for (unsigned a = 0; a < i->nargs && a < 3; a++) x[a] = gpu_val(g, i->args[a]);
    return emit_scalar_map(&g->e, i, x);
}

/* ---------------------------------------------------------------- tiles */

/* scalar s as a lane holds an element of type elem (bf16/f16 as i16 bits) */
LLVMValueRef gpu_elem_value(GpuLower *g, const TirInstr *s, TkTypeKind elem)
{
    LLVMValueRef x = emit_convert_scalar(&g->e, gpu_val(g, s), s->type->kind, elem);
    if (elem == TK_TY_BF16 || elem == TK_TY_F16) x = LLVMBuildBitCast(g->e.b, x, g->e.i16, "");
    return x;
}

static LLVMValueRef tile_fill(GpuLower *g, const TirInstr *i)
{
    LLVMValueRef x = gpu_elem_value(g, i->args[0], i->type->elem);
    if (LLVMIsAConstant(x) && LLVMIsNull(x)) return LLVMConstNull(gpu_value_type(g, i));
    return gpu_splat(g, x, gpu_width(g, i));
}

/* ---------------------------------------------------------------- instructions */

/* the type of what VAR v holds */
static LLVMTypeRef slot_type(GpuLower *g, const TirInstr *v)
{
    return tk_is_scalar(v->type->kind) ? emit_scalar_type(&g->e, v->type->kind) : gpu_value_type(g, v);
}

static void emit_region(GpuLower *g, const TirRegion *r);

static void emit_for(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef lo = gpu_val(g, i->args[0]), hi = gpu_val(g, i->args[1]);
    LLVMTypeRef t = LLVMTypeOf(lo);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef header = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "for");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "for.body");
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "for.end");
    LLVMBuildBr(B, header);
    LLVMPositionBuilderAtEnd(B, header);
    LLVMValueRef iv = LLVMBuildPhi(B, t, i->iv && i->iv->name ? i->iv->name : "iv");
    LLVMAddIncoming(iv, &lo, &pre, 1);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, iv, hi, ""), body, exit);
    LLVMPositionBuilderAtEnd(B, body);
    if (i->iv) gpu_set_val(g, i->iv, iv);
    GpuAsyncState in = gpu_async_loop_in(g, i);   /* at the top: from before, or from the last iteration */
    g->pending = in;
    emit_region(g, &i->body[0]);
    g->pending = in;
    LLVMValueRef next = LLVMBuildAdd(B, iv, LLVMConstInt(t, 1, 0), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMAddIncoming(iv, &next, &latch, 1);
    LLVMBuildBr(B, header);
    LLVMPositionBuilderAtEnd(B, exit);
}

static void emit_if(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef c = gpu_val(g, i->args[0]);
    LLVMBasicBlockRef bb[2] = { LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "then"),
                                LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "else") };
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "endif");
    LLVMBuildCondBr(B, c, bb[0], bb[1]);
    GpuAsyncState in = g->pending, out = { 0, 0 };
    for (int k = 0; k < 2; k++) {
        LLVMPositionBuilderAtEnd(B, bb[k]);
        g->pending = in;
        emit_region(g, &i->body[k]);
        out = gpu_async_join(out, g->pending);
        LLVMBuildBr(B, join);
    }
    g->pending = out;
    LLVMPositionBuilderAtEnd(B, join);
}

static void emit_instr(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef v = NULL;
    switch (i->op) {
    case TIR_PARAM: {
        LLVMValueRef p = LLVMGetParam(g->fn, (unsigned)i->aux);
        v = i->type->kind == TK_TY_BOOL ? LLVMBuildICmp(B, LLVMIntNE, p, LLVMConstNull(g->e.i8), "") : p;
        break;
    }
    case TIR_SIZE: v = LLVMBuildTrunc(B, gpu_size_arg(g, (unsigned)i->aux), g->e.i32, i->name ? i->name : ""); break;
    case TIR_BLOCK_ID: v = gpu_special(g, (TkGpuSpecial)(TK_GPU_BLOCK_X + i->aux % 3)); break;
    case TIR_WARP_ID: v = g->warp; break;
    case TIR_CONST_INT: v = LLVMConstInt(emit_scalar_type(&g->e, i->type->kind), (unsigned long long)i->imm, 1); break;
    case TIR_CONST_FLOAT: v = emit_const_float(&g->e, i->type->kind, i->fimm); break;
    case TIR_BINARY:
        v = emit_scalar_binop(&g->e, (TkOp)i->aux, i->args[0]->type->kind, gpu_val(g, i->args[0]), gpu_val(g, i->args[1]));
        break;
    case TIR_UNARY: {
        v = emit_scalar_unop(&g->e, (TkOp)i->aux, i->type->kind, gpu_val(g, i->args[0]));
        break;
    }
    case TIR_CAST: v = emit_convert_scalar(&g->e, gpu_val(g, i->args[0]), i->args[0]->type->kind, i->type->kind); break;
    case TIR_CDIV: v = emit_scalar_cdiv(&g->e, gpu_val(g, i->args[0]), gpu_val(g, i->args[1])); break;
    case TIR_MAP1: case TIR_MAP2: case TIR_MAP3: v = tk_is_scalar(i->type->kind) ? scalar_map(g, i) : gpu_tile_map(g, i); break;
    case TIR_CONVERT: v = gpu_tile_convert(g, i); break;
    case TIR_TRANSPOSE: v = gpu_tile_transpose(g, i); break;
    case TIR_ELEM: v = gpu_element(g, i); break;
    case TIR_SLICE: case TIR_LINE: v = gpu_slice(g, i); break;
    case TIR_SET_SLICE: case TIR_SET_LINE: gpu_set_slice(g, i); return;
    case TIR_SET_ELEM: gpu_set_element(g, i); return;
    case TIR_VAR: {
        if (tk_is_shared(i->type->kind)) {
            gpu_shared_var(g, i);
            return;
        }
        LLVMTypeRef t = slot_type(g, i);
        if (!g->slots[i->id]) g->slots[i->id] = LLVMBuildAlloca(g->ab, t, i->name ? i->name : "slot");
        LLVMBuildStore(B, LLVMConstNull(t), g->slots[i->id]);   /* a VAR is zero-filled where it stands */
        return;
    }
    case TIR_GET: {
        const TirInstr *s = i->args[0];
        if (tk_is_shared(s->type->kind)) return;   /* its place is the slot (gpu_shared_to_global) */
        v = LLVMBuildLoad2(B, slot_type(g, s), g->slots[s->id], s->name ? s->name : "");
        break;
    }
    case TIR_SET:
        if (gpu_wgmma_skips(g, i)) return;   /* b's variable, which the wgmma does without */
        if (tk_is_shared(i->args[0]->type->kind)) gpu_shared_set(g, i);
        else LLVMBuildStore(B, gpu_val(g, i->args[1]), g->slots[i->args[0]->id]);
        return;
    case TIR_FILL:
        if (tk_is_shared(i->type->kind)) return;   /* done by the SET that takes it */
        v = tile_fill(g, i);
        break;
    case TIR_LOAD:
        if (tk_is_shared(i->type->kind)) return;   /* done by the SET that takes it */
        if (gpu_wgmma_skips(g, i)) return;         /* read in place by the wgmma that takes it */
        if (i->type->kind == TK_TY_RV) v = gpu_vector_load(g, i);
        else v = i->args[0]->type->kind == TK_TY_ST ? gpu_shared_load(g, i) : gpu_tile_load(g, i);
        break;
    case TIR_SYNC: gpu_sync(g); return;
    case TIR_STORE:
        if (i->args[1]->type->kind == TK_TY_RV) gpu_vector_store(g, i);
        else if (tk_is_shared(i->args[1]->type->kind)) gpu_shared_to_global(g, i);
        else if (i->args[0]->type->kind == TK_TY_ST) gpu_shared_store(g, i);
        else gpu_tile_store(g, i);
        return;
    case TIR_REDUCE: v = gpu_reduce(g, i); break;
    case TIR_BROADCAST: v = gpu_broadcast(g, i); break;
    case TIR_MASK: case TIR_TRI: v = gpu_mask(g, i); break;
    case TIR_MMA:
        if (gpu_wgmma_takes(g, i)) gpu_wgmma(g, i);
        else gpu_tile_mma(g, i);
        return;
    case TIR_FOR: emit_for(g, i); return;
    case TIR_IF: emit_if(g, i); return;
    default:
        /* tk_gpu_check refused these already */
        gpu_not_supported(g, i, NULL);
        return;
    }
    gpu_set_val(g, i, v);
}

static void emit_region(GpuLower *g, const TirRegion *r)
{
    for (const TirInstr *i = r->first; i && g->status == 0; i = i->next) emit_instr(g, i);
}

/* ---------------------------------------------------------------- kernels */

static void number(const TirRegion *r, uint32_t *next)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->iv) i->iv->id = (*next)++;
        i->id = (*next)++;
        number(&i->body[0], next);
        number(&i->body[1], next);
    }
}

/* A function of f's parameters (tensors as global pointers, bool as i8),
 * then its sizes as i64, then `nmaps` TMA maps (gpu_tma.c), then a pointer
 * named `extra` if not NULL. */
static LLVMValueRef add_fn(GpuLower *g, const TirFunc *f, const char *name, unsigned nmaps, const char *extra)
{
    unsigned nsizes = f->sizes ? f->sizes->count : 0, nargs = f->nparams + nsizes + nmaps + (extra ? 1 : 0);
    LLVMTypeRef *pt = calloc(nargs ? nargs : 1, sizeof *pt);
    if (!pt) return NULL;
    for (unsigned p = 0; p < f->nparams; p++) {
        const TkType *t = f->params[p].type;
        pt[p] = t->kind == TK_TY_GL ? g->p1 : t->kind == TK_TY_BOOL ? g->e.i8 : emit_scalar_type(&g->e, t->kind);
    }
    for (unsigned s = 0; s < nsizes; s++) pt[f->nparams + s] = g->e.i64;
    for (unsigned k = 0; k < nmaps; k++) pt[f->nparams + nsizes + k] = g->e.ptr;
    if (extra) pt[nargs - 1] = g->e.ptr;
    LLVMValueRef fn = LLVMAddFunction(g->e.mod, name, LLVMFunctionType(g->e.vd, pt, nargs, 0));
    free(pt);
    for (unsigned p = 0; p < f->nparams; p++) LLVMSetValueName2(LLVMGetParam(fn, p), f->params[p].name, strlen(f->params[p].name));
    for (unsigned s = 0; s < nsizes; s++)
        LLVMSetValueName2(LLVMGetParam(fn, f->nparams + s), f->sizes->names[s], strlen(f->sizes->names[s]));
    for (unsigned k = 0; k < nmaps; k++) {
        char m[32];
        snprintf(m, sizeof m, "tma.map%u", k);
        LLVMSetValueName2(LLVMGetParam(fn, f->nparams + nsizes + k), m, strlen(m));
        g->v->tma_map_param(g->e.ctx, fn, f->nparams + nsizes + k);
    }
    if (extra) LLVMSetValueName2(LLVMGetParam(fn, nargs - 1), extra, strlen(extra));
    return fn;
}

/* Starts g->fn = fn: an entry block for allocas, code from `start` on. */
static void begin_fn(GpuLower *g, LLVMValueRef fn)
{
    g->fn = g->e.fn = fn;
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->e.ctx, fn, "entry");
    LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(g->e.ctx, fn, "start");
    LLVMPositionBuilderAtEnd(g->ab, entry);
    LLVMPositionBuilderAtEnd(g->e.b, start);
}

static void end_fn(GpuLower *g)
{
    LLVMBuildRetVoid(g->e.b);
    LLVMBuildBr(g->ab, LLVMGetNextBasicBlock(LLVMGetEntryBasicBlock(g->fn)));
}

/* void NAME__gridv(<params, sizes>, ptr grid): grid[0..2] = the block counts
 * (host code, for the emulation target's launcher) */
static LLVMValueRef emit_grid_fn(GpuLower *g, const TirFunc *f)
{
    char name[512];
    snprintf(name, sizeof name, "%s__gridv", f->name);
    LLVMValueRef fn = add_fn(g, f, name, 0, "grid");
    if (!fn) return NULL;
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    begin_fn(g, fn);
    emit_region(g, &f->grid_region);
    LLVMValueRef out = LLVMGetLastParam(fn);
    for (unsigned k = 0; k < 3; k++) {
        LLVMValueRef v = k < f->grid_rank ? gpu_i64v(g, gpu_val(g, f->grid[k])) : c64(g, 1);
        LLVMValueRef ix = c64(g, k);
        LLVMBuildStore(g->e.b, v, LLVMBuildGEP2(g->e.b, g->e.i64, out, &ix, 1, ""));
    }
    end_fn(g);
    return fn;
}

static int emit_kernel(GpuLower *g, const TirFunc *f)
{
    g->f = f;
    uint32_t n = g->count;   /* numbered by check_func */
    g->vals = calloc(n ? n : 1, sizeof *g->vals);
    g->slots = calloc(n ? n : 1, sizeof *g->slots);
    bool host = g->v->host_entry != NULL;
    gpu_tma_plan(g, f);
    g->tma_param0 = f->nparams + (f->sizes ? f->sizes->count : 0);
    LLVMValueRef kernel = g->vals && g->slots ? add_fn(g, f, f->name, (unsigned)g->tma_nmaps, host ? "env" : NULL) : NULL;
    if (!kernel) {
        snprintf(g->err, g->errlen, "out of memory");
        return -1;
    }
    LLVMSetFunctionCallConv(kernel, g->v->kernel_cc);
    if (host) LLVMSetLinkage(kernel, LLVMInternalLinkage);
    /* a block is warps · wave threads, exactly */
    if (g->v->kernel_attrs) g->v->kernel_attrs(g->e.ctx, kernel, (int)((f->warps > 0 ? f->warps : 1) * g->wave));
    begin_fn(g, kernel);
    g->env = host ? LLVMGetLastParam(kernel) : NULL;
    g->shared_used = 0;
    gpu_async_begin(g, f);
    LLVMValueRef tid = g->tid = gpu_special(g, TK_GPU_THREAD_X);
    g->lane = LLVMBuildAnd(g->e.b, tid, c32(g, g->wave - 1), "lane");
    g->warp = f->warps > 1 ? LLVMBuildUDiv(g->e.b, tid, c32(g, g->wave), "warp") : c32(g, 0);
    g->exchange = NULL;
    if (g->exchange_bytes) {   /* the scratch of gpu_exchange.c, first: the shared tiles follow it */
        TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
        int64_t bytes = g->exchange_bytes * (f->warps > 0 ? f->warps : 1);
        g->exchange = g->v->shared_at(&gb, "exchange", bytes, 0);
        g->shared_used = bytes;
    }
    gpu_tma_begin(g);
    emit_region(g, &f->body);
    gpu_tma_end(g);
    end_fn(g);
    if (host && g->status == 0) {
        LLVMValueRef grid = emit_grid_fn(g, f);
        TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, NULL };
        if (grid && g->status == 0) g->v->host_entry(&gb, f, kernel, grid, g->shared_used, g->tma_maps, g->tma_nmaps);
    }
    free(g->vals);
    free(g->slots);
    g->vals = g->slots = NULL;
    return g->status;
}

static void init(GpuLower *g, const TirModule *m, const TkGpuTarget *t, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->v = t->vendor;
    g->cpu = t->proc;
    g->wave = t->warp;
    g->err = err;
    g->errlen = errlen;
    if (errlen) err[0] = '\0';
}

int tk_gpu_check(const TirModule *m, const TkGpuTarget *t, char *err, size_t errlen)
{
    GpuLower g;
    init(&g, m, t, err, errlen);
    if (t->warp != 32 && t->warp != 64) return gpu_fail(&g, NULL, "wave size %d is not 32 or 64", t->warp);
    for (const TirFunc *f = m->funcs; f && g.status == 0; f = f->next) check_func(&g, f);
    free(g.dist);
    free(g.meet);
    free(g.wg);
    return g.status;
}

int tk_gpu_emit(const TirModule *m, const TkGpuTarget *t, LLVMContextRef ctx, LLVMModuleRef mod, char *err, size_t errlen)
{
    int rc = tk_gpu_check(m, t, err, errlen);
    if (rc != 0) return rc;
    GpuLower g;
    init(&g, m, t, err, errlen);
    Emit *E = &g.e;
    E->ctx = ctx;
    E->mod = mod;
    E->b = LLVMCreateBuilderInContext(ctx);
    E->alloca_b = g.ab = LLVMCreateBuilderInContext(ctx);
    E->i1 = LLVMInt1TypeInContext(ctx);
    E->i8 = LLVMInt8TypeInContext(ctx);
    E->i16 = LLVMInt16TypeInContext(ctx);
    E->i32 = LLVMInt32TypeInContext(ctx);
    E->i64 = LLVMInt64TypeInContext(ctx);
    E->f32 = LLVMFloatTypeInContext(ctx);
    E->f16 = LLVMHalfTypeInContext(ctx);
    E->bf16 = LLVMBFloatTypeInContext(ctx);
    E->ptr = LLVMPointerTypeInContext(ctx, 0);
    E->vd = LLVMVoidTypeInContext(ctx);
    g.p1 = LLVMPointerTypeInContext(ctx, t->vendor->global_as);
    for (const TirFunc *f = m->funcs; f && g.status == 0; f = f->next) {
        if (check_func(&g, f) != 0) break;   /* picks g.row */
        emit_kernel(&g, f);
    }
    free(g.vals);
    free(g.slots);
    free(g.dist);
    free(g.meet);
    free(g.wg);
    LLVMDisposeBuilder(E->b);
    LLVMDisposeBuilder(g.ab);
    return g.status;
}
