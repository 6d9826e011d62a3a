/* ast_to_tir.c — lowers the checked AST to TIR.
 *
 * Every kernel becomes a TirFunc. Helper calls are inlined: by-value
 * parameters (scalars, rt, rv) become fresh slots, by-reference ones (st, sv,
 * gl) map to the caller's. `let`s become slots too, so that values never flow
 * between statements except through slots (a TIR invariant). Implicit
 * widenings the checker accepted become explicit CASTs; untyped constants
 * become constants of the type their use needs. A `return` in the middle of a
 * helper sets a "returned" flag that guards what follows. */
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "lower.h"

typedef struct {
    const TkSymbol *sym;
    TirInstr *value;      /* slot (VAR), or a value (PARAM, SIZE, LOOP_IV) */
} Binding;

typedef struct {
    TirInstr *result;     /* slot for the helper's result, or NULL */
    TirInstr *returned;   /* bool slot, set by a return not in tail position */
} InlineFrame;

/* The value of size variable `var` of a size namespace (a kernel's or an
 * inlined helper's), for evaluating tensor dims of that function. */
typedef struct {
    const TkSizeNames *ns;
    unsigned var;
    TirInstr *value;
} SizeBinding;

typedef struct {
    TkArena *arena;
    TkDiags *diags;
    TirFunc *fn;
    SizeBinding sizes[256];
    unsigned nsizes;
    TirRegion *region;    /* where new instructions go */
    Binding *env;
    unsigned nenv, capenv;
    InlineFrame *frame;   /* innermost helper being inlined, or NULL */
    int depth;            /* inlining depth (the checker forbids recursion; this is a guard) */
    TirInstr *block_id[3], *warp_id;
    bool failed;
} Lower;

static TirInstr *emit(Lower *L, TirOp op, const TkType *type, TkSpan loc)
{
    TirInstr *i = tir_new(L->arena, op, type, loc);
    if (!i) {
        L->failed = true;
        static TirInstr dummy;
        memset(&dummy, 0, sizeof dummy);
        return &dummy;
    }
    tir_append(L->region, i);
    return i;
}

static TirInstr *emit1(Lower *L, TirOp op, const TkType *type, TkSpan loc, TirInstr *a)
{
    TirInstr *i = emit(L, op, type, loc);
    tir_add_arg(i, a);
    return i;
}

static TirInstr *emit2(Lower *L, TirOp op, const TkType *type, TkSpan loc, TirInstr *a, TirInstr *b)
{
    TirInstr *i = emit1(L, op, type, loc, a);
    tir_add_arg(i, b);
    return i;
}

static void bind(Lower *L, const TkSymbol *sym, TirInstr *value)
{
    if (L->nenv == L->capenv) {
        unsigned cap = L->capenv ? L->capenv * 2 : 64;
        Binding *nb = realloc(L->env, sizeof *nb * cap);
        if (!nb) {
            L->failed = true;
            return;
        }
        L->env = nb;
        L->capenv = cap;
    }
    L->env[L->nenv++] = (Binding){ sym, value };
}

static TirInstr *lookup(Lower *L, const TkSymbol *sym)
{
    for (unsigned i = L->nenv; i-- > 0;)
        if (L->env[i].sym == sym) return L->env[i].value;
    return NULL;
}

/* The concrete type of a (possibly untyped-constant) expression. */
static const TkType *concrete(const TkType *t, const TkNode *e)
{
    if (!t) return &tk_type_error;
    if (t->kind == TK_TY_UINT) return e && e->is_const && (e->ival < INT32_MIN || e->ival > INT32_MAX) ? &tk_type_i64 : &tk_type_i32;
    if (t->kind == TK_TY_UFLOAT) return &tk_type_f32;
    return t;
}

static TirInstr *constant(Lower *L, const TkType *t, const TkNode *e)
{
    if (tk_is_float(t->kind)) {
        TirInstr *i = emit(L, TIR_CONST_FLOAT, t, e->span);
        i->fimm = e->type && tk_is_float(e->type->kind) ? e->fval : (double)e->ival;
        return i;
    }
    TirInstr *i = emit(L, TIR_CONST_INT, t, e->span);
    i->imm = e->ival;
    return i;
}

/* Value of scalar `v` as type `t` (CAST when the types differ). */
static TirInstr *cast_to(Lower *L, TirInstr *v, const TkType *t, TkSpan loc)
{
    if (!v->type || !tk_is_scalar(t->kind) || !tk_is_scalar(v->type->kind) || v->type->kind == t->kind) return v;
    return emit1(L, TIR_CAST, t, loc, v);
}

static TirInstr *lower_expr(Lower *L, TkNode *e);

/* Coordinates and indices are i32 unless the expression is i64 (never cut). */
static const TkType *index_type(const TkNode *e)
{
    return e->type && e->type->kind == TK_TY_I64 ? &tk_type_i64 : &tk_type_i32;
}

/* Lower e for use where type `want` is expected (constants adopt it). */
static TirInstr *lower_as(Lower *L, TkNode *e, const TkType *want)
{
    if (e->is_const && want && tk_is_scalar(want->kind) && want->kind != TK_TY_BOOL && e->type && tk_is_scalar(e->type->kind))
        return constant(L, want, e);
    TirInstr *v = lower_expr(L, e);
    return want && tk_is_scalar(want->kind) ? cast_to(L, v, want, e->span) : v;
}

