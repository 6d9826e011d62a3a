/* check_mask.c — typing of masks: comparisons of register tiles and vectors
 * give rt<bool, ...>/rv<bool, ...>, && || ! combine them element-wise, and
 * where(mask, a, b) picks between two values element by element. A mask
 * holds no numbers: arithmetic, loads, stores and reductions refuse it
 * (tk_mask_refused), and convert<f32>(mask) gives 1.0 where it holds. */
#include <stdio.h>
#include <string.h>

#include "checker.h"

static TkType *err(void) { return &tk_type_error; }

bool tk_mask_refused(TkChecker *c, TkNode *a, const char *what)
{
    if (!tk_is_mask(a->type)) return false;
    char s[160];
    tk_type_str(a->type, s, sizeof s);
    TkDiag *g = tk_error(c->diags, a->span, "%s takes numbers, but this is a mask (%s)", what, s);
    tk_diag_found(g, "%s", s);
    tk_diag_hint(g, "pick numbers with where(mask, a, b), or use convert<f32>(mask) for 1.0 where it holds and 0.0 elsewhere");
    return true;
}

/* a < b (and <= > >= == !=) where one side is a tile or vector: both sides
 * numbers, paired like an element-wise operation; the result has the tile's
 * shape and layout and bool elements. */
static TkType *check_compare(TkChecker *c, TkNode *e)
{
    char what[16];
    snprintf(what, sizeof what, "'%s'", tk_op_spelling(e->op));
    TkNode *ops[2] = { e->a, e->b };
    for (int i = 0; i < 2; i++) {
        if (tk_is_mask(ops[i]->type)) {
            TkDiag *g = tk_error(c->diags, e->span, "%s compares numbers, not masks", what);
            tk_diag_found(g, "a mask as operand %d", i + 1);
            tk_diag_hint(g, "combine masks with && || !; `a != b` on masks is `(a && !b) || (!a && b)`");
            return err();
        }
    }
    TkType *t = tk_check_elementwise(c, e, what, e->a, e->b);
    if (t->kind == TK_TY_ERROR) return err();
    return tk_type_with_elem(c->arena, t, TK_TY_BOOL);
}

/* m && n, m || n: masks of one type, or a mask with a bool scalar (which
 * applies to every element). Both sides are always evaluated. */
static TkType *check_logic(TkChecker *c, TkNode *e)
{
    TkNode *ops[2] = { e->a, e->b };
    for (int i = 0; i < 2; i++) {
        const TkType *t = ops[i]->type;
        if (tk_is_mask(t) || t->kind == TK_TY_BOOL) continue;
        char s[160];
        tk_type_str(t, s, sizeof s);
        TkDiag *g = tk_error(c->diags, ops[i]->span, "operand of '%s' must be a mask or a bool", tk_op_spelling(e->op));
        tk_diag_expected(g, "rt<bool, ...>, rv<bool, ...> or bool");
        tk_diag_found(g, "%s", s);
        if (tk_is_register(t->kind)) tk_diag_hint(g, "compare the tile to get a mask, e.g. `x > 0.0`");
        return err();
    }
    const TkType *x = e->a->type, *y = e->b->type;
    if (tk_is_mask(x) && tk_is_mask(y) && !tk_type_equal(x, y)) {
        char xs[160], ys[160];
        tk_type_str(x, xs, sizeof xs);
        tk_type_str(y, ys, sizeof ys);
        TkDiag *g = tk_error(c->diags, e->span, "masks combined with '%s' have different shapes or layouts", tk_op_spelling(e->op));
        tk_diag_expected(g, "%s (like the first operand)", xs);
        tk_diag_found(g, "%s", ys);
        return err();
    }
    return (TkType *)(tk_is_mask(x) ? x : y);
}

TkType *tk_check_mask_binary(TkChecker *c, TkNode *e)
{
    if (e->op >= TK_OP_LT && e->op <= TK_OP_NE) return check_compare(c, e);
    if (e->op == TK_OP_AND || e->op == TK_OP_OR) return check_logic(c, e);
    return NULL;
}

TkType *tk_check_mask_not(TkChecker *c, TkNode *e)
{
    const TkType *t = e->a->type;
    if (tk_is_mask(t)) return (TkType *)t;
    char s[160];
    tk_type_str(t, s, sizeof s);
    TkDiag *g = tk_error(c->diags, e->span, "'!' needs a bool or a mask");
    tk_diag_expected(g, "bool, rt<bool, ...> or rv<bool, ...>");
    tk_diag_found(g, "%s", s);
    tk_diag_hint(g, "compare the tile to get a mask, e.g. `!(x > 0.0)`");
    return err();
}

