/* check_expr.c — expression typing: names, literals and constant folding,
 * operators with the implicit-conversion rules (widening only), element
 * access, helper calls (with symbolic-size unification), and coercion. */
#include "checker.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void tk_type_str(const TkType *t, char *buf, size_t n)
{
    tk_type_format(t, buf, n);
}

TkConstVal tk_const_value(const TkNode *e)
{
    TkConstVal v = { 0 };
    if (!e || !e->is_const) return v;
    v.known = true;
    v.is_float = e->type && tk_is_float(e->type->kind);
    v.i = e->ival;
    v.f = v.is_float ? e->fval : (double)e->ival;
    return v;
}

bool tk_const_int(TkChecker *c, TkNode *e, const char *what, int64_t *out)
{
    if (e->type && e->type->kind == TK_TY_ERROR) return false;
    if (!e->is_const || !e->type || !tk_is_int(e->type->kind)) {
        TkDiag *g = tk_error(c->diags, e->span, "%s must be an integer constant", what);
        tk_diag_found(g, "%s", e->is_const ? "a constant that is not an integer" : "a value known only at run time");
        tk_diag_hint(g, "use literals and `const` names");
        return false;
    }
    *out = e->ival;
    return true;
}

static TkType *set(TkNode *e, TkType *t)
{
    e->type = t;
    return t;
}

static TkType *fold_int(TkNode *e, TkType *t, int64_t v)
{
    e->is_const = true;
    e->ival = v;
    e->fval = (double)v;
    return set(e, t);
}

static TkType *fold_float(TkNode *e, TkType *t, double v)
{
    e->is_const = true;
    e->fval = v;
    return set(e, t);
}

/* ---------------------------------------------------------------- coercion */

static bool fits_int(TkTypeKind k, int64_t v)
{
    if (k == TK_TY_I32) return v >= INT32_MIN && v <= INT32_MAX;
    return k == TK_TY_I64 || k == TK_TY_UINT;
}

/* The largest finite value of float type k, and how it is written in
 * messages. */
static double float_max(TkTypeKind k, const char **spelling)
{
    switch (k) {
    case TK_TY_F16: *spelling = "65504"; return 65504.0;
    case TK_TY_BF16: *spelling = "3.3895e38"; return 3.3895313892515355e38;
    case TK_TY_F32: *spelling = "3.4028e38"; return 3.4028234663852886e38;
    default: *spelling = "1.7977e308"; return INFINITY;
    }
}

/* Is the integer v, within range of float type k, exactly representable? */
static bool int_exact_in_float(TkTypeKind k, int64_t v)
{
    int mant = k == TK_TY_F32 ? 24 : k == TK_TY_F16 ? 11 : k == TK_TY_BF16 ? 8 : 53;
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    while (m && !(m & 1)) m >>= 1;   /* drop trailing zero bits: they live in the exponent */
    return m < ((uint64_t)1 << mant);
}

/* A constant beyond the largest finite value of k (integer or float alike):
 * reported with the limit, so that the fix is clear. */
static void report_too_large(TkChecker *c, TkNode *e, const char *what, const char *value, const char *ts, TkTypeKind k)
{
    const char *max;
    float_max(k, &max);
    TkDiag *g = tk_error(c->diags, e->span, "%s %s is too large for %s", what, value, ts);
    tk_diag_expected(g, "a value of magnitude at most %s (the largest finite %s)", max, ts);
    tk_diag_found(g, "%s", value);
    tk_diag_hint(g, "use a wider type, or `inf`");
}

static bool widens(TkTypeKind from, TkTypeKind to)
{
    return (from == TK_TY_I32 && to == TK_TY_I64) || ((from == TK_TY_F16 || from == TK_TY_BF16) && to == TK_TY_F32);
}

/* A row/column reduction of the wrong length: say which one gives what. */
static void reduce_hint(TkDiag *g, const TkNode *e, const TkType *to)
{
    if (e->kind != TK_N_CALL || to->kind != TK_TY_RV || !e->list || !e->list->type) return;
    const TkBuiltin *b = tk_builtin_find(e->name);
    const TkType *t = e->list->type;
    if (!b || tk_builtin_family(b) != F_REDUCE || t->kind != TK_TY_RT || t->elem != to->elem) return;
    bool rows = tk_builtin_variant(b) == 0;
    int64_t other = t->dims[rows ? 1 : 0];
    if (other != to->dims[0]) return;
    const char *op = e->name + 4;   /* "sum" of "row_sum" */
    tk_diag_hint(g, "%s gives one value per %s (%lld); %s_%s gives one per %s (%lld)", e->name, rows ? "row" : "column",
                 (long long)t->dims[rows ? 0 : 1], rows ? "col" : "row", op, rows ? "column" : "row", (long long)other);
}