static TirInstr *function_value(Lower *L, TirOp op, int aux)
{
    /* Function-level values are emitted once, at the top of the body. */
    TirInstr **slot = op == TIR_WARP_ID ? &L->warp_id : &L->block_id[aux];
    if (*slot) return *slot;
    TirInstr *i = tir_new(L->arena, op, &tk_type_i32, L->fn->loc);
    if (!i) {
        L->failed = true;
        return emit(L, op, &tk_type_i32, L->fn->loc);
    }
    i->aux = aux;
    i->parent = &L->fn->body;
    i->next = L->fn->body.first;   /* prepend */
    if (L->fn->body.first) L->fn->body.first->prev = i;
    else L->fn->body.last = i;
    L->fn->body.first = i;
    return *slot = i;
}

static TirFn map_fn(const char *name)
{
    int fn = tir_fn_by_name(name);
    return fn < 0 ? TIR_FN_ADD : (TirFn)fn;
}

static TirFn reduce_fn(const char *name)
{
    const char *op = strchr(name, '_') + 1;   /* row_max → max */
    return strcmp(op, "max") == 0 ? TIR_FN_MAX : strcmp(op, "min") == 0 ? TIR_FN_MIN : TIR_FN_ADD;
}

static TirFn broadcast_fn(const char *name)
{
    return name[0] == 'a' ? TIR_FN_ADD : name[0] == 's' ? TIR_FN_SUB : name[0] == 'm' ? TIR_FN_MUL : TIR_FN_DIV;
}

static TirInstr *lower_block_stmts(Lower *L, TkNode *first);
static void lower_stmt(Lower *L, TkNode *s);
static TirInstr *new_slot(Lower *L, const TkType *t, const char *name, TkSpan loc);

/* Does evaluating e call a helper (which may store to memory)? */
static bool calls_helper(const TkNode *e)
{
    if (!e) return false;
    switch (e->kind) {
    case TK_N_CALL:
        if (!tk_builtin_find(e->name)) return true;
        for (const TkNode *a = e->list; a; a = a->next)
            if (calls_helper(a)) return true;
        return false;
    case TK_N_UNARY: return calls_helper(e->a);
    case TK_N_BINARY: return calls_helper(e->a) || calls_helper(e->b);
    case TK_N_INDEX:
        if (calls_helper(e->a)) return true;
        for (const TkNode *a = e->list; a; a = a->next)
            if (calls_helper(a)) return true;
        return false;
    default: return false;
    }
}

/* Slot holding a variable's storage (for SET / MMA / STORE targets). */
static TirInstr *slot_of(Lower *L, TkNode *e)
{
    TkSymbol *s = tk_root_symbol(e);
    TirInstr *v = s ? lookup(L, s) : NULL;
    if (!v || v->op != TIR_VAR) {
        L->failed = true;
        tk_error(L->diags, e->span, "internal error: no storage for this expression");
        return emit(L, TIR_VAR, &tk_type_error, e->span);
    }
    return v;
}

/* A gl/st/sv operand: the tensor parameter or the shared slot itself. */
static TirInstr *memory_operand(Lower *L, TkNode *e)
{
    if (e->type && e->type->kind == TK_TY_GL) return lower_expr(L, e);
    return slot_of(L, e);
}

static TirInstr *inline_call(Lower *L, TkNode *call);

