/* interval.c — the integer range of an expression, when the checker can
 * prove one: constants, `let`s and loop variables with known ranges,
 * warp.id in [0, warps), and + - * / % of those. Used to prove element
 * access and sub-tile coordinates in bounds. */
#include "checker.h"

static bool mul_range(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi, int64_t *lo, int64_t *hi)
{
    int64_t p[4];
    if (__builtin_mul_overflow(alo, blo, &p[0]) || __builtin_mul_overflow(alo, bhi, &p[1]) ||
        __builtin_mul_overflow(ahi, blo, &p[2]) || __builtin_mul_overflow(ahi, bhi, &p[3]))
        return false;
    *lo = *hi = p[0];
    for (int i = 1; i < 4; i++) {
        if (p[i] < *lo) *lo = p[i];
        if (p[i] > *hi) *hi = p[i];
    }
    return true;
}

static bool interval(TkChecker *c, const TkNode *e, int64_t *lo, int64_t *hi);

/* An interval is only kept while it fits the expression's type: i32
 * arithmetic wraps at run time, so a range past INT32_MAX proves nothing. */
bool tk_interval(TkChecker *c, const TkNode *e, int64_t *lo, int64_t *hi)
{
    if (!interval(c, e, lo, hi)) return false;
    if (e->type && e->type->kind == TK_TY_I32 && (*lo < INT32_MIN || *hi > INT32_MAX)) return false;
    return true;
}

static bool interval(TkChecker *c, const TkNode *e, int64_t *lo, int64_t *hi)
{
    if (!e->type || !tk_is_int(e->type->kind)) return false;
    if (e->is_const) {
        *lo = *hi = e->ival;
        return true;
    }
    switch (e->kind) {
    case TK_N_NAME: {
        const TkSymbol *s = e->sym;
        if (!s || !s->has_range) return false;
        *lo = s->lo;
        *hi = s->hi;
        return true;
    }
    case TK_N_BUILTIN_VAR:
        if (e->field[0] == 'i' && (c->warps_known || !c->in_kernel)) {   /* warp.id; in a helper, any kernel's */
            *lo = 0;
            *hi = c->warps_known ? c->warps - 1 : TK_MAX_WARPS - 1;
            return true;
        }
        return false;
    case TK_N_UNARY: {
        int64_t a, b;
        if (e->op != TK_OP_NEG || !tk_interval(c, e->a, &a, &b) || a == INT64_MIN) return false;
        *lo = -b;
        *hi = -a;
        return true;
    }
    case TK_N_BINARY: {
        int64_t alo, ahi, blo, bhi;
        if (!tk_interval(c, e->a, &alo, &ahi) || !tk_interval(c, e->b, &blo, &bhi)) return false;
        switch (e->op) {
        case TK_OP_ADD:
            return !__builtin_add_overflow(alo, blo, lo) && !__builtin_add_overflow(ahi, bhi, hi);
        case TK_OP_SUB:
            return !__builtin_sub_overflow(alo, bhi, lo) && !__builtin_sub_overflow(ahi, blo, hi);
        case TK_OP_MUL:
            return mul_range(alo, ahi, blo, bhi, lo, hi);
        case TK_OP_DIV:
            /* only non-negative by a positive constant range: truncation is then floor */
            if (alo < 0 || blo <= 0) return false;
            *lo = alo / bhi;
            *hi = ahi / blo;
            return true;
        case TK_OP_MOD:
            if (alo < 0 || blo <= 0) return false;
            *lo = 0;
            *hi = ahi < bhi - 1 ? ahi : bhi - 1;
            if (blo == bhi && ahi - alo < blo && alo % blo <= ahi % blo) {   /* no wrap-around inside the range */
                *lo = alo % blo;
                *hi = ahi % blo;
            }
            return true;
        default:
            return false;
        }
    }
    default:
        return false;
    }
}