bool tk_coerce(TkChecker *c, TkNode *e, const TkType *to, const char *what)
{
    TkType *from = e->type;
    if (!from || from->kind == TK_TY_ERROR || to->kind == TK_TY_ERROR) return true;
    if (tk_type_equal(from, to)) return true;
    char fs[160], ts[160];
    tk_type_str(from, fs, sizeof fs);
    tk_type_str(to, ts, sizeof ts);
    if (from->kind == TK_TY_UINT && tk_is_int(to->kind)) {
        if (fits_int(to->kind, e->ival)) {
            e->type = (TkType *)to;
            return true;
        }
        TkDiag *g = tk_error(c->diags, e->span, "%s %lld does not fit in %s", what, (long long)e->ival, ts);
        tk_diag_expected(g, "a value of type %s", ts);
        tk_diag_found(g, "%lld", (long long)e->ival);
        return false;
    }
    if (from->kind == TK_TY_UINT && tk_is_float(to->kind)) {
        const char *max;
        char value[32];
        snprintf(value, sizeof value, "%lld", (long long)e->ival);
        /* range first: 65520 is not "inexact" in f16 but beyond it */
        if (fabs((double)e->ival) > float_max(to->kind, &max)) {
            report_too_large(c, e, what, value, ts, to->kind);
            return false;
        }
        if (int_exact_in_float(to->kind, e->ival)) {
            e->type = (TkType *)to;
            e->fval = (double)e->ival;
            return true;
        }
        TkDiag *g = tk_error(c->diags, e->span, "%s %s is not exactly representable in %s", what, value, ts);
        tk_diag_hint(g, "write it as a float literal to accept rounding, e.g. %s.0", value);
        return false;
    }
    if (from->kind == TK_TY_UFLOAT && tk_is_float(to->kind)) {
        const char *max;
        if (isnan(e->fval) || isinf(e->fval) || fabs(e->fval) <= float_max(to->kind, &max)) {
            e->type = (TkType *)to;
            return true;
        }
        char value[32];
        snprintf(value, sizeof value, "%g", e->fval);
        report_too_large(c, e, what, value, ts, to->kind);
        return false;
    }
    if (from->kind == TK_TY_VOID) {
        /* a call of a helper (or built-in) without a result, used as a value */
        bool helper = e->kind == TK_N_CALL && !tk_builtin_find(e->name);
        TkDiag *g = e->kind == TK_N_CALL
            ? (helper ? tk_error(c->diags, e->span, "helper '%s' has no result", e->name)
                      : tk_error(c->diags, e->span, "%s(...) has no result", e->name))
            : tk_error(c->diags, e->span, "this expression has no value");
        tk_diag_expected(g, "a value of type %s", ts);
        if (helper) tk_diag_hint(g, "declare the result type, `fn %s(...) -> %s`, and return a value with `return ...;`", e->name, ts);
        return false;
    }
    if (tk_is_scalar(from->kind) && tk_is_scalar(to->kind) && widens(from->kind, to->kind)) return true;

    TkDiag *g = tk_error(c->diags, e->span, "%s has type %s, but %s is needed", what, fs, ts);
    tk_diag_expected(g, "%s", ts);
    tk_diag_found(g, "%s", fs);
    if (from->kind == TK_TY_UFLOAT && tk_is_int(to->kind))
        tk_diag_hint(g, "a float constant cannot become an integer; use an integer literal or convert<%s>(...)", ts);
    else if (to->kind == TK_TY_BOOL && tk_is_mask(from))
        tk_diag_hint(g, "comparing tiles gives a mask, one bool per element; choose per element with where(mask, a, b)");
    else if (to->kind == TK_TY_BOOL && tk_is_scalar(from->kind))   /* convert<bool> does not exist */
        tk_diag_hint(g, "use true or false, or a comparison such as `x != 0`");
    else if (from->kind == TK_TY_BOOL && tk_is_scalar(to->kind))
        tk_diag_hint(g, "bool does not convert to numbers; assign the number under an if (...) instead");
    else if (tk_is_scalar(from->kind) && tk_is_scalar(to->kind))
        tk_diag_hint(g, "narrowing and int/float changes are explicit: convert<%s>(...)", ts);
    else if (from->kind == to->kind && from->kind == TK_TY_RT && from->elem == to->elem &&
             from->dims[0] == to->dims[0] && from->dims[1] == to->dims[1])
        tk_diag_hint(g, "the layouts differ; load the tile with the layout you need, or convert<%s>(...)", ts);
    else if (from->kind == to->kind && tk_is_register(from->kind) && from->elem != to->elem &&
             from->dims[0] == to->dims[0] && from->dims[1] == to->dims[1])
        tk_diag_hint(g, "element types differ; use convert<%s>(...)", tk_type_kind_name(to->elem));
    else if (tk_is_scalar(from->kind) && tk_is_vec(to->kind) && e->kind == TK_N_CALL && e->list && e->list->type &&
             e->list->type->kind == TK_TY_RV && tk_builtin_find(e->name) &&
             tk_builtin_family(tk_builtin_find(e->name)) == F_REDUCE)
        tk_diag_hint(g, "%s of a vector is one value (a vector is one row); fill(%s(v)) sets every element to it", e->name, e->name);
    else if (tk_is_scalar(from->kind) && (tk_is_tile(to->kind) || tk_is_vec(to->kind)))
        tk_diag_hint(g, "to set every element, use fill(value)");
    else
        reduce_hint(g, e, to);
    return false;
}

/* ---------------------------------------------------------------- names */

/* A local const named `name`, declared after `use` in a block that encloses
 * the use (so that it is in scope there, only too late), or NULL. */
