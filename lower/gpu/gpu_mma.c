/* gpu_mma.c — register tiles as matrix-instruction fragments: the role a
 * tile type plays (A, B or accumulator) and how it splits into fragments of
 * the kernel's base tile; the choice of that base tile from the vendor's
 * table; and mma itself, base tile by base tile (f32 operands as three tf32
 * products on NVIDIA). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "gpu_internal.h"

/* ---------------------------------------------------------------- roles and fragments */

Role gpu_role_of(const TkType *t)
{
    if (!t || t->kind != TK_TY_RT || t->rank != 2) return ROLE_NONE;
    if (gpu_half(t->elem)) return t->layout == TK_COL ? ROLE_B : ROLE_A;
    if ((t->elem == TK_TY_F32 || t->elem == TK_TY_BOOL) && t->layout == TK_COL) return ROLE_B;   /* an f32 B operand, or a bf16 one before convert; col masks */
    if ((t->elem == TK_TY_F32 || t->elem == TK_TY_BOOL) && t->layout == TK_ROW) return ROLE_C;   /* masks as accumulators */
    return ROLE_NONE;
}

bool gpu_frags_of(const TkGpuMma *r, const TkType *t, Frags *F)
{
    return gpu_frags_as(r, t, gpu_role_of(t), F);
}

bool gpu_frags_as(const TkGpuMma *r, const TkType *t, Role role, Frags *F)
{
    memset(F, 0, sizeof *F);
    F->role = role;
    switch (F->role) {
    case ROLE_A: F->bm = r->m; F->bn = r->k; F->lay = &r->a; break;
    case ROLE_B: F->bm = r->k; F->bn = r->n; F->lay = &r->b; break;
    case ROLE_C: F->bm = r->m; F->bn = r->n; F->lay = &r->c; break;
    default: return false;
    }
    F->elems = F->lay->elems;
    if (t->dims[0] % F->bm || t->dims[1] % F->bn) return false;
    F->frows = t->dims[0] / F->bm;
    F->fcols = t->dims[1] / F->bn;
    F->n = F->frows * F->fcols * F->elems;
    return true;
}

/* The row and column within the tile of each element the lane holds in
 * layout F: the lane's term plus a constant per element. */
void gpu_frags_rc(GpuLower *g, const Frags *F, LLVMValueRef *row, LLVMValueRef *col)
{
    LLVMBuilderRef B = g->e.b;
    unsigned n = (unsigned)F->n;
    LLVMValueRef lane = LLVMBuildZExt(B, g->lane, g->e.i64, "");
    LLVMValueRef lane_row = gpu_lane_term(g, lane, F->lay->row), lane_col = gpu_lane_term(g, lane, F->lay->col);
    LLVMValueRef *rc = malloc(sizeof *rc * n), *cc = malloc(sizeof *cc * n);
    if (!rc || !cc) {
        free(rc);
        free(cc);
        g->status = -1;
        snprintf(g->err, g->errlen, "out of memory");
        *row = *col = LLVMGetPoison(LLVMVectorType(g->e.i64, n));
        return;
    }
    /* the lane's term plus the constant part of each element's (row, col) */
    for (unsigned p = 0; p < n; p++) {
        int64_t frag = p / F->elems, e = p % F->elems;
        int64_t fr = frag / F->fcols, fc = frag % F->fcols;
        rc[p] = c64(g, fr * F->bm + F->lay->row_of[e]);
        cc[p] = c64(g, fc * F->bn + F->lay->col_of[e]);
    }
    *row = LLVMBuildAdd(B, gpu_splat(g, lane_row, n), LLVMConstVector(rc, n), "trow");
    *col = LLVMBuildAdd(B, gpu_splat(g, lane_col, n), LLVMConstVector(cc, n), "tcol");
    free(rc);
    free(cc);
}

static int64_t *cells_alloc(GpuLower *g, unsigned n)
{
    int64_t *off = calloc(n ? n : 1, sizeof *off);
    if (!off && g->status == 0) {
        g->status = -1;
        snprintf(g->err, g->errlen, "out of memory");
    }
    return off;
}

