/* emit_lazyzero.c — accumulators whose zero fill the first mma takes over
 * (CPU).
 *
 * `h = zeros(); for (k ...) mma_ab(h, a, b); ... use h ...` fills 128 KiB
 * of zeros that every register block of the first mma then loads. Instead:
 *  - zero then mma: when the statement right after the fill is an mma into
 *    the variable (attention's `qk = zeros(); mma_abt(qk, q, k);`), the fill
 *    is left out and that mma starts from zero registers (acc_zero = true);
 *  - lazy zero: when the variable, after its fill, is mentioned only as the
 *    accumulator of mmas until some later statement reads it (FFN's h1/h3,
 *    the gemm epilogues), the fill becomes a run-time "still zero" flag: each
 *    mma starts from zero registers while it is set and clears it, and just
 *    before that first other mention the variable is zero-filled if no mma
 *    ran (an empty K loop).
 * Both need a micro-kernel with the row-major accumulator (cpu_mma.h
 * acc_zero) for every such mma, and mmas that do not read the variable as
 * an operand. Lazy zero is for warps(1) kernels (one flag, not one per warp).
 * Output views (emit_outview.c) build on it: planned after it, they only
 * change where the accumulator lives, and a still-zero output view is
 * filled where it lives. */
#include <stdlib.h>

#include "cpu_mma.h"
#include "emit.h"

struct EmitLazyZero {
    bool *from_zero;                 /* by id: the fill SET left out, and the mma after it */
    bool *lazy;                      /* by VAR id: planned for lazy zero */
    LLVMValueRef *flag;              /* by VAR id: its i8 alloca (set at the fill) */
    const TirInstr **fill_before;    /* by instruction id: the lazy variable to fill (if still zero) before it */
};

bool emit_is_zero_fill(const TirInstr *v)
{
    if (v->op != TIR_FILL || v->nargs < 1) return false;
    const TirInstr *c = v->args[0];
    if (c->op == TIR_CONST_FLOAT) return c->fimm == 0 && !__builtin_signbit(c->fimm);
    return c->op == TIR_CONST_INT && c->imm == 0;
}

/* Does an mma use a register micro-kernel with the plain row-major acc? */
bool emit_mma_has_row_kernel(const TirInstr *mma)
{
    const TkMmaKernel *k = mma->base_name ? mma->base_op : NULL;
    return k && k->pack == TK_MMA_PACK_ROWS;
}

static bool acc_tile(const TirInstr *v)
{
    const TkType *t = v->type;
    return v->op == TIR_VAR && t->kind == TK_TY_RT && t->elem == TK_TY_F32 && t->layout == TK_ROW && t->rank == 2;
}

/* An mma into v that can start from zero registers (v not among its operands). */
static bool mma_into(const TirInstr *i, const TirInstr *v)
{
    if (i->op != TIR_MMA || i->args[0] != v || !emit_mma_has_row_kernel(i)) return false;
    for (unsigned a = 1; a < i->nargs; a++)
        if (i->args[a] == v || (i->args[a]->op == TIR_GET && i->args[a]->args[0] == v)) return false;
    return true;
}

/* How instruction i (with its nested regions) mentions v. */
enum { NOT_MENTIONED, ONLY_MMA, OTHER };

static int mention(const TirInstr *i, const TirInstr *v)
{
    int m = NOT_MENTIONED;
    if (mma_into(i, v)) m = ONLY_MMA;
    else
        for (unsigned a = 0; a < i->nargs; a++)
            if (i->args[a] == v) return OTHER;
    for (int k = 0; k < 2; k++)
        for (const TirInstr *j = i->body[k].first; j; j = j->next) {
            int n = mention(j, v);
            if (n == OTHER) return OTHER;
            if (n == ONLY_MMA) m = ONLY_MMA;
        }
    return m;
}

/* The statement after s (skipping value instructions), or NULL. */
static const TirInstr *next_statement(const TirInstr *s)
{
    const TirInstr *n = s->next;
    while (n && !tir_is_statement(n->op)) n = n->next;
    return n;
}

static void plan_region(Emit *E, struct EmitLazyZero *L, const TirRegion *r)
{
    for (const TirInstr *s = r->first; s; s = s->next) {
        plan_region(E, L, &s->body[0]);
        plan_region(E, L, &s->body[1]);
        if (s->op != TIR_SET || !emit_is_zero_fill(s->args[1])) continue;
        const TirInstr *v = s->args[0];
        if (!acc_tile(v) || v->parent != r || emit_is_view(E, v)) continue;
        const TirInstr *n = next_statement(s);
        if (n && mma_into(n, v)) {
            L->from_zero[s->id] = L->from_zero[n->id] = true;
            continue;
        }
        if (E->f->warps != 1) continue;
        /* lazy zero: mma-only mentions first, then the first other one (if any) */
        bool any_mma = false;
        const TirInstr *first_other = NULL;
        for (const TirInstr *t = s->next; t && !first_other; t = t->next) {
            int m = mention(t, v);
            if (m == ONLY_MMA) any_mma = true;
            else if (m == OTHER) first_other = t;
        }
        if (!any_mma) continue;
        L->lazy[v->id] = true;
        L->from_zero[s->id] = true;   /* the fill itself is not emitted */
        if (first_other) L->fill_before[first_other->id] = v;
    }
}