static const TkNode *later_local_const(const TkNode *block, const char *name, uint32_t use)
{
    if (!block || block->kind != TK_N_BLOCK || use < block->span.begin || use >= block->span.end) return NULL;
    for (const TkNode *s = block->list; s; s = s->next) {
        if (s->kind == TK_N_CONST && s->span.begin > use && strcmp(s->name, name) == 0) return s;
        const TkNode *found = NULL;
        if (s->kind == TK_N_BLOCK) found = later_local_const(s, name, use);
        else if (s->kind == TK_N_FOR) found = later_local_const(s->c, name, use);
        else if (s->kind == TK_N_IF)   /* else-if chains nest as IF nodes in c */
            for (const TkNode *i = s; i && !found; i = i->c) {
                if (i->kind != TK_N_IF) {
                    found = later_local_const(i, name, use);
                    break;
                }
                found = later_local_const(i->b, name, use);
            }
        if (found) return found;
    }
    return NULL;
}

static TkType *check_name(TkChecker *c, TkNode *e)
{
    TkSymbol *s = tk_scope_lookup(c, e->name);
    if (!s) {
        if (tk_is_builtin_name(e->name)) {
            TkDiag *g = tk_error(c->diags, e->span, "built-in '%s' is a function, not a value", e->name);
            tk_diag_hint(g, "call it: %s(...)", e->name);
            return set(e, &tk_type_error);
        }
        const TkNode *later = NULL;
        for (const TkNode *it = c->items; it && !later; it = it->next)
            if (it->kind == TK_N_CONST && strcmp(it->name, e->name) == 0) later = it;
        if (!later && c->fn) later = later_local_const(c->fn->b, e->name, e->span.begin);
        if (later) {
            uint32_t line, col;
            tk_source_position(c->diags->src, later->name_span.begin, &line, &col);
            TkDiag *g = tk_error(c->diags, e->span, "constant '%s' is used before its declaration", e->name);
            tk_diag_hint(g, "it is declared at line %u; move the const above its first use", line);
        } else {
            tk_error(c->diags, e->span, "unknown name '%s'", e->name);
        }
        /* Declare a placeholder for the rest of the function so later uses stay
         * quiet; a real declaration later simply replaces it. */
        TkSymbol *err = tk_arena_alloc(c->arena, sizeof *err);
        TkScope *home = c->size_scope ? c->size_scope : c->scope;
        if (err && home) {
            err->kind = TK_SYM_LET;
            err->name = e->name;
            err->span = e->span;
            err->type = &tk_type_error;
            err->placeholder = true;
            err->next = home->syms;
            home->syms = err;
        }
        return set(e, &tk_type_error);
    }
    e->sym = s;
    switch (s->kind) {
    case TK_SYM_FN:
    case TK_SYM_KERNEL: {
        TkDiag *g = tk_error(c->diags, e->span, "'%s' is a %s, not a value", e->name, s->kind == TK_SYM_FN ? "helper" : "kernel");
        tk_diag_hint(g, "%s", s->kind == TK_SYM_FN ? "call it with (...)" : "kernels are launched from the host, not called");
        return set(e, &tk_type_error);
    }
    case TK_SYM_CONST:
        if (s->span.begin > e->span.begin) {
            TkDiag *g = tk_error(c->diags, e->span, "constant '%s' is used before its declaration", e->name);
            tk_diag_hint(g, "move the const above its first use");
            return set(e, &tk_type_error);
        }
        if (s->has_value && s->value) {
            e->is_const = true;
            e->ival = s->value->ival;
            e->fval = s->value->fval;
        }
        return set(e, s->type);
    default:
        return set(e, s->type);
    }
}

static TkType *check_builtin_var(TkChecker *c, TkNode *e)
{
    bool is_block = strcmp(e->name, "block") == 0;
    const char *f = e->field;
    if (is_block ? (strcmp(f, "x") && strcmp(f, "y") && strcmp(f, "z")) : strcmp(f, "id") != 0) {
        TkDiag *g = tk_error(c->diags, e->name_span, "'%s' has no field '%s'", e->name, f);
        tk_diag_expected(g, "%s", is_block ? "block.x, block.y or block.z" : "warp.id");
        return set(e, &tk_type_error);
    }
    return set(e, &tk_type_i32);
}

/* ---------------------------------------------------------------- operators */

static bool is_arith(TkOp op) { return op >= TK_OP_ADD && op <= TK_OP_MOD; }
static bool is_compare(TkOp op) { return op >= TK_OP_LT && op <= TK_OP_NE; }

/* Common type of two scalar operands, or NULL after reporting. */
TkType *tk_common_scalar(TkChecker *c, TkNode *e, TkNode *a, TkNode *b)
{
    TkType *x = a->type, *y = b->type;
    if (x->kind == y->kind) return x;
    if (tk_is_untyped(x->kind) && tk_is_untyped(y->kind)) return &tk_type_ufloat;
    if (tk_is_untyped(x->kind) && x->kind != TK_TY_UFLOAT && tk_is_scalar(y->kind)) return tk_coerce(c, a, y, "operand") ? y : NULL;
    if (tk_is_untyped(y->kind) && y->kind != TK_TY_UFLOAT && tk_is_scalar(x->kind)) return tk_coerce(c, b, x, "operand") ? x : NULL;
    if (x->kind == TK_TY_UFLOAT && tk_is_float(y->kind)) return tk_coerce(c, a, y, "operand") ? y : NULL;
    if (y->kind == TK_TY_UFLOAT && tk_is_float(x->kind)) return tk_coerce(c, b, x, "operand") ? x : NULL;
    if (widens(x->kind, y->kind)) return y;
    if (widens(y->kind, x->kind)) return x;
    char xs[64], ys[64];
    tk_type_str(x, xs, sizeof xs);
    tk_type_str(y, ys, sizeof ys);
    /* e is an operator, or a call of max/min/cdiv... (whose op is NONE) */
    TkDiag *g = e->kind == TK_N_CALL
        ? tk_error(c->diags, e->span, "operands of %s have different types: %s and %s", e->name, xs, ys)
        : tk_error(c->diags, e->span, "operands of '%s' have different types: %s and %s", tk_op_spelling(e->op), xs, ys);
    tk_diag_expected(g, "two operands of one type (i32 widens to i64, f16 and bf16 widen to f32)");
    tk_diag_found(g, "%s and %s", xs, ys);
    tk_diag_hint(g, "convert one side explicitly with convert<T>(...)");
    return NULL;
}