static TirInstr *lower_builtin(Lower *L, TkNode *e, const TkBuiltin *b)
{
    TkNode *a0 = e->list, *a1 = a0 ? a0->next : NULL, *a2 = a1 ? a1->next : NULL;
    const TkType *t = e->type;
    TirInstr *i;
    switch (tk_builtin_family(b)) {
    case F_LOAD: {
        TirInstr *args[TIR_MAX_ARGS];
        unsigned n = 0;
        args[n++] = memory_operand(L, a0);
        for (TkNode *c = a1; c && n < TIR_MAX_ARGS; c = c->next) args[n++] = lower_as(L, c, index_type(c));
        i = emit(L, TIR_LOAD, t, e->span);
        for (unsigned k = 0; k < n; k++) tir_add_arg(i, args[k]);
        return i;
    }
    case F_STORE: {
        TirInstr *args[TIR_MAX_ARGS];
        unsigned n = 0;
        args[n++] = memory_operand(L, a0);
        args[n++] = tk_is_shared(a1->type->kind) ? emit1(L, TIR_GET, a1->type, a1->span, slot_of(L, a1)) : lower_expr(L, a1);
        for (TkNode *c = a2; c && n < TIR_MAX_ARGS; c = c->next) args[n++] = lower_as(L, c, index_type(c));
        i = emit(L, TIR_STORE, NULL, e->span);
        for (unsigned k = 0; k < n; k++) tir_add_arg(i, args[k]);
        return i;
    }
    case F_INIT: {
        const TkType *elem = tk_type_scalar(t->elem);
        TirInstr *v;
        if (tk_builtin_variant(b) == 2) {
            v = lower_as(L, a0, elem);
        } else {
            v = emit(L, TIR_CONST_FLOAT, elem, e->span);
            v->fimm = tk_builtin_variant(b) == 1 ? 1.0 : 0.0;
        }
        return emit1(L, TIR_FILL, t, e->span, v);
    }
    case F_MMA: {
        TirInstr *acc = slot_of(L, a0);
        TirInstr *A = lower_expr(L, a1), *B = lower_expr(L, a2);
        i = emit(L, TIR_MMA, NULL, e->span);
        i->aux = tk_builtin_variant(b);
        tir_add_arg(i, acc);
        tir_add_arg(i, A);
        tir_add_arg(i, B);
        return i;
    }
    case F_UNARY: {
        TirInstr *x = lower_as(L, a0, tk_is_scalar(t->kind) ? t : NULL);
        i = emit1(L, TIR_MAP1, t, e->span, x);
        i->aux = map_fn(e->name);
        return i;
    }
    case F_BINARY: {
        const TkType *sa = tk_is_scalar(t->kind) ? t : tk_is_scalar(a0->type->kind) ? tk_type_scalar(t->elem) : NULL;
        const TkType *sb = tk_is_scalar(t->kind) ? t : tk_is_scalar(a1->type->kind) ? tk_type_scalar(t->elem) : NULL;
        TirInstr *x = lower_as(L, a0, sa), *y = lower_as(L, a1, sb);
        i = emit2(L, TIR_MAP2, t, e->span, x, y);
        i->aux = map_fn(e->name);
        return i;
    }
    case F_FMA: {
        TirInstr *x[3];   /* operands in source order, before the op */
        unsigned n = 0;
        for (TkNode *a = a0; a && n < 3; a = a->next) {
            const TkType *sa = tk_is_scalar(t->kind) ? t : tk_is_scalar(a->type->kind) ? tk_type_scalar(t->elem) : NULL;
            x[n++] = lower_as(L, a, sa);
        }
        i = emit2(L, TIR_MAP3, t, e->span, x[0], x[1]);
        tir_add_arg(i, x[2]);
        i->aux = TIR_FN_FMA;
        return i;
    }
    case F_WHERE: {
        /* the condition (a mask or a bool), then the values, in source order;
         * scalar values take the result's element type */
        TirInstr *m = lower_expr(L, a0);
        const TkType *sv = tk_is_scalar(t->kind) ? t : tk_type_scalar(t->elem);
        TirInstr *x = lower_as(L, a1, tk_is_scalar(a1->type->kind) ? sv : NULL);
        TirInstr *y = lower_as(L, a2, tk_is_scalar(a2->type->kind) ? sv : NULL);
        i = emit2(L, TIR_MAP3, t, e->span, m, x);
        tir_add_arg(i, y);
        i->aux = TIR_FN_SELECT;
        return i;
    }
    case F_REDUCE:
        i = emit1(L, TIR_REDUCE, t, e->span, lower_expr(L, a0));
        i->aux = reduce_fn(e->name);
        i->imm = a0->type->kind == TK_TY_RV ? 2 : tk_builtin_variant(b);   /* 2: all of a vector → a scalar */
        return i;
    case F_BROADCAST:
    {
        TirInstr *x = lower_expr(L, a0);   /* operands in source order */
        TirInstr *v = lower_expr(L, a1);
        i = emit2(L, TIR_BROADCAST, t, e->span, x, v);
    }
        i->aux = broadcast_fn(e->name);
        i->imm = tk_builtin_variant(b);
        return i;
    case F_CONVERT: {
        TirInstr *x = lower_expr(L, a0);
        if (tk_is_scalar(t->kind)) return emit1(L, TIR_CAST, t, e->span, cast_to(L, x, concrete(a0->type, a0), e->span));
        return emit1(L, TIR_CONVERT, t, e->span, x);
    }
    case F_TRANSPOSE:
        return emit1(L, TIR_TRANSPOSE, t, e->span, lower_expr(L, a0));
    case F_TRI: {
        TirInstr *x = lower_expr(L, a0), *k = lower_as(L, a1, index_type(a1)), *v;
        if (a2) {
            v = lower_as(L, a2, tk_type_scalar(t->elem));
        } else {
            v = emit(L, TIR_CONST_FLOAT, tk_type_scalar(t->elem), e->span);
        }
        i = emit2(L, TIR_TRI, t, e->span, x, k);
        tir_add_arg(i, v);
        i->aux = tk_builtin_variant(b);
        return i;
    }
    case F_MASK: {
        TirInstr *x = lower_expr(L, a0), *n = lower_as(L, a1, index_type(a1)), *v = lower_as(L, a2, tk_type_scalar(t->elem));
        i = emit2(L, TIR_MASK, t, e->span, x, n);
        tir_add_arg(i, v);
        i->imm = tk_builtin_variant(b);
        return i;
    }
    case F_CDIV: {
        const TkType *ct = concrete(t, e);
        if (e->is_const) return constant(L, ct, e);
        TirInstr *x = lower_as(L, a0, ct);
        TirInstr *y = lower_as(L, a1, ct);
        return emit2(L, TIR_CDIV, ct, e->span, x, y);
    }
    case F_SYNC:
        return emit(L, TIR_SYNC, NULL, e->span);
    }
    return emit(L, TIR_CONST_INT, &tk_type_i32, e->span);
}

/* ---------------------------------------------------------------- sub-tiles and rows (§5.13) */

static bool is_slice(const TkNode *e)
{
    for (const TkNode *x = e->list; x; x = x->next)
        if (x->kind == TK_N_RANGE) return true;
    return false;
}

