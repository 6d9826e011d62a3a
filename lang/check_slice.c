/* check_slice.c — index lists with ranges (§5.13): a constant-offset
 * sub-tile `t[r0 .. r1, c0 .. c1]` of an rt, a sub-vector `v[a .. b]` of an
 * rv, and a row `t[i, ..]` or column `t[.., j]` of an rt as an rv. The
 * result is an ordinary rt/rv type, so reading and assigning need nothing
 * more: assignment (check_stmt.c) coerces to it like to any variable, which
 * converts no tile type implicitly. */
#include "checker.h"

#include <stdio.h>

static bool is_whole(const TkNode *r) { return r->kind == TK_N_RANGE && !r->a && !r->b; }

/* Bound `b` of a range over a dim of `dim` elements: a compile-time integer,
 * a multiple of 16 (sub-tiles are whole 16×16 base tiles), in [0, dim]. */
static bool check_bound(TkChecker *c, TkNode *b, int64_t dim, const char *ts, const char *what, int64_t *out)
{
    TkType *t = tk_check_expr(c, b, NULL);
    if (t->kind == TK_TY_ERROR) return false;
    if (!tk_is_int(t->kind)) {
        char bs[64];
        tk_type_str(t, bs, sizeof bs);
        TkDiag *g = tk_error(c->diags, b->span, "a sub-tile bound must be an integer");
        tk_diag_expected(g, "an integer constant");
        tk_diag_found(g, "%s", bs);
        tk_diag_hint(g, "bounds count elements: rows or columns lo .. hi, e.g. 0 .. 16");
        return false;
    }
    if (!b->is_const) {
        TkDiag *g = tk_error(c->diags, b->span, "a sub-tile bound must be a compile-time integer");
        tk_diag_found(g, "a value known only at run time");
        tk_diag_hint(g, "use literals, consts, compile-time parameters or the variable of a loop with constant bounds "
                        "(such a loop is unrolled); a tile's shape is a compile-time fact");
        return false;
    }
    if (b->ival < 0 || b->ival > dim) {
        TkDiag *g = tk_error(c->diags, b->span, "sub-tile bound %lld is out of range for %s", (long long)b->ival, ts);
        tk_diag_expected(g, "a bound in [0, %lld]", (long long)dim);
        tk_diag_found(g, "%lld", (long long)b->ival);
        tk_diag_hint(g, "it has %lld %s, and a range lo .. hi excludes hi: it ends at most at %lld", (long long)dim, what,
                     (long long)dim);
        return false;
    }
    if (b->ival % 16 != 0) {
        TkDiag *g = tk_error(c->diags, b->span, "sub-tile bound %lld is not a multiple of 16", (long long)b->ival);
        tk_diag_expected(g, "a multiple of 16 in [0, %lld]", (long long)dim);
        tk_diag_hint(g, "a sub-tile is made of whole 16x16 base tiles, like every register tile; read single "
                        "elements with t[i, j]");
        return false;
    }
    *out = b->ival;
    return true;
}

/* Range r over a dim of `dim` elements: its extent into *n, its first index
 * into *lo. `..` alone is the whole dim. */
static bool check_range(TkChecker *c, TkNode *r, int64_t dim, const char *ts, const char *what, int64_t *lo, int64_t *n)
{
    if (is_whole(r)) {
        *lo = 0;
        *n = dim;
        return true;
    }
    int64_t a = 0, b = 0;
    bool ok_a = check_bound(c, r->a, dim, ts, what, &a);
    bool ok_b = check_bound(c, r->b, dim, ts, what, &b);
    if (!ok_a || !ok_b) return false;
    if (b <= a) {
        TkDiag *g = tk_error(c->diags, r->span, "the sub-tile range %lld .. %lld is %s", (long long)a, (long long)b,
                             a == b ? "empty" : "reversed");
        tk_diag_expected(g, "lo .. hi with lo < hi (hi is excluded)");
        tk_diag_hint(g, "a range covers lo, lo + 1, ..., hi - 1");
        return false;
    }
    *lo = a;
    *n = b - a;
    return true;
}

/* Checks the index expressions quietly when the indexed value is wrong. */
static void check_rest(TkChecker *c, TkNode *list)
{
    for (TkNode *i = list; i; i = i->next) {
        if (i->kind != TK_N_RANGE) tk_check_expr(c, i, NULL);
        else {
            if (i->a) tk_check_expr(c, i->a, NULL);
            if (i->b) tk_check_expr(c, i->b, NULL);
        }
    }
}