static TkType *fold_binary(TkChecker *c, TkNode *e, TkType *t)
{
    TkNode *a = e->a, *b = e->b;
    if (!a->is_const || !b->is_const) return set(e, t);
    bool fl = tk_is_float(a->type->kind) || tk_is_float(b->type->kind);
    if (t->kind == TK_TY_BOOL && (e->op == TK_OP_AND || e->op == TK_OP_OR)) {
        int64_t v = e->op == TK_OP_AND ? (a->ival && b->ival) : (a->ival || b->ival);
        return fold_int(e, t, v);
    }
    if (is_compare(e->op)) {
        double x = fl ? (tk_is_float(a->type->kind) ? a->fval : (double)a->ival) : 0;
        double y = fl ? (tk_is_float(b->type->kind) ? b->fval : (double)b->ival) : 0;
        int64_t i = a->ival, j = b->ival;
        int64_t v = 0;
        switch (e->op) {
        case TK_OP_LT: v = fl ? x < y : i < j; break;
        case TK_OP_LE: v = fl ? x <= y : i <= j; break;
        case TK_OP_GT: v = fl ? x > y : i > j; break;
        case TK_OP_GE: v = fl ? x >= y : i >= j; break;
        case TK_OP_EQ: v = fl ? x == y : i == j; break;
        case TK_OP_NE: v = fl ? x != y : i != j; break;
        default: break;
        }
        return fold_int(e, t, v);
    }
    if (fl) {
        double x = tk_is_float(a->type->kind) ? a->fval : (double)a->ival;
        double y = tk_is_float(b->type->kind) ? b->fval : (double)b->ival;
        double v = 0;
        switch (e->op) {
        case TK_OP_ADD: v = x + y; break;
        case TK_OP_SUB: v = x - y; break;
        case TK_OP_MUL: v = x * y; break;
        case TK_OP_DIV: v = x / y; break;
        default: return set(e, t);
        }
        return fold_float(e, t, v);
    }
    int64_t x = a->ival, y = b->ival, v = 0;
    bool overflow = false;
    switch (e->op) {
    case TK_OP_ADD: overflow = __builtin_add_overflow(x, y, &v); break;
    case TK_OP_SUB: overflow = __builtin_sub_overflow(x, y, &v); break;
    case TK_OP_MUL: overflow = __builtin_mul_overflow(x, y, &v); break;
    case TK_OP_DIV:
    case TK_OP_MOD:
        if (y == 0) return set(e, &tk_type_error);   /* reported by check_binary */
        if (x == INT64_MIN && y == -1) overflow = true;
        else v = e->op == TK_OP_DIV ? x / y : x % y;
        break;
    default: return set(e, t);
    }
    if (overflow || !fits_int(t->kind, v)) {
        TkDiag *g = tk_error(c->diags, e->span, "constant arithmetic overflows %s", t->kind == TK_TY_UINT ? "i64" : tk_type_kind_name(t->kind));
        (void)g;
        return set(e, &tk_type_error);
    }
    return fold_int(e, t, v);
}