/* First index of range r (`..` alone: 0); the checker made its bounds constants. */
static int64_t range_lo(const TkNode *r) { return r->a ? r->a->ival : 0; }

static bool is_whole(const TkNode *r, int64_t dim) { return range_lo(r) == 0 && (!r->b || r->b->ival == dim); }

/* The line (row or column) of rt `base` that index list `list` names, an
 * rv of the whole row/column; *which is 0 for a row, 1 for a column. */
static TirInstr *lower_line(Lower *L, const TkNode *e, TirInstr *base, const TkNode **range)
{
    const TkType *bt = base->type;
    bool col = e->list->kind == TK_N_RANGE;
    const TkNode *idx = col ? e->list->next : e->list;
    *range = col ? e->list : e->list->next;
    const TkType *vt = tk_type_vec(L->arena, TK_TY_RV, bt->elem, col ? bt->dims[0] : bt->dims[1]);
    if (!vt) L->failed = true;
    TirInstr *line = emit2(L, TIR_LINE, vt ? vt : e->type, e->span, base, lower_as(L, (TkNode *)idx, index_type(idx)));
    line->imm = col;
    return line;
}

/* A read t[r0 .. r1, c0 .. c1], v[a .. b], t[i, ..], t[.., j]: a view of
 * `base` (a whole range is base itself). */
static TirInstr *lower_slice(Lower *L, TkNode *e, TirInstr *base)
{
    const TkType *bt = base->type;
    if (bt->kind == TK_TY_RV) {
        if (is_whole(e->list, bt->dims[0])) return base;
        TirInstr *s = emit1(L, TIR_SLICE, e->type, e->span, base);
        s->imm = range_lo(e->list);
        return s;
    }
    const TkNode *r = e->list, *c = r->next;
    if (r->kind == TK_N_RANGE && c->kind == TK_N_RANGE) {
        if (is_whole(r, bt->dims[0]) && is_whole(c, bt->dims[1])) return base;
        TirInstr *s = emit1(L, TIR_SLICE, e->type, e->span, base);
        s->aux = (int)range_lo(r);
        s->imm = range_lo(c);
        return s;
    }
    const TkNode *range;
    TirInstr *line = lower_line(L, e, base, &range);
    if (is_whole(range, line->type->dims[0])) return line;
    TirInstr *s = emit1(L, TIR_SLICE, e->type, e->span, line);
    s->imm = range_lo(range);
    return s;
}

/* x[...] = v and x[...] op= v: a region write into x's slot. */
static void lower_set_slice(Lower *L, TkNode *s, TirInstr *slot)
{
    TkNode *t = s->a;
    TirInstr *v;
    if (s->op == TK_OP_NONE) {
        v = lower_as(L, s->b, t->type);
    } else {   /* x[...] op= v is x[...] = x[...] op v, with x[...] a read of the slot */
        TkNode tmp = { .kind = TK_N_BINARY, .span = s->span, .op = s->op, .a = t, .b = s->b, .type = t->type };
        v = lower_expr(L, &tmp);
    }
    const TkType *st = slot->type;
    const TkNode *r = t->list, *c = r->next;
    if (st->kind == TK_TY_RV || (r->kind == TK_N_RANGE && c->kind == TK_N_RANGE)) {
        TirInstr *w = emit2(L, TIR_SET_SLICE, NULL, s->span, slot, v);
        w->aux = st->kind == TK_TY_RV ? 0 : (int)range_lo(r);
        w->imm = st->kind == TK_TY_RV ? range_lo(r) : range_lo(c);
        return;
    }
    bool col = r->kind == TK_N_RANGE;
    const TkNode *idx = col ? c : r, *range = col ? r : c;
    TirInstr *k = lower_as(L, (TkNode *)idx, index_type(idx));
    TirInstr *w = emit2(L, TIR_SET_LINE, NULL, s->span, slot, v);
    tir_add_arg(w, k);
    w->imm = col;
    w->aux = (int)range_lo(range);
}