/* The element type two scalar value operands of where(mask, a, b) share
 * when neither is a tile: tiles hold floats, and untyped constants become
 * f32 (`where(x > 0.0, 1.0, 0.0)`). */
static TkType *scalar_values_elem(TkChecker *c, TkNode *call, TkNode *a, TkNode *b)
{
    if (tk_is_untyped(a->type->kind) && tk_is_untyped(b->type->kind)) {
        if (!tk_coerce(c, a, &tk_type_f32, "argument 2 of where") || !tk_coerce(c, b, &tk_type_f32, "argument 3 of where")) return NULL;
        return &tk_type_f32;
    }
    TkType *t = tk_common_scalar(c, call, a, b);
    if (!t) return NULL;
    if (!tk_is_float(t->kind)) {
        char s[64];
        tk_type_str(t, s, sizeof s);
        TkDiag *g = tk_error(c->diags, call->span, "where with a mask picks tile elements, which are floats, not %s", s);
        tk_diag_expected(g, "f32, f16 or bf16 values");
        tk_diag_found(g, "%s", s);
        tk_diag_hint(g, "write float values, e.g. where(m, 1.0, 0.0)");
        return NULL;
    }
    return t;
}

/* where(cond, a, b): cond a mask (the result has its shape) or a bool
 * scalar; a and b are numbers paired like an element-wise operation. */
TkType *tk_check_where(TkChecker *c, TkNode *call)
{
    TkNode *m = call->list, *a = m->next, *b = a->next;
    if (m->type->kind == TK_TY_ERROR || a->type->kind == TK_TY_ERROR || b->type->kind == TK_TY_ERROR) return err();
    const TkType *mt = m->type;
    if (!tk_is_mask(mt) && mt->kind != TK_TY_BOOL) {
        char s[160];
        tk_type_str(mt, s, sizeof s);
        TkDiag *g = tk_error(c->diags, m->span, "the condition of where must be a mask or a bool");
        tk_diag_expected(g, "rt<bool, ...>, rv<bool, ...> or bool");
        tk_diag_found(g, "%s", s);
        if (tk_is_register(mt->kind)) tk_diag_hint(g, "compare the tile to get a mask, e.g. where(x > 0.0, x, 0.0)");
        return err();
    }
    if (tk_mask_refused(c, a, "where") || tk_mask_refused(c, b, "where")) return err();
    bool tiles = !tk_is_scalar(a->type->kind) || !tk_is_scalar(b->type->kind);
    if (!tk_is_mask(mt)) {   /* a bool scalar condition: like max(a, b), but choosing */
        if (!tiles && tk_is_untyped(a->type->kind) && tk_is_untyped(b->type->kind)) {
            TkTypeKind k = a->type->kind == TK_TY_UFLOAT || b->type->kind == TK_TY_UFLOAT ? TK_TY_F32 : TK_TY_I32;
            tk_coerce(c, a, tk_type_scalar(k), "argument 2 of where");
            tk_coerce(c, b, tk_type_scalar(k), "argument 3 of where");
            return tk_type_scalar(k);
        }
        if (!tiles && (a->type->kind == TK_TY_BOOL || b->type->kind == TK_TY_BOOL)) {
            if (a->type->kind == b->type->kind) return &tk_type_bool;
            TkDiag *g = tk_error(c->diags, call->span, "where picks between two bools or two numbers");
            tk_diag_found(g, "a bool and a number");
            return err();
        }
        return tk_check_elementwise(c, call, "where", a, b);
    }
    if (!tiles) {
        TkType *elem = scalar_values_elem(c, call, a, b);
        if (!elem) return err();
        return tk_type_with_elem(c->arena, mt, elem->kind);
    }
    TkType *t = tk_check_elementwise(c, call, "where", a, b);
    if (t->kind == TK_TY_ERROR) return err();
    if (t->kind != mt->kind || t->dims[0] != mt->dims[0] || (t->rank == 2 && (t->dims[1] != mt->dims[1] || t->layout != mt->layout))) {
        char ms[160], vs[160];
        tk_type_str(mt, ms, sizeof ms);
        tk_type_str(t, vs, sizeof vs);
        TkDiag *g = tk_error(c->diags, call->span, "the mask and the values of where have different shapes or layouts");
        tk_diag_expected(g, "values of the mask's shape (%s)", ms);
        tk_diag_found(g, "%s", vs);
        return err();
    }
    return t;
}