void gpu_cells_free(Cells *c)
{
    free(c->off);
    c->off = NULL;
}

Cells gpu_tile_cells(GpuLower *g, const Frags *Fp, LLVMValueRef r0, LLVMValueRef c0, int64_t cols, bool transpose)
{
    LLVMBuilderRef B = g->e.b;
    const Frags F = *Fp;
    Cells c = { NULL, cells_alloc(g, (unsigned)F.n), (unsigned)F.n };
    LLVMValueRef lane = LLVMBuildZExt(B, g->lane, g->e.i64, "");
    LLVMValueRef r = LLVMBuildAdd(B, r0, gpu_lane_term(g, lane, F.lay->row), "");
    LLVMValueRef k = LLVMBuildAdd(B, c0, gpu_lane_term(g, lane, F.lay->col), "");
    if (transpose) {
        LLVMValueRef x = r;
        r = k;
        k = x;
    }
    c.at = LLVMBuildAdd(B, LLVMBuildMul(B, r, c64(g, cols), ""), k, "cell");
    for (unsigned p = 0; c.off && p < c.n; p++) {
        int64_t frag = p / F.elems, e = p % F.elems;
        int64_t fr = frag / F.fcols * F.bm + F.lay->row_of[e], fc = frag % F.fcols * F.bn + F.lay->col_of[e];
        c.off[p] = transpose ? fc * cols + fr : fr * cols + fc;
    }
    return c;
}

/* ---------------------------------------------------------------- the base tile */

/* Does every rt tile and mma of region r split into row's base tiles?
 * NULL if so, else the first instruction that does not. */
static const TirInstr *misfit(const TkGpuMma *row, const TirRegion *r, bool *any)
{
    Frags F;
    for (const TirInstr *i = r->first; i; i = i->next) {
        const TkType *t = NULL;
        switch (i->op) {
        case TIR_VAR: case TIR_FILL: case TIR_LOAD: case TIR_SLICE: t = i->type->kind == TK_TY_RT ? i->type : NULL; break;
        case TIR_STORE: t = i->args[1]->type->kind == TK_TY_RT ? i->args[1]->type : NULL; break;
        case TIR_MMA: {
            *any = true;
            const TkType *acc = i->args[0]->type, *a = i->args[1]->type;
            int64_t K = i->aux & 2 ? a->dims[0] : a->dims[1];
            if (acc->dims[0] % row->m || acc->dims[1] % row->n || K % row->k) return i;
            break;
        }
        case TIR_FOR: case TIR_IF: {
            const TirInstr *bad = misfit(row, &i->body[0], any);
            if (!bad && i->op == TIR_IF) bad = misfit(row, &i->body[1], any);
            if (bad) return bad;
            break;
        }
        default: break;
        }
        if (t) {
            *any = true;
            if (!gpu_frags_of(row, t, &F)) return i;
        }
    }
    return NULL;
}

/* The first mma of r and its subregions (*first), and the first one after it
 * whose operand type differs (returned; NULL if none). */
static const TirInstr *mma_operands_differ(const TirRegion *r, const TirInstr **first)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_MMA) {
            if (!*first) *first = i;
            else if ((*first)->args[1]->type->elem != i->args[1]->type->elem) return i;
        }
        for (unsigned b = 0; b < 2 && (i->op == TIR_FOR || i->op == TIR_IF); b++) {
            const TirInstr *o = mma_operands_differ(&i->body[b], first);
            if (o) return o;
        }
    }
    return NULL;
}

static unsigned line_of(GpuLower *g, const TirInstr *i)
{
    uint32_t line = 0, col = 0;
    if (g->m->src) tk_source_position(g->m->src, i->loc.begin, &line, &col);
    return line;
}

/* Picks f's base tile into g->row: the first row of the vendor's table (the
 * preferred one) for this processor and warp size that every rt tile and
 * every mma of f splits into, with the operand type of f's mmas. */