static TirInstr *lower_expr(Lower *L, TkNode *e)
{
    const TkType *t = concrete(e->type, e);
    if (e->is_const && tk_is_scalar(t->kind)) return constant(L, t, e);
    switch (e->kind) {
    case TK_N_NAME: {
        TkSymbol *s = e->sym;
        TirInstr *v = s ? lookup(L, s) : NULL;
        if (!v) {
            L->failed = true;
            tk_error(L->diags, e->span, "internal error: '%s' has no lowering", e->name);
            return emit(L, TIR_CONST_INT, &tk_type_i32, e->span);
        }
        if (v->op == TIR_VAR) return emit1(L, TIR_GET, v->type, e->span, v);
        return v;
    }
    case TK_N_BUILTIN_VAR:
        if (strcmp(e->name, "warp") == 0) return function_value(L, TIR_WARP_ID, 0);
        return function_value(L, TIR_BLOCK_ID, e->field[0] - 'x');
    case TK_N_UNARY: {
        if (!tk_is_scalar(t->kind)) {
            TirInstr *i = emit1(L, TIR_MAP1, t, e->span, lower_expr(L, e->a));
            i->aux = e->op == TK_OP_NOT ? TIR_FN_NOT : TIR_FN_NEG;
            return i;
        }
        TirInstr *i = emit1(L, TIR_UNARY, t, e->span, lower_as(L, e->a, t));
        i->aux = e->op;
        return i;
    }
    case TK_N_BINARY: {
        const TkType *ta = concrete(e->a->type, e->a), *tb = concrete(e->b->type, e->b);
        if (!tk_is_scalar(ta->kind) || !tk_is_scalar(tb->kind)) {
            /* a scalar operand takes the tile operand's element type: the
             * result's, except for comparisons (whose result holds bool) */
            const TkType *elem = tk_type_scalar((tk_is_scalar(ta->kind) ? tb : ta)->elem);
            TirInstr *x = lower_as(L, e->a, tk_is_scalar(ta->kind) ? elem : NULL);
            TirInstr *y = lower_as(L, e->b, tk_is_scalar(tb->kind) ? elem : NULL);
            TirInstr *i = emit2(L, TIR_MAP2, t, e->span, x, y);
            int cmp = tir_fn_of_compare_op(e->op);
            i->aux = cmp >= 0 ? cmp : e->op == TK_OP_AND ? TIR_FN_AND : e->op == TK_OP_OR ? TIR_FN_OR
                   : e->op == TK_OP_ADD ? TIR_FN_ADD : e->op == TK_OP_SUB ? TIR_FN_SUB : e->op == TK_OP_MUL ? TIR_FN_MUL : TIR_FN_DIV;
            return i;
        }
        if ((e->op == TK_OP_AND || e->op == TK_OP_OR) && calls_helper(e->b)) {
            /* a helper on the right may have effects: evaluate it only when needed */
            TirInstr *slot = new_slot(L, &tk_type_bool, NULL, e->span);
            emit2(L, TIR_SET, NULL, e->span, slot, lower_as(L, e->a, &tk_type_bool));
            TirInstr *cond = emit1(L, TIR_GET, &tk_type_bool, e->span, slot);
            if (e->op == TK_OP_OR) {
                cond = emit1(L, TIR_UNARY, &tk_type_bool, e->span, cond);
                cond->aux = TK_OP_NOT;
            }
            TirInstr *branch = emit1(L, TIR_IF, NULL, e->span, cond);
            TirRegion *saved = L->region;
            L->region = &branch->body[0];
            emit2(L, TIR_SET, NULL, e->span, slot, lower_as(L, e->b, &tk_type_bool));
            L->region = saved;
            return emit1(L, TIR_GET, &tk_type_bool, e->span, slot);
        }
        /* operand type: the wider of the two (constants took the other's type) */
        const TkType *ot = ta;
        if (e->a->is_const && !e->b->is_const) ot = tb;
        else if (!e->a->is_const && !e->b->is_const && ta->kind != tb->kind)
            ot = (tb->kind == TK_TY_I64 || tb->kind == TK_TY_F32) ? tb : ta;
        TirInstr *x = lower_as(L, e->a, ot);
        TirInstr *y = lower_as(L, e->b, ot);
        TirInstr *i = emit2(L, TIR_BINARY, t, e->span, x, y);
        i->aux = e->op;
        return i;
    }
    case TK_N_CALL: {
        const TkBuiltin *b = tk_builtin_find(e->name);
        if (b) return lower_builtin(L, e, b);
        return inline_call(L, e);
    }
    case TK_N_INDEX: {
        if (is_slice(e)) return lower_slice(L, e, lower_expr(L, e->a));
        TirInstr *base = lower_expr(L, e->a);
        TirInstr *idx[2] = { NULL, NULL };
        unsigned n = 0;
        for (TkNode *x = e->list; x && n < 2; x = x->next) idx[n++] = lower_as(L, x, index_type(x));
        TirInstr *i = emit1(L, TIR_ELEM, t, e->span, base);
        for (unsigned k = 0; k < n; k++) tir_add_arg(i, idx[k]);
        return i;
    }
    default:
        return emit(L, TIR_CONST_INT, &tk_type_i32, e->span);
    }
}

/* ---------------------------------------------------------------- statements */

static TirInstr *new_slot(Lower *L, const TkType *t, const char *name, TkSpan loc)
{
    TirInstr *v = emit(L, TIR_VAR, t, loc);
    v->name = name;
    return v;
}

static void set_slot(Lower *L, TirInstr *slot, TkNode *value, TkSpan loc)
{
    TirInstr *v = lower_as(L, value, slot->type);
    emit2(L, TIR_SET, NULL, loc, slot, v);
}

static bool contains_return(const TkNode *s)
{
    if (!s) return false;
    switch (s->kind) {
    case TK_N_RETURN: return true;
    case TK_N_BLOCK:
        for (const TkNode *x = s->list; x; x = x->next)
            if (contains_return(x)) return true;
        return false;
    case TK_N_IF: return contains_return(s->b) || contains_return(s->c);
    case TK_N_FOR: return contains_return(s->c);
    default: return false;
    }
}

static TirInstr *returned_flag(Lower *L, TkSpan loc)
{
    return emit1(L, TIR_GET, &tk_type_bool, loc, L->frame->returned);
}