static TkType *check_binary(TkChecker *c, TkNode *e)
{
    TkType *x = tk_check_expr(c, e->a, NULL);
    TkType *y = tk_check_expr(c, e->b, NULL);
    if (x->kind == TK_TY_ERROR || y->kind == TK_TY_ERROR) return set(e, &tk_type_error);
    bool tiles = !tk_is_scalar(x->kind) || !tk_is_scalar(y->kind);
    if (tiles) {
        if (e->op == TK_OP_ADD || e->op == TK_OP_SUB || e->op == TK_OP_MUL || e->op == TK_OP_DIV) {
            static const char *const names[] = { [TK_OP_ADD] = "add", [TK_OP_SUB] = "sub", [TK_OP_MUL] = "mul", [TK_OP_DIV] = "div" };
            return set(e, tk_check_elementwise(c, e, names[e->op], e->a, e->b));
        }
        TkType *m = tk_check_mask_binary(c, e);
        if (m) return set(e, m);
        char xs[128], ys[128];
        tk_type_str(x, xs, sizeof xs);
        tk_type_str(y, ys, sizeof ys);
        TkDiag *g = tk_error(c->diags, e->span, "'%s' is not defined on tiles or vectors", tk_op_spelling(e->op));
        tk_diag_found(g, "%s and %s", xs, ys);
        tk_diag_hint(g, "tiles support + - * /, comparisons, && || ! on masks and the element-wise built-ins (max, min, ...)");
        return set(e, &tk_type_error);
    }
    if (e->op == TK_OP_AND || e->op == TK_OP_OR) {
        TkNode *ops[2] = { e->a, e->b };
        for (int i = 0; i < 2; i++) {
            if (ops[i]->type->kind != TK_TY_BOOL) {
                char ts[64];
                tk_type_str(ops[i]->type, ts, sizeof ts);
                TkDiag *g = tk_error(c->diags, ops[i]->span, "operand of '%s' must be bool", tk_op_spelling(e->op));
                tk_diag_expected(g, "bool");
                tk_diag_found(g, "%s", ts);
                return set(e, &tk_type_error);
            }
        }
        return fold_binary(c, e, &tk_type_bool);
    }
    if (x->kind == TK_TY_BOOL || y->kind == TK_TY_BOOL) {
        if ((e->op == TK_OP_EQ || e->op == TK_OP_NE) && x->kind == y->kind) return fold_binary(c, e, &tk_type_bool);
        TkDiag *g = tk_error(c->diags, e->span, "'%s' is not defined on bool", tk_op_spelling(e->op));
        tk_diag_hint(g, "use && || ! for logic");
        return set(e, &tk_type_error);
    }
    TkType *t = tk_common_scalar(c, e, e->a, e->b);
    if (!t) return set(e, &tk_type_error);
    if (e->op == TK_OP_MOD && !tk_is_int(t->kind)) {
        TkDiag *g = tk_error(c->diags, e->span, "'%%' needs integer operands");
        tk_diag_found(g, "%s", tk_type_kind_name(t->kind));
        return set(e, &tk_type_error);
    }
    if (is_compare(e->op)) return fold_binary(c, e, &tk_type_bool);
    /* An integer divisor that is the constant 0 is an error whether or not
     * the dividend is known (`N / 0`); float division by zero gives inf. */
    if ((e->op == TK_OP_DIV || e->op == TK_OP_MOD) && tk_is_int(t->kind) && e->b->is_const && e->b->ival == 0) {
        tk_error(c->diags, e->b->span, "%s by zero", e->op == TK_OP_DIV ? "division" : "remainder");
        return set(e, &tk_type_error);
    }
    if (is_arith(e->op)) return fold_binary(c, e, t);
    return set(e, &tk_type_error);
}


static TkType *check_unary(TkChecker *c, TkNode *e)
{
    TkType *t = tk_check_expr(c, e->a, NULL);
    if (t->kind == TK_TY_ERROR) return set(e, &tk_type_error);
    if (e->op == TK_OP_NOT) {
        if (!tk_is_scalar(t->kind)) return set(e, tk_check_mask_not(c, e));
        if (t->kind != TK_TY_BOOL) {
            char ts[128];
            tk_type_str(t, ts, sizeof ts);
            TkDiag *g = tk_error(c->diags, e->span, "'!' needs a bool operand");
            tk_diag_expected(g, "bool");
            tk_diag_found(g, "%s", ts);
            return set(e, &tk_type_error);
        }
        if (e->a->is_const) return fold_int(e, t, !e->a->ival);
        return set(e, t);
    }
    if (!tk_is_scalar(t->kind)) return set(e, tk_check_unary_map(c, e, "neg", e->a));
    if (t->kind == TK_TY_BOOL) {
        TkDiag *g = tk_error(c->diags, e->span, "'-' is not defined on bool");
        tk_diag_hint(g, "use ! for logical not");
        return set(e, &tk_type_error);
    }
    if (e->a->is_const) {
        if (tk_is_float(t->kind)) return fold_float(e, t, -e->a->fval);
        if (e->a->ival == INT64_MIN) return set(e, t);
        return fold_int(e, t, -e->a->ival);
    }
    return set(e, t);
}

/* ---------------------------------------------------------------- element access */

/* Does an index expression read warp.id (directly or through `let`s)? The
 * depth bound keeps long chains of lets from recursing deeply. */
static bool uses_warp_id(const TkNode *e, int depth)
{
    if (!e || depth > 64) return false;
    switch (e->kind) {
    case TK_N_BUILTIN_VAR: return strcmp(e->name, "warp") == 0;
    case TK_N_UNARY: return uses_warp_id(e->a, depth + 1);
    case TK_N_BINARY: return uses_warp_id(e->a, depth + 1) || uses_warp_id(e->b, depth + 1);
    case TK_N_NAME: {
        const TkSymbol *s = e->sym;
        return s && s->kind == TK_SYM_LET && s->decl && s->decl->kind == TK_N_LET && uses_warp_id(s->decl->b, depth + 1);
    }
    default: return false;
    }
}

bool tk_uses_warp_id(const TkNode *e)
{
    return uses_warp_id(e, 0);
}

void tk_bounds_hint(TkChecker *c, TkDiag *g, const TkNode *index, const char *what)
{
    if (!c->in_kernel && tk_uses_warp_id(index))
        tk_diag_hint(g, "inside a helper warp.id is only known to be in [0, %d], since the warp count belongs to the calling "
                        "kernel: index with warp.id in the kernel, or use constants, `let`s of them, or loop variables with "
                        "constant bounds", TK_MAX_WARPS - 1);
    else
        tk_diag_hint(g, "%s%suse constants, `let`s of them, warp.id, or loop variables with constant bounds", what ? what : "",
                     what ? ": " : "");
}

/* Is integer index i (checked) provably in [0, dim)? Reports it if not;
 * `which` is "the", "row" or "column", ts the indexed type as text. */