int gpu_pick_row(GpuLower *g, const TirFunc *f)
{
    g->row = NULL;
    TkTypeKind operand = TK_TY_BF16;   /* of every mma of f: bf16, f16, or f32 for tf32 rows (a kernel without one: bf16) */
    const TirInstr *first = NULL, *other = mma_operands_differ(&f->body, &first);
    if (first) operand = first->args[1]->type->elem;
    if (other) {
        char ty[128], ty2[128];
        return gpu_fail(g, other, "this mma takes %s operands, an earlier one in kernel %s (line %u) %s: the kernel has one base "
                                  "tile on %s, so its mmas share an operand type; convert the operands",
                        gpu_type_str(other->args[1]->type, ty, sizeof ty), f->name, line_of(g, first),
                        gpu_type_str(first->args[1]->type, ty2, sizeof ty2), g->cpu);
    }
    TkGpuMma t[16];
    unsigned n = g->v->mma_rows(g->cpu, g->wave, t, sizeof t / sizeof t[0]);
    bool any = false;
    /* with no rt tile or mma the kernel needs no base tile */
    if (n == 0) {
        TkGpuMma none = { .m = 1, .n = 1, .k = 1 };
        (void)misfit(&none, &f->body, &any);
    }
    for (unsigned k = 0; k < n && !any; k++) (void)misfit(&t[k], &f->body, &any);
    if (!any) return 0;
    const TirInstr *bad = NULL;
    char tried[512] = "";
    size_t used = 0;
    for (unsigned k = 0; k < n; k++) {
        const TkGpuMma *r = &t[k];
        if (r->operand != operand || r->acc != TK_TY_F32 || r->warp != g->wave) continue;
        bad = misfit(r, &f->body, &any);
        if (!bad) {
            char why[300];
            if (g->v->mma_check(r, g->cpu, g->wave, why, sizeof why) != 0) return gpu_fail(g, NULL, "%s", why);
            g->rowbuf = *r;
            g->row = &g->rowbuf;
            return 0;
        }
        if (used < sizeof tried)
            used += (size_t)snprintf(tried + used, sizeof tried - used, "%s%dx%dx%d (%s)", used ? ", " : "", r->m, r->n, r->k,
                                     r->mnemonic);
    }
    if (!bad)
        return gpu_fail(g, first, "kernel %s uses register tiles%s, but %s lists no %s matrix instruction for %s in wave%d",
                    f->name, first ? " and an mma" : "", g->v->mma_table, operand == TK_TY_F32 ? "f32 (or tf32)" : tk_type_kind_name(operand), g->cpu,
                    g->wave);
    char ty[128];
    if (bad->op == TIR_MMA) {
        const TkType *acc = bad->args[0]->type, *a = bad->args[1]->type;
        return gpu_fail(g, bad, "an mma of %lldx%lldx%lld (MxNxK) does not split into the base tiles of any %s matrix "
                            "instruction: %s",
                    (long long)acc->dims[0], (long long)acc->dims[1], (long long)(bad->aux & 2 ? a->dims[0] : a->dims[1]), g->cpu, tried);
    }
    const TkType *bt = bad->op == TIR_STORE ? bad->args[1]->type : bad->type;
    return gpu_fail(g, bad, "%s does not split into the base tiles of any %s matrix instruction (one is chosen for the whole "
                        "kernel): %s",
                gpu_type_str(bt, ty, sizeof ty), g->cpu, tried);
}

/* ---------------------------------------------------------------- mma */

/* x rounded to tf32 (10 mantissa bits), to nearest with ties away from zero,
 * as cvt.rna.tf32.f32 does; infinities and NaNs unchanged. */