static void lower_if(Lower *L, TkNode *s)
{
    TirInstr *cond = lower_as(L, s->a, &tk_type_bool);
    TirInstr *i = emit1(L, TIR_IF, NULL, s->span, cond);
    TirRegion *saved = L->region;
    L->region = &i->body[0];
    lower_block_stmts(L, s->b->list);
    if (s->c) {
        L->region = &i->body[1];
        if (s->c->kind == TK_N_IF) lower_if(L, s->c);
        else lower_block_stmts(L, s->c->list);
    }
    L->region = saved;
}

static void lower_for(Lower *L, TkNode *s)
{
    const TkType *vt = s->type ? s->type : &tk_type_i32;
    TirInstr *lo = lower_as(L, s->a, vt), *hi = lower_as(L, s->b, vt);
    TirInstr *f = emit2(L, TIR_FOR, NULL, s->span, lo, hi);
    TirInstr *iv = tir_new(L->arena, TIR_LOOP_IV, vt, s->name_span);
    if (!iv) {
        L->failed = true;
        return;
    }
    iv->name = s->name;
    iv->parent = &f->body[0];
    f->iv = iv;
    bind(L, s->sym, iv);
    TirRegion *saved = L->region;
    L->region = &f->body[0];
    if (L->frame && L->frame->returned && contains_return(s->c)) {
        /* once the helper has returned, the remaining iterations do nothing */
        TirInstr *not_ret = emit1(L, TIR_UNARY, &tk_type_bool, s->span, returned_flag(L, s->span));
        not_ret->aux = TK_OP_NOT;
        TirInstr *g = emit1(L, TIR_IF, NULL, s->span, not_ret);
        L->region = &g->body[0];
    }
    lower_block_stmts(L, s->c->list);
    L->region = saved;
}

static void lower_stmt(Lower *L, TkNode *s)
{
    switch (s->kind) {
    case TK_N_VAR: {
        TirInstr *slot = new_slot(L, s->type, s->name, s->span);
        bind(L, s->sym, slot);
        if (s->b) set_slot(L, slot, s->b, s->span);
        break;
    }
    case TK_N_LET: {
        TirInstr *slot = new_slot(L, s->type, s->name, s->span);
        bind(L, s->sym, slot);
        set_slot(L, slot, s->b, s->span);
        break;
    }
    case TK_N_CONST: break;   /* folded at every use */
    case TK_N_ASSIGN: {
        TirInstr *slot = slot_of(L, s->a);
        if (s->a->kind == TK_N_INDEX && is_slice(s->a)) {
            lower_set_slice(L, s, slot);
            break;
        }
        if (s->a->kind == TK_N_INDEX) {
            const TkType *elem = tk_type_scalar(slot->type->elem);
            TirInstr *v;
            if (s->op == TK_OP_NONE) {
                v = lower_as(L, s->b, elem);
            } else {
                TirInstr *old = lower_expr(L, s->a);
                TirInstr *rhs = lower_as(L, s->b, elem);
                v = emit2(L, TIR_BINARY, elem, s->span, old, rhs);
                v->aux = s->op;
            }
            TirInstr *idx[2] = { NULL, NULL };
            unsigned n = 0;
            for (TkNode *x = s->a->list; x && n < 2; x = x->next) idx[n++] = lower_as(L, x, index_type(x));
            TirInstr *i = emit2(L, TIR_SET_ELEM, NULL, s->span, slot, v);
            for (unsigned k = 0; k < n; k++) tir_add_arg(i, idx[k]);
            break;
        }
        if (s->op == TK_OP_NONE) {
            set_slot(L, slot, s->b, s->span);
            break;
        }
        TkNode tmp = { .kind = TK_N_BINARY, .span = s->span, .op = s->op, .a = s->a, .b = s->b, .type = (TkType *)slot->type };
        TirInstr *v = lower_expr(L, &tmp);
        emit2(L, TIR_SET, NULL, s->span, slot, cast_to(L, v, slot->type, s->span));
        break;
    }
    case TK_N_EXPR_STMT: lower_expr(L, s->a); break;
    case TK_N_IF: lower_if(L, s); break;
    case TK_N_FOR: lower_for(L, s); break;
    case TK_N_RETURN:
        if (!L->frame) break;
        if (s->a && L->frame->result) set_slot(L, L->frame->result, s->a, s->span);
        if (L->frame->returned) {
            TirInstr *t = emit(L, TIR_CONST_INT, &tk_type_bool, s->span);
            t->imm = 1;
            emit2(L, TIR_SET, NULL, s->span, L->frame->returned, t);
        }
        break;
    case TK_N_BLOCK: lower_block_stmts(L, s->list); break;
    default: break;
    }
}

static TirInstr *lower_block_stmts(Lower *L, TkNode *first)
{
    unsigned env_mark = L->nenv;
    for (TkNode *s = first; s; s = s->next) {
        lower_stmt(L, s);
        if (L->frame && L->frame->returned && s->next && contains_return(s)) {
            /* what follows runs only if no return was taken */
            TirInstr *not_ret = emit1(L, TIR_UNARY, &tk_type_bool, s->span, returned_flag(L, s->span));
            not_ret->aux = TK_OP_NOT;
            TirInstr *g = emit1(L, TIR_IF, NULL, s->span, not_ret);
            TirRegion *saved = L->region;
            L->region = &g->body[0];
            lower_block_stmts(L, s->next);
            L->region = saved;
            break;
        }
    }
    L->nenv = env_mark;
    return NULL;
}