/* Integer row or column index i of a slice, proved in [0, dim). */
static bool check_line_index(TkChecker *c, TkNode *i, int64_t dim, const char *which, const char *ts)
{
    TkType *t = tk_check_expr(c, i, NULL);
    if (t->kind == TK_TY_ERROR) return false;
    if (!tk_is_int(t->kind)) {
        char is[64];
        tk_type_str(t, is, sizeof is);
        TkDiag *g = tk_error(c->diags, i->span, "an index must be an integer");
        tk_diag_expected(g, "i32 or i64");
        tk_diag_found(g, "%s", is);
        return false;
    }
    return tk_check_index_bounds(c, i, dim, which, ts);
}

TkType *tk_check_slice(TkChecker *c, TkNode *e)
{
    TkType *t = tk_check_expr(c, e->a, NULL);
    if (t->kind == TK_TY_ERROR) {
        check_rest(c, e->list);
        return &tk_type_error;
    }
    char ts[160];
    tk_type_str(t, ts, sizeof ts);
    unsigned n = tk_list_length(e->list);
    TkDiag *g = NULL;
    if (t->kind == TK_TY_GL) {
        g = tk_error(c->diags, e->span, "a global tensor cannot be sliced");
        tk_diag_hint(g, "load the tile you need: load<rt<...>>(T, row, col) reads the tile at tile coordinates (row, col)");
    } else if (t->kind == TK_TY_ST || t->kind == TK_TY_SV) {
        g = tk_error(c->diags, e->span, "a shared %s cannot be sliced", t->kind == TK_TY_ST ? "tile" : "vector");
        tk_diag_found(g, "%s", ts);
        tk_diag_hint(g, "load the part you need into registers: load<%s>(S, ...) reads it at tile coordinates",
                     t->kind == TK_TY_ST ? "rt<...>" : "rv<...>");
    } else if (t->kind != TK_TY_RT && t->kind != TK_TY_RV) {
        g = tk_error(c->diags, e->a->span, "only rt tiles and rv vectors can be sliced");
        tk_diag_found(g, "%s", ts);
        tk_diag_hint(g, "a scalar has no parts; slice the tile or vector it comes from");
    } else if (t->kind == TK_TY_RV && n == 2) {
        g = tk_error(c->diags, e->span, "%s has no rows or columns", ts);
        tk_diag_expected(g, "v[a .. b], one range");
        tk_diag_hint(g, "rows and columns, t[i, ..] and t[.., j], are taken from an rt");
    } else if (n != t->rank) {
        g = tk_error(c->diags, e->span, "%s takes %u %s, not %u", ts, t->rank, t->rank == 1 ? "index" : "indices", n);
        tk_diag_expected(g, "%s", t->rank == 1 ? "v[a .. b]" : "t[r0 .. r1, c0 .. c1], t[i, ..] or t[.., j]");
        tk_diag_hint(g, "%s", t->rank == 1 ? "a vector takes one range" : "an rt takes a range or an index for its rows, then one for its columns; `..` alone is a whole dim");
    }
    /* not `if (g)`: past the error limit tk_error returns NULL, and the shape
     * below needs every one of these cases excluded (the fuzzer found it) */
    bool bad = t->kind == TK_TY_GL || t->kind == TK_TY_ST || t->kind == TK_TY_SV || (t->kind != TK_TY_RT && t->kind != TK_TY_RV) ||
               (t->kind == TK_TY_RV && n == 2) || n != t->rank;
    if (g || bad) {
        check_rest(c, e->list);
        return &tk_type_error;
    }
    TkNode *ri = e->list, *ci = ri->next;
    if (t->kind == TK_TY_RV) {
        int64_t lo, len;
        if (!check_range(c, ri, t->dims[0], ts, "elements", &lo, &len)) return &tk_type_error;
        return tk_type_vec(c->arena, TK_TY_RV, t->elem, len);
    }
    /* rt: two ranges (a sub-tile), or an index and a range (part of a row or column) */
    bool rr = ri->kind == TK_N_RANGE, cr = ci->kind == TK_N_RANGE;
    int64_t r0 = 0, nr = 0, c0 = 0, nc = 0;
    bool ok_r = rr ? check_range(c, ri, t->dims[0], ts, "rows", &r0, &nr) : check_line_index(c, ri, t->dims[0], "row", ts);
    bool ok_c = cr ? check_range(c, ci, t->dims[1], ts, "columns", &c0, &nc) : check_line_index(c, ci, t->dims[1], "column", ts);
    if (!ok_r || !ok_c) return &tk_type_error;
    if (rr && cr) return tk_type_tile(c->arena, TK_TY_RT, t->elem, nr, nc, t->layout);
    return tk_type_vec(c->arena, TK_TY_RV, t->elem, rr ? nr : nc);
}