bool tk_check_index_bounds(TkChecker *c, TkNode *i, int64_t dim, const char *which, const char *ts)
{
    int64_t lo, hi;
    bool known = tk_interval(c, i, &lo, &hi);
    if (!known && c->in_kernel && !c->warps_known && tk_uses_warp_id(i))
        return false;   /* the bad warps(...) is reported; warp.id's range follows from it */
    if (known && lo >= 0 && hi < dim) return true;
    TkDiag *g = tk_error(c->diags, i->span, "%s index may be out of bounds for %s", which, ts);
    tk_diag_expected(g, "an index in [0, %lld]", (long long)(dim - 1));
    if (known) tk_diag_found(g, "an index in [%lld, %lld]", (long long)lo, (long long)hi);
    else tk_diag_found(g, "an index whose range is not known at compile time");
    tk_bounds_hint(c, g, i, "element access must be provably in bounds");
    return false;
}

static TkType *check_index(TkChecker *c, TkNode *e)
{
    for (TkNode *i = e->list; i; i = i->next)
        if (i->kind == TK_N_RANGE) return set(e, tk_check_slice(c, e));
    TkType *t = tk_check_expr(c, e->a, NULL);
    unsigned n = tk_list_length(e->list);
    for (TkNode *i = e->list; i; i = i->next) tk_check_expr(c, i, NULL);
    if (t->kind == TK_TY_ERROR) return set(e, &tk_type_error);
    char ts[160];
    tk_type_str(t, ts, sizeof ts);
    if (t->kind == TK_TY_GL) {
        TkDiag *g = tk_error(c->diags, e->span, "a global tensor cannot be indexed");
        tk_diag_hint(g, "load a tile or vector from it, then index that");
        return set(e, &tk_type_error);
    }
    if (!tk_is_tile(t->kind) && !tk_is_vec(t->kind)) {
        TkDiag *g = tk_error(c->diags, e->a->span, "only tiles and vectors can be indexed");
        tk_diag_found(g, "%s", ts);
        return set(e, &tk_type_error);
    }
    unsigned want = t->rank;
    if (n != want) {
        TkDiag *g = tk_error(c->diags, e->span, "%s takes %u %s, not %u", ts, want, want == 1 ? "index" : "indices", n);
        tk_diag_expected(g, "%s", want == 1 ? "v[i]" : "t[row, col]");
        return set(e, &tk_type_error);
    }
    unsigned k = 0;
    bool ok = true;
    for (TkNode *i = e->list; i; i = i->next, k++) {
        if (i->type->kind == TK_TY_ERROR) {
            ok = false;
            continue;
        }
        if (!tk_is_int(i->type->kind)) {
            char is[64];
            tk_type_str(i->type, is, sizeof is);
            TkDiag *g = tk_error(c->diags, i->span, "an index must be an integer");
            tk_diag_expected(g, "i32 or i64");
            tk_diag_found(g, "%s", is);
            ok = false;
            continue;
        }
        if (!tk_check_index_bounds(c, i, t->dims[k], want == 1 ? "the" : k == 0 ? "row" : "column", ts)) ok = false;
    }
    if (!ok) return set(e, &tk_type_error);
    return set(e, tk_type_scalar(t->elem));
}

/* ---------------------------------------------------------------- calls */

/* gl parameter of a helper against an argument: bind the helper's sizes from
 * the argument's dims, then require every dim to agree. */
static bool unify_gl(TkChecker *c, TkNode *arg, const TkType *param, const TkType *at, TkPoly *bound_vals, bool *bound,
                     size_t nvars, const char *fname, unsigned index)
{
    char ps[160], as[160];
    tk_type_str(param, ps, sizeof ps);
    tk_type_str(at, as, sizeof as);
    if (at->kind != TK_TY_GL || at->elem != param->elem || at->rank != param->rank || at->layout != param->layout) {
        TkDiag *g = tk_error(c->diags, arg->span, "argument %u of '%s' has type %s, but %s is needed", index, fname, as, ps);
        tk_diag_expected(g, "%s", ps);
        tk_diag_found(g, "%s", as);
        return false;
    }
    for (unsigned i = 0; i < param->rank; i++) {
        TkSizeVar v;
        if (tk_poly_is_var(&param->gdims[i], &v) && v < nvars && !bound[v]) {
            bound_vals[v] = at->gdims[i];
            bound[v] = true;
        }
    }
    for (unsigned i = 0; i < param->rank; i++) {
        TkPoly sub;
        bool all_bound = true;
        for (TkSizeVar v = 0; v < nvars; v++)
            if (tk_poly_uses_var(&param->gdims[i], v) && !bound[v]) all_bound = false;
        if (!all_bound || !tk_poly_subst(&sub, &param->gdims[i], bound_vals, bound, nvars)) continue;
        if (!tk_poly_eq(&sub, &at->gdims[i])) {
            char want[160], got[160];
            TkType tmp = *at;
            tmp.gdims[0] = sub;
            tmp.rank = 1;
            char buf[160];
            tk_type_str(&tmp, buf, sizeof buf);
            /* print just the dimension: strip "gl<T, " and ">" */
            const char *p = strchr(buf, ',');
            snprintf(want, sizeof want, "%s", p ? p + 2 : buf);
            size_t wl = strlen(want);
            if (wl && want[wl - 1] == '>') want[wl - 1] = '\0';
            tmp.gdims[0] = at->gdims[i];
            tk_type_str(&tmp, buf, sizeof buf);
            p = strchr(buf, ',');
            snprintf(got, sizeof got, "%s", p ? p + 2 : buf);
            wl = strlen(got);
            if (wl && got[wl - 1] == '>') got[wl - 1] = '\0';
            TkDiag *g = tk_error(c->diags, arg->span, "dimension %u of argument %u of '%s' does not match", i, index, fname);
            tk_diag_expected(g, "%s (from %s)", want, ps);
            tk_diag_found(g, "%s (in %s)", got, as);
            return false;
        }
    }
    return true;
}