/* Does the helper body need a "returned" flag (a return not at the very end)? */
static bool needs_return_flag(const TkNode *body)
{
    for (const TkNode *s = body->list; s; s = s->next) {
        if (!s->next) return s->kind != TK_N_RETURN && contains_return(s);
        if (contains_return(s)) return true;
    }
    return false;
}

static TirInstr *size_value(Lower *L, const TkSizeNames *ns, unsigned var)
{
    for (unsigned k = L->nsizes; k-- > 0;)
        if (L->sizes[k].ns == ns && L->sizes[k].var == var) return L->sizes[k].value;
    return NULL;
}

/* A tensor dimension (polynomial over the sizes of namespace ns) as an i32 value. */
static TirInstr *poly_value(Lower *L, const TkPoly *p, const TkSizeNames *ns, TkSpan loc)
{
    TirInstr *sum = NULL;
    for (unsigned t = 0; t < p->nterms; t++) {
        const TkMono *m = &p->terms[t];
        TirInstr *term = emit(L, TIR_CONST_INT, &tk_type_i32, loc);
        term->imm = m->coef;
        for (unsigned v = 0; v < m->nvars; v++) {
            TirInstr *x = size_value(L, ns, m->vars[v]);
            if (x && x->op == TIR_VAR) x = emit1(L, TIR_GET, &tk_type_i32, loc, x);
            if (!x) {
                L->failed = true;
                tk_error(L->diags, loc, "internal error: a size of this tensor has no value here");
                return term;
            }
            TirInstr *mul = emit2(L, TIR_BINARY, &tk_type_i32, loc, term, x);
            mul->aux = TK_OP_MUL;
            term = mul;
        }
        if (sum) {
            TirInstr *add = emit2(L, TIR_BINARY, &tk_type_i32, loc, sum, term);
            add->aux = TK_OP_ADD;
            sum = add;
        } else {
            sum = term;
        }
    }
    if (!sum) {
        sum = emit(L, TIR_CONST_INT, &tk_type_i32, loc);
        sum->imm = 0;
    }
    return sum;
}

/* A helper's sizes take the values of the argument tensors' dims. */
static void bind_helper_sizes(Lower *L, TkNode *fn, TkNode *call)
{
    for (TkNode *p = fn->list, *a = call->list; p && a; p = p->next, a = a->next) {
        if (!p->type || p->type->kind != TK_TY_GL || !a->type || a->type->kind != TK_TY_GL) continue;
        unsigned d = 0;
        for (TkNode *dim = p->a->list; dim; dim = dim->next, d++) {
            TkSymbol *s = dim->kind == TK_N_NAME ? dim->sym : NULL;
            if (!s || s->kind != TK_SYM_SIZE || size_value(L, p->type->size_names, s->size_index)) continue;
            TirInstr *slot = new_slot(L, &tk_type_i32, s->name, call->span);
            TirInstr *v = poly_value(L, &a->type->gdims[d], a->type->size_names, call->span);
            emit2(L, TIR_SET, NULL, call->span, slot, v);
            bind(L, s, slot);
            /* nested calls read the size through its slot (values do not cross barriers) */
            if (L->nsizes < 256) L->sizes[L->nsizes++] = (SizeBinding){ p->type->size_names, s->size_index, slot };
        }
    }
}

static TirInstr *inline_call(Lower *L, TkNode *call)
{
    TkSymbol *fs = call->sym;
    TkNode *fn = fs ? fs->decl : NULL;
    if (!fn || L->depth > 64) {
        L->failed = true;
        tk_error(L->diags, call->span, "internal error: cannot inline '%s'", call->name);
        return emit(L, TIR_CONST_INT, &tk_type_i32, call->span);
    }
    /* arguments, evaluated left to right in the caller's scope (as many as
     * the helper has parameters: the language sets no limit) */
    unsigned nparams = 0;
    for (TkNode *p = fn->list; p; p = p->next) nparams++;
    TirInstr **vals = tk_arena_alloc(L->arena, sizeof *vals * (nparams ? nparams : 1));
    if (!vals) {
        L->failed = true;
        tk_error(L->diags, call->span, "out of memory inlining '%s'", call->name);
        return emit(L, TIR_CONST_INT, &tk_type_i32, call->span);
    }
    unsigned n = 0;
    for (TkNode *a = call->list, *p = fn->list; a && p; a = a->next, p = p->next, n++) {
        const TkType *pt = p->type;
        if (pt->kind == TK_TY_GL) vals[n] = lower_expr(L, a);
        else if (tk_is_shared(pt->kind)) vals[n] = slot_of(L, a);
        else {
            TirInstr *slot = new_slot(L, pt, p->name, a->span);
            set_slot(L, slot, a, a->span);
            vals[n] = slot;
        }
    }
    unsigned env_mark = L->nenv, sizes_mark = L->nsizes;
    bind_helper_sizes(L, fn, call);
    unsigned nvals = n;
    n = 0;
    for (TkNode *p = fn->list; p && n < nvals; p = p->next, n++) {
        TkSymbol *ps = NULL;
        /* the parameter's symbol: find it through any use in the body is not
         * possible, so the checker stores it on the PARAM node */
        ps = p->sym;
        if (ps) bind(L, ps, vals[n]);
    }
    InlineFrame frame = { 0 };
    const TkType *rt = fn->type;
    if (rt && rt->kind != TK_TY_VOID && rt->kind != TK_TY_ERROR) frame.result = new_slot(L, rt, fn->name, call->span);
    if (needs_return_flag(fn->b)) frame.returned = new_slot(L, &tk_type_bool, "returned", call->span);
    InlineFrame *saved = L->frame;
    L->frame = &frame;
    L->depth++;
    lower_block_stmts(L, fn->b->list);
    L->depth--;
    L->frame = saved;
    L->nenv = env_mark;
    L->nsizes = sizes_mark;
    if (frame.result) return emit1(L, TIR_GET, rt, call->span, frame.result);
    return NULL;
}