static LLVMValueRef round_tf32(GpuLower *g, LLVMValueRef x)
{
    LLVMBuilderRef B = g->e.b;
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(x));
    LLVMTypeRef vi = LLVMVectorType(g->e.i32, n);
    LLVMValueRef bits = LLVMBuildBitCast(B, x, vi, "");
    LLVMValueRef exp = LLVMBuildAnd(B, bits, gpu_splat(g, c32(g, 0x7f800000), n), "");
    LLVMValueRef finite = LLVMBuildICmp(B, LLVMIntNE, exp, gpu_splat(g, c32(g, 0x7f800000), n), "");
    LLVMValueRef r = LLVMBuildAnd(B, LLVMBuildAdd(B, bits, gpu_splat(g, c32(g, 0x1000), n), ""), gpu_splat(g, c32(g, (int32_t)0xffffe000u), n), "");
    return LLVMBuildBitCast(B, LLVMBuildSelect(B, finite, r, bits, ""), LLVMTypeOf(x), "tf32");
}

/* An f32 operand as the sum of two tf32 values, hi + lo: with a·b ≈ hi·hi'
 * + hi·lo' + lo·hi' (the lo·lo' term is below f32's precision) three tf32
 * products give an f32-accurate one, which is what mma of f32 tiles means
 * on every target. */
static void split_tf32(GpuLower *g, LLVMValueRef x, LLVMValueRef *hi, LLVMValueRef *lo)
{
    *hi = round_tf32(g, x);
    *lo = round_tf32(g, LLVMBuildFSub(g->e.b, x, *hi, ""));
}

/* slot a(0) += a(1) · a(2), base tile by base tile; the (intrinsic, processor)
 * pairing was checked against the table when the row was chosen, and is
 * checked again here, right before the call (LLVM aborts the process on a
 * matrix intrinsic the processor lacks). */
void gpu_tile_mma(GpuLower *g, const TirInstr *i)
{
    const TkGpuMma *r = g->row;
    char why[300];
    if (g->v->mma_check(r, g->cpu, g->wave, why, sizeof why) != 0) {
        gpu_fail(g, i, "%s", why);
        return;
    }
    const TirInstr *slot = i->args[0];
    const TkType *ct = slot->type, *at = i->args[1]->type;
    int64_t mt = ct->dims[0] / r->m, nt = ct->dims[1] / r->n, kt = (i->aux & 2 ? at->dims[0] : at->dims[1]) / r->k;
    LLVMValueRef a, b;
    gpu_mma_operands(g, i, &a, &b);   /* A [M][K] and B [K][N] fragments, whatever the form */
    bool split = r->operand == TK_TY_F32;
    LLVMValueRef alo = NULL, blo = NULL;
    if (split) {
        split_tf32(g, a, &a, &alo);
        split_tf32(g, b, &b, &blo);
    }
    LLVMTypeRef cty = gpu_tile_type(g, ct);
    LLVMValueRef acc = LLVMBuildLoad2(g->e.b, cty, g->slots[slot->id], "acc");
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    for (int64_t fi = 0; fi < mt; fi++)
        for (int64_t fj = 0; fj < nt; fj++) {
            int64_t coff = (fi * nt + fj) * r->c.elems;
            LLVMValueRef c = gpu_sub_vector(g, acc, coff, r->c.elems);
            for (int64_t fk = 0; fk < kt; fk++) {
                LLVMValueRef fa = gpu_sub_vector(g, a, (fi * kt + fk) * r->a.elems, r->a.elems);
                LLVMValueRef fb = gpu_sub_vector(g, b, (fk * nt + fj) * r->b.elems, r->b.elems);
                if (split) {   /* the small terms first */
                    c = r->emit(r, &gb, gpu_sub_vector(g, alo, (fi * kt + fk) * r->a.elems, r->a.elems), fb, c);
                    c = r->emit(r, &gb, fa, gpu_sub_vector(g, blo, (fk * nt + fj) * r->b.elems, r->b.elems), c);
                }
                c = r->emit(r, &gb, fa, fb, c);
            }
            acc = gpu_insert_vector(g, acc, c, coff);
        }
    LLVMBuildStore(g->e.b, acc, g->slots[slot->id]);
}