TkType *tk_check_helper_call(TkChecker *c, TkNode *e, TkSymbol *fs, bool args_checked)
{
    TkNode *fn = fs->decl;
    if (fs->fn_checking) {
        TkDiag *g = tk_error(c->diags, e->name_span, "helper '%s' calls itself (directly or through other helpers)", e->name);
        tk_diag_hint(g, "helpers are inlined, so recursion is not allowed; use a loop");
        for (TkNode *a = e->list; a && !args_checked; a = a->next) tk_check_expr(c, a, &tk_type_error);
        return set(e, &tk_type_error);
    }
    tk_check_helper(c, fs);
    e->sym = fs;
    if (fn->broken) {   /* its syntax error is already reported */
        for (TkNode *a = e->list; a && !args_checked; a = a->next) tk_check_expr(c, a, &tk_type_error);
        return set(e, &tk_type_error);
    }
    unsigned want = tk_list_length(fn->list), got = tk_list_length(e->list);
    if (want != got) {
        TkDiag *g = tk_error(c->diags, e->span, "'%s' takes %u argument%s, not %u", e->name, want, want == 1 ? "" : "s", got);
        (void)g;
        for (TkNode *a = e->list; a && !args_checked; a = a->next) tk_check_expr(c, a, &tk_type_error);
        return set(e, fn->type ? fn->type : &tk_type_error);
    }
    TkPoly vals[64];
    bool bound[64] = { false };
    unsigned i = 1;
    for (TkNode *a = e->list, *p = fn->list; a; a = a->next, p = p->next, i++) {
        const TkType *pt = p->type ? p->type : &tk_type_error;
        TkType *at = args_checked ? (a->type ? a->type : &tk_type_error) : tk_check_expr(c, a, pt);
        if (at->kind == TK_TY_ERROR || pt->kind == TK_TY_ERROR) continue;
        if (pt->kind == TK_TY_GL) {
            unify_gl(c, a, pt, at, vals, bound, 64, e->name, i);
            continue;
        }
        if (tk_is_shared(pt->kind) && !tk_is_lvalue(c, a, false)) {
            TkDiag *g = tk_error(c->diags, a->span, "argument %u of '%s' must name a shared %s", i, e->name,
                                 pt->kind == TK_TY_ST ? "tile" : "vector");
            tk_diag_hint(g, "shared memory is passed by reference");
            continue;
        }
        char what[64];
        snprintf(what, sizeof what, "argument %u of '%s'", i, e->name);
        tk_coerce(c, a, pt, what);
    }
    return set(e, fn->type ? fn->type : &tk_type_error);
}

static TkType *check_call(TkChecker *c, TkNode *e, const TkType *want)
{
    const TkBuiltin *b = tk_builtin_find(e->name);
    if (b) return set(e, tk_check_builtin_call(c, b, e, want));
    TkSymbol *s = tk_scope_lookup(c, e->name);
    if (!s) {
        TkDiag *g = tk_error(c->diags, e->name_span, "unknown function '%s'", e->name);
        tk_diag_hint(g, "helpers are declared with `fn %s(...)`; built-ins are listed in docs/LANGUAGE.md", e->name);
        for (TkNode *a = e->list; a; a = a->next) tk_check_expr(c, a, &tk_type_error);
        return set(e, &tk_type_error);
    }
    if (s->kind == TK_SYM_KERNEL) {
        TkDiag *g = tk_error(c->diags, e->name_span, "kernel '%s' cannot be called from device code", e->name);
        tk_diag_hint(g, "move the shared code into a helper `fn` and call that");
        for (TkNode *a = e->list; a; a = a->next) tk_check_expr(c, a, &tk_type_error);
        return set(e, &tk_type_error);
    }
    if (s->kind != TK_SYM_FN) {
        TkDiag *g = tk_error(c->diags, e->name_span, "'%s' is not a function", e->name);
        (void)g;
        for (TkNode *a = e->list; a; a = a->next) tk_check_expr(c, a, &tk_type_error);
        return set(e, &tk_type_error);
    }
    if (((TkNode *)s->decl)->generic) return tk_check_generic_call(c, e, s);
    if (e->explicit_targs) {
        TkDiag *g = tk_error(c->diags, e->name_span, "helper '%s' has no compile-time parameters", e->name);
        tk_diag_hint(g, "call it as %s(...)", e->name);
        for (TkNode *a = e->list; a; a = a->next) tk_check_expr(c, a, &tk_type_error);
        return set(e, &tk_type_error);
    }
    return tk_check_helper_call(c, e, s, false);
}

/* ---------------------------------------------------------------- lvalues */

TkSymbol *tk_root_symbol(TkNode *e)
{
    while (e && e->kind == TK_N_INDEX) e = e->a;
    return e && e->kind == TK_N_NAME ? e->sym : NULL;
}