int emit_plan_lazy_zero(Emit *E, const TirRegion *body)
{
    size_t n = E->count ? E->count : 1;
    struct EmitLazyZero *L = calloc(1, sizeof *L);
    E->lazyzero = L;
    if (!L) return -1;
    L->from_zero = calloc(n, sizeof *L->from_zero);
    L->lazy = calloc(n, sizeof *L->lazy);
    L->flag = calloc(n, sizeof *L->flag);
    L->fill_before = calloc(n, sizeof *L->fill_before);
    if (!L->from_zero || !L->lazy || !L->flag || !L->fill_before) return -1;
    plan_region(E, L, body);
    return 0;
}

void emit_free_lazy_zero(Emit *E)
{
    struct EmitLazyZero *L = E->lazyzero;
    if (!L) return;
    free(L->from_zero);
    free(L->lazy);
    free(L->flag);
    free(L->fill_before);
    free(L);
    E->lazyzero = NULL;
}

static bool planned(const bool *a, const Emit *E, const TirInstr *i) { return a && i->id < E->count && a[i->id]; }

bool emit_is_lazy_zero(const Emit *E, const TirInstr *v)
{
    return E->lazyzero && planned(E->lazyzero->lazy, E, v);
}

bool emit_fill_left_to_mma(const Emit *E, const TirInstr *set)
{
    return E->lazyzero && planned(E->lazyzero->from_zero, E, set);
}

bool emit_set_is_zero_for_mma(Emit *E, const TirInstr *set)
{
    struct EmitLazyZero *L = E->lazyzero;
    if (!L || !planned(L->from_zero, E, set)) return false;
    const TirInstr *v = set->args[0];
    if (planned(L->lazy, E, v)) {   /* the fill becomes the flag */
        if (!L->flag[v->id]) L->flag[v->id] = emit_alloca(E, E->i8, 1, "acc.zero");
        LLVMBuildStore(E->b, LLVMConstInt(E->i8, 1, 0), L->flag[v->id]);
    }
    return true;
}

LLVMValueRef emit_mma_acc_zero(Emit *E, const TirInstr *mma)
{
    struct EmitLazyZero *L = E->lazyzero;
    if (!L) return NULL;
    const TirInstr *v = mma->args[0];
    if (planned(L->lazy, E, v) && L->flag[v->id])
        return LLVMBuildICmp(E->b, LLVMIntNE, LLVMBuildLoad2(E->b, E->i8, L->flag[v->id], ""), LLVMConstInt(E->i8, 0, 0), "");
    return planned(L->from_zero, E, mma) ? LLVMConstInt(E->i1, 1, 0) : NULL;
}

void emit_mma_acc_written(Emit *E, const TirInstr *mma)
{
    struct EmitLazyZero *L = E->lazyzero;
    const TirInstr *v = mma->args[0];
    if (L && planned(L->lazy, E, v) && L->flag[v->id]) LLVMBuildStore(E->b, LLVMConstInt(E->i8, 0, 0), L->flag[v->id]);
}

void emit_lazy_zero_settle(Emit *E, const TirInstr *i)
{
    struct EmitLazyZero *L = E->lazyzero;
    const TirInstr *v = L && i->id < E->count ? L->fill_before[i->id] : NULL;
    if (!v || !L->flag[v->id]) return;
    LLVMBasicBlockRef fill = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "acc.fill");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "acc.settled");
    LLVMValueRef still = LLVMBuildICmp(E->b, LLVMIntNE, LLVMBuildLoad2(E->b, E->i8, L->flag[v->id], ""), LLVMConstInt(E->i8, 0, 0), "");
    LLVMBuildCondBr(E->b, still, fill, done);
    LLVMPositionBuilderAtEnd(E->b, fill);
    if (emit_is_outview(E, v)) emit_outview_zero(E, v);   /* where it lives: maybe in C */
    else emit_tile_zero(E, emit_slot_ptr(E, v), v->type);
    LLVMBuildStore(E->b, LLVMConstInt(E->i8, 0, 0), L->flag[v->id]);
    LLVMBuildBr(E->b, done);
    LLVMPositionBuilderAtEnd(E->b, done);
}