/* ---------------------------------------------------------------- kernels */

static uint64_t static_flops(const TirRegion *r)
{
    uint64_t total = 0;
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_MMA) {
            const TkType *acc = i->args[0]->type, *a = i->args[1]->type;
            int64_t k = (i->aux == TK_MMA_ATB || i->aux == TK_MMA_ATBT) ? a->dims[0] : a->dims[1];
            total += 2 * (uint64_t)acc->dims[0] * (uint64_t)acc->dims[1] * (uint64_t)k;
        }
    }
    return total;
}

/* Parameter and size values, emitted into the current region and bound. */
static void bind_params(Lower *L, TkNode *k)
{
    int idx = 0;
    for (TkNode *p = k->list; p; p = p->next, idx++) {
        TirInstr *v = emit(L, TIR_PARAM, p->type, p->span);
        v->aux = idx;
        v->name = p->name;
        bind(L, p->sym, v);
    }
    for (TkNode *p = k->list; p; p = p->next) {
        if (p->type->kind != TK_TY_GL) continue;
        for (TkNode *d = p->a->list; d; d = d->next) {
            TkSymbol *s = d->kind == TK_N_NAME ? d->sym : NULL;
            if (s && s->kind == TK_SYM_SIZE && !lookup(L, s)) {
                TirInstr *v = emit(L, TIR_SIZE, &tk_type_i32, d->span);
                v->aux = s->size_index;
                v->name = s->name;
                bind(L, s, v);
                if (L->nsizes < 256) L->sizes[L->nsizes++] = (SizeBinding){ p->type->size_names, s->size_index, v };
            }
        }
    }
}

static int lower_kernel(Lower *L, TirModule *m, TkNode *k)
{
    TirFunc *f = tk_arena_alloc(L->arena, sizeof *f);
    if (!f) return -1;
    f->name = k->name;
    f->display = k->display ? k->display : k->name;
    f->loc = k->span;
    f->nparams = tk_list_length(k->list);
    f->params = tk_arena_alloc(L->arena, sizeof *f->params * (f->nparams ? f->nparams : 1));
    if (!f->params) return -1;
    L->fn = f;
    L->nenv = 0;
    L->nsizes = 0;
    L->block_id[0] = L->block_id[1] = L->block_id[2] = L->warp_id = NULL;
    L->frame = NULL;
    f->warps = 1;

    unsigned idx = 0;
    for (TkNode *p = k->list; p; p = p->next, idx++) {
        f->params[idx].name = p->name;
        f->params[idx].type = p->type;
        f->params[idx].kind = p->type->kind == TK_TY_GL ? TIR_PARAM_TENSOR : TIR_PARAM_SCALAR;
        if (p->type->kind == TK_TY_GL) f->sizes = p->type->size_names;
    }
    /* attributes */
    for (TkNode *a = k->list2; a; a = a->next) {
        if (strcmp(a->name, "warps") == 0 && a->list && a->list->is_const) f->warps = a->list->ival;
    }
    for (TkNode *a = k->list2; a; a = a->next) {
        if (strcmp(a->name, "grid") != 0) continue;
        L->region = &f->grid_region;
        bind_params(L, k);
        for (TkNode *e = a->list; e && f->grid_rank < 3; e = e->next) f->grid[f->grid_rank++] = lower_as(L, e, &tk_type_i64);
    }
    if (f->grid_rank == 0) {
        L->region = &f->grid_region;
        TirInstr *one = emit(L, TIR_CONST_INT, &tk_type_i64, k->span);
        one->imm = 1;
        f->grid[f->grid_rank++] = one;
    }
    /* the body gets its own parameter and size values (regions do not share values) */
    L->nenv = 0;
    L->nsizes = 0;
    L->region = &f->body;
    bind_params(L, k);
    lower_block_stmts(L, k->b->list);
    f->flops_per_block = static_flops(&f->body);
    /* append in source order */
    TirFunc **tail = &m->funcs;
    while (*tail) tail = &(*tail)->next;
    *tail = f;
    return 0;
}

int tir_from_ast(TirModule *m, TkArena *arena, const TkSource *src, TkDiags *diags, TkNode *items)
{
    memset(m, 0, sizeof *m);
    m->arena = arena;
    m->src = src;
    Lower L;
    memset(&L, 0, sizeof L);
    L.arena = arena;
    L.diags = diags;
    int rc = 0;
    for (TkNode *it = items; it; it = it->next)
        if (it->kind == TK_N_KERNEL && !it->broken && !it->generic && lower_kernel(&L, m, it) != 0) rc = -1;   /* templates: only their instances */
    free(L.env);
    return rc == 0 && !L.failed ? 0 : -1;
}