bool tk_is_lvalue(TkChecker *c, TkNode *e, bool report)
{
    TkSymbol *s = tk_root_symbol(e);
    const char *why = NULL;
    if (!s) why = "this expression is not a variable";
    else if (s->kind == TK_SYM_LET) why = "it is a `let` binding, which is immutable";
    else if (s->kind == TK_SYM_LOOP) why = "it is a loop variable";
    else if (s->kind == TK_SYM_CONST) why = "it is a constant";
    else if (s->kind == TK_SYM_SIZE) why = "it is a size bound at launch";
    else if (s->type && s->type->kind == TK_TY_GL) why = "it is a global tensor; write to it with store(...)";
    else if (e->kind == TK_N_INDEX && e->a->kind == TK_N_INDEX)
        why = "a part of a sub-tile or row is not assignable; index the tile itself: t[r0 + i, c0 + j], t[a .. b, j]";
    else if (e->kind == TK_N_NAME && s->kind == TK_SYM_PARAM && s->type && tk_is_scalar(s->type->kind) && c->in_kernel)
        why = "kernel parameters are read-only";
    if (!why) return true;
    if (report) {
        TkDiag *g = s ? tk_error(c->diags, e->span, "cannot assign to '%s'", s->name)
                      : tk_error(c->diags, e->span, "cannot assign to this expression");
        char ts[128];
        if (s && s->kind == TK_SYM_LET && s->type && s->type->kind != TK_TY_ERROR) {
            tk_type_str(s->type, ts, sizeof ts);
            tk_diag_hint(g, "%s; declare it with its type to make it mutable, e.g. `%s %s = ...;`", why, ts, s->name);
        } else {
            tk_diag_hint(g, "%s", why);
        }
    }
    return false;
}

/* ---------------------------------------------------------------- entry */

TkType *tk_check_expr(TkChecker *c, TkNode *e, const TkType *want)
{
    switch (e->kind) {
    case TK_N_INT:   /* an unrolled loop's variable keeps the loop variable's type */
        return e->broken ? set(e, &tk_type_error) : fold_int(e, e->loop_value ? &tk_type_i32 : &tk_type_uint, e->ival);
    case TK_N_FLOAT: return e->broken ? set(e, &tk_type_error) : fold_float(e, &tk_type_ufloat, e->fval);
    case TK_N_BOOL: return fold_int(e, &tk_type_bool, e->ival);
    case TK_N_NAME: return check_name(c, e);
    case TK_N_BUILTIN_VAR: return check_builtin_var(c, e);
    case TK_N_UNARY: return check_unary(c, e);
    case TK_N_BINARY: return check_binary(c, e);
    case TK_N_CALL: return check_call(c, e, want);
    case TK_N_INDEX: return check_index(c, e);
    default: return set(e, &tk_type_error);
    }
}

/* ---------------------------------------------------------------- dims */

bool tk_dim_poly(TkChecker *c, TkNode *e, bool allow_new_sizes, TkPoly *out)
{
    switch (e->kind) {
    case TK_N_INT:
        if (e->broken) {   /* a malformed literal, already reported */
            e->type = &tk_type_error;
            return false;
        }
        tk_poly_const(out, e->ival);
        e->type = &tk_type_uint;
        return true;
    case TK_N_NAME: {
        TkSymbol *s = tk_scope_lookup(c, e->name);
        /* A placeholder stands for a name already reported unknown. Where a
         * parameter type may introduce sizes it yields to the new size (an
         * unknown name in a top-level const must not poison every kernel's
         * N); elsewhere it fails quietly. */
        if (s && s->placeholder) {
            if (!allow_new_sizes) {
                e->type = &tk_type_error;
                return false;
            }
            s = NULL;
        }
        if (!s && allow_new_sizes && !tk_is_builtin_name(e->name)) s = tk_new_size(c, e->name, e->span);
        if (!s) {
            TkDiag *g = tk_error(c->diags, e->span, "unknown size '%s'", e->name);
            tk_diag_hint(g, "sizes are introduced by the dims of kernel and helper tensor parameters; "
                            "elsewhere use constants or sizes already named there");
            return false;
        }
        e->sym = s;
        e->type = &tk_type_i32;
        if (s->kind == TK_SYM_SIZE) {
            tk_poly_var(out, s->size_index);
            return true;
        }
        if (s->kind == TK_SYM_CONST && s->has_value && s->type && tk_is_int(s->type->kind)) {
            tk_poly_const(out, s->value->ival);
            return true;
        }
        TkDiag *g = tk_error(c->diags, e->span, "'%s' cannot be used in a dimension", e->name);
        tk_diag_hint(g, "dimensions are built from integer constants and sizes");
        return false;
    }
    case TK_N_BINARY: {
        TkPoly a, b;
        bool ok_a = tk_dim_poly(c, e->a, allow_new_sizes, &a);   /* both sides report their errors */
        bool ok_b = tk_dim_poly(c, e->b, allow_new_sizes, &b);
        if (!ok_a || !ok_b) return false;
        bool ok = e->op == TK_OP_ADD ? tk_poly_add(out, &a, &b)
                : e->op == TK_OP_SUB ? tk_poly_sub(out, &a, &b)
                : tk_poly_mul(out, &a, &b);
        if (!ok) {
            TkDiag *g = tk_error(c->diags, e->span, "dimension expression is too complex");
            tk_diag_hint(g, "a dimension may have at most %d terms of at most %d size factors each", TK_POLY_MAX_TERMS, TK_MONO_MAX_VARS);
        }
        e->type = &tk_type_i32;
        return ok;
    }
    default:
        tk_error(c->diags, e->span, "not a dimension");
        return false;
    }
}
