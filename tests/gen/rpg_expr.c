/* rpg_expr.c — the generator's expressions (rpg_internal.h): tiles,
 * vectors and f32/bf16/f16 scalars of a requested type, built from loads,
 * fills, element-wise maps, broadcasts, reductions, masks and where,
 * converts, transposes, sub-tile and row/column reads, and calls of helper
 * functions (written on first use, some generic and called at a tile's
 * shape and at its transpose's). Each comes with `mag`, the bound on its
 * magnitude that keeps the program well-conditioned. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpg_internal.h"

/* ---------------------------------------------------------------- expressions */

/* fn(s) for a float scalar s of element type e: of type e even when s is an
 * untyped constant (which a unary map would make f32). */
static char *scalar_fn(G *g, const char *fn, Ex s, int e)
{
    if (s.untyped && e != E_F32) return rpg_str(g, "convert<%s>(%s(%s))", ELEM[e], fn, s.s);
    return rpg_str(g, "%s(%s)", fn, s.s);
}

static Ex leaf_fill(G *g, Ty t)
{
    rpg_feature(g, RPG_F_FILL);
    char *ts = rpg_ty_str(g, t);
    switch (rpg_pick(g, 4)) {
    case 0: return (Ex){ .s = rpg_str(g, "zeros<%s>()", ts), .mag = 0 };
    case 1: return (Ex){ .s = rpg_str(g, "ones<%s>()", ts), .mag = 1 };
    case 2: {
        static const double vals[] = { 0.5, -1.5, 0.25, 2.0, -0.75 };
        double v = vals[rpg_pick(g, 5)];
        return (Ex){ .s = rpg_str(g, "fill<%s>(%s)", ts, rpg_flit(g, v)), .mag = fabs(v) };
    }
    default: {
        Ex s = rpg_gen_fscalar(g, t.e, 1);
        return (Ex){ .s = rpg_str(g, "fill<%s>(%s)", ts, s.s), .mag = s.mag };
    }
    }
}

Ex rpg_leaf_load(G *g, Ty t)
{
    if (g->in_helper) return leaf_fill(g, t);
    char *ts = rpg_ty_str(g, t);
    if (t.k == T_RV) {
        rpg_feature(g, RPG_F_LOAD_RV);
        const Tensor *x = rpg_tensor(g, TS_VEC, t.e, t.r, 0, false);
        return (Ex){ .s = rpg_str(g, "load<%s>(%s, %s)", ts, x->name, rpg_coord(g, t.r)), .mag = 1 };
    }
    rpg_feature(g, RPG_F_LOAD_RT);
    if (t.col) rpg_feature(g, RPG_F_LOAD_COL);
    if (t.c == D_C && (t.r == D_R || (t.r == D_K && g->kcoord)) && rpg_chance(g, 10)) {
        /* a packed tensor read as a tile (element by element unless only multiplied) */
        const Tensor *x = rpg_tensor(g, TS_PACKED, t.e, t.r, D_C, false);
        return (Ex){ .s = rpg_str(g, "load<%s>(%s, tj, %s, 0, 0)", ts, x->name, rpg_coord(g, t.r)), .mag = 1 };
    }
    const Tensor *x = rpg_tensor(g, TS_TILE, t.e, t.r, t.c, false);
    return (Ex){ .s = rpg_str(g, "load<%s>(%s, %s%s, %s)", ts, x->name, x->rank3 ? "block.z, " : "", rpg_coord(g, t.r), rpg_coord(g, t.c)), .mag = 1 };
}

static Ex leaf(G *g, Ty t)
{
    Var *v = rpg_chance(g, 50) ? rpg_find_var(g, t, false) : NULL;
    if (v) return (Ex){ .s = rpg_str(g, "%s", v->name), .mag = v->mag };
    return rpg_chance(g, 80) ? rpg_leaf_load(g, t) : leaf_fill(g, t);
}

/* A unary map of x (of type t, tile, vector or scalar). */
static Ex unary(G *g, Ty t, int depth)
{
    static const RpgFeature feats[] = { RPG_F_NEG,  RPG_F_ABS,     RPG_F_EXP,  RPG_F_EXP2, RPG_F_LOG,  RPG_F_SQRT, RPG_F_RSQRT,
                                        RPG_F_TANH, RPG_F_SIGMOID, RPG_F_RELU, RPG_F_GELU, RPG_F_SILU, RPG_F_ERF,  RPG_F_GELU_ERF };
    static const char *const names[] = { "neg", "abs", "exp", "exp2", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "gelu", "silu",
                                         "erf", "gelu_erf" };
    unsigned f = rpg_pick(g, 14);
    Ex x = t.k == T_RT ? rpg_gen_tile(g, t, depth - 1) : t.k == T_RV ? rpg_gen_vec(g, t, depth - 1) : rpg_gen_fscalar(g, t.e, depth - 1);
    rpg_feature(g, feats[f]);
    switch (f) {
    case 0: return rpg_chance(g, 50) ? (Ex){ .s = rpg_str(g, "-(%s)", x.s), .mag = x.mag } : (Ex){ .s = rpg_str(g, "neg(%s)", x.s), .mag = x.mag };
    case 2:
        x = rpg_bounded(g, x, 4);
        return (Ex){ .s = rpg_str(g, "exp(%s)", x.s), .mag = exp(x.mag) };
    case 3:
        x = rpg_bounded(g, x, 4);
        return (Ex){ .s = rpg_str(g, "exp2(%s)", x.s), .mag = exp2(x.mag) };
    case 4: return (Ex){ .s = rpg_str(g, "log(abs(%s) + 1.0)", x.s), .mag = log1p(x.mag) };
    case 5: return (Ex){ .s = rpg_str(g, "sqrt(abs(%s))", x.s), .mag = sqrt(x.mag) };
    case 6: return (Ex){ .s = rpg_str(g, "rsqrt(abs(%s) + 0.5)", x.s), .mag = 1.5 };
    case 7:
    case 8:
    case 12: return (Ex){ .s = rpg_str(g, "%s(%s)", names[f], x.s), .mag = 1 };
    default: return (Ex){ .s = rpg_str(g, "%s(%s)", names[f], x.s), .mag = x.mag };
    }
}

/* A binary map of two values of type t. */
static Ex binary(G *g, Ty t, int depth)
{
    Ex (*gen)(G *, Ty, int) = t.k == T_RT ? rpg_gen_tile : rpg_gen_vec;
    Ex a = gen(g, t, depth - 1), b = gen(g, t, depth - 1);
    switch (rpg_pick(g, 6)) {
    case 0:
        rpg_feature(g, RPG_F_ADD);
        return (Ex){ .s = rpg_chance(g, 50) ? rpg_str(g, "(%s) + (%s)", a.s, b.s) : rpg_str(g, "add(%s, %s)", a.s, b.s), .mag = a.mag + b.mag };
    case 1:
        rpg_feature(g, RPG_F_SUB);
        return (Ex){ .s = rpg_chance(g, 50) ? rpg_str(g, "(%s) - (%s)", a.s, b.s) : rpg_str(g, "sub(%s, %s)", a.s, b.s), .mag = a.mag + b.mag };
    case 2:
        rpg_feature(g, RPG_F_MUL);
        a = rpg_bounded(g, a, 4), b = rpg_bounded(g, b, 4);
        return (Ex){ .s = rpg_chance(g, 50) ? rpg_str(g, "(%s) * (%s)", a.s, b.s) : rpg_str(g, "mul(%s, %s)", a.s, b.s), .mag = a.mag * b.mag };
    case 3:
        rpg_feature(g, RPG_F_DIV);
        return (Ex){ .s = rpg_chance(g, 50) ? rpg_str(g, "(%s) / (abs(%s) + 0.5)", a.s, b.s) : rpg_str(g, "div(%s, abs(%s) + 0.5)", a.s, b.s), .mag = 2 * a.mag };
    case 4: rpg_feature(g, RPG_F_MAX); return (Ex){ .s = rpg_str(g, "max(%s, %s)", a.s, b.s), .mag = fmax(a.mag, b.mag) };
    default: rpg_feature(g, RPG_F_MIN); return (Ex){ .s = rpg_str(g, "min(%s, %s)", a.s, b.s), .mag = fmax(a.mag, b.mag) };
    }
}

/* fma(x, y, z) of tiles/vectors of type t, with one operand a scalar (or
 * a constant) some of the time. */
static Ex fma3(G *g, Ty t, int depth)
{
    rpg_feature(g, RPG_F_FMA);
    Ex (*gen)(G *, Ty, int) = t.k == T_RT ? rpg_gen_tile : rpg_gen_vec;
    Ex x = rpg_bounded(g, gen(g, t, depth - 1), 4), y, z = gen(g, t, depth - 1);
    switch (rpg_pick(g, 3)) {
    case 0: y = rpg_bounded(g, gen(g, t, depth - 1), 4); break;
    case 1: y = rpg_bounded(g, rpg_gen_fscalar(g, t.e, depth - 1), 4); break;
    default: y = (Ex){ .s = rpg_str(g, "0.375"), .mag = 0.375 }; break;
    }
    if (rpg_chance(g, 30)) z = rpg_gen_fscalar(g, t.e, depth - 1);
    return (Ex){ .s = rpg_str(g, "fma(%s, %s, %s)", x.s, y.s, z.s), .mag = x.mag * y.mag + z.mag };
}

/* A tile or vector combined with a scalar of its element type. */
static Ex with_scalar(G *g, Ty t, int depth)
{
    if (rpg_chance(g, 20)) return fma3(g, t, depth);
    rpg_feature(g, RPG_F_SCALAR_OP);
    Ex x = t.k == T_RT ? rpg_gen_tile(g, t, depth - 1) : rpg_gen_vec(g, t, depth - 1);
    Ex s = rpg_gen_fscalar(g, t.e, depth - 1);
    switch (rpg_pick(g, 5)) {
    case 0: return (Ex){ .s = rpg_str(g, "(%s) * (%s)", x.s, s.s), .mag = x.mag * s.mag };
    case 1: return (Ex){ .s = rpg_str(g, "(%s) + (%s)", s.s, x.s), .mag = x.mag + s.mag };
    case 2: return (Ex){ .s = rpg_str(g, "sub(%s, %s)", x.s, s.s), .mag = x.mag + s.mag };
    case 3: return (Ex){ .s = rpg_str(g, "max(%s, %s)", x.s, s.s), .mag = fmax(x.mag, s.mag) };
    default: return (Ex){ .s = rpg_str(g, "(%s) / (%s + 0.5)", x.s, scalar_fn(g, "abs", s, t.e)), .mag = 2 * x.mag };
    }
}

static Ex broadcast(G *g, Ty t, int depth)
{
    bool rows = rpg_chance(g, 50);
    rpg_feature(g, rows ? RPG_F_BCAST_ROW : RPG_F_BCAST_COL);
    Ex x = rpg_gen_tile(g, t, depth - 1);
    Ex v = rpg_gen_vec(g, rpg_rv(t.e, rows ? t.r : t.c), depth - 1);
    const char *side = rows ? "row" : "col";
    switch (rpg_pick(g, 4)) {
    case 0: return (Ex){ .s = rpg_str(g, "add_%s(%s, %s)", side, x.s, v.s), .mag = x.mag + v.mag };
    case 1: return (Ex){ .s = rpg_str(g, "sub_%s(%s, %s)", side, x.s, v.s), .mag = x.mag + v.mag };
    case 2:
        x = rpg_bounded(g, x, 4), v = rpg_bounded(g, v, 4);
        return (Ex){ .s = rpg_str(g, "mul_%s(%s, %s)", side, x.s, v.s), .mag = x.mag * v.mag };
    default: return (Ex){ .s = rpg_str(g, "div_%s(%s, abs(%s) + 0.5)", side, x.s, v.s), .mag = 2 * x.mag };
    }
}

/* An integer expression for masks: constants, the ragged-edge counts, a parameter. */
static char *gen_int(G *g)
{
    switch (rpg_pick(g, g->in_helper ? 2 : 9)) {
    case 8: return rpg_str(g, "convert<i64>(%s) * 2 - %d", rpg_scalar_param(g, 3), (int)rpg_pick(g, 9));   /* i64 arithmetic */
    case 0: return rpg_str(g, "%d", (int)rpg_pick(g, 40) - 8);
    case 1: return rpg_str(g, "%d", (int)rpg_pick(g, 4));
    case 2: return rpg_str(g, "M - TR * ti");
    case 3: return rpg_str(g, "N - TC * tj");
    case 4: return rpg_str(g, "%s", rpg_scalar_param(g, 3));
    case 5: return rpg_str(g, "TR * ti - TC * tj");
    case 6: return g->cvar ? rpg_str(g, "%s + 1", g->cvar) : rpg_str(g, "ti - tj");
    default: return rpg_str(g, "(block.x + 1) * %d", (int)rpg_pick(g, 5) + 1);
    }
}

static Ex mask(G *g, Ty t, int depth)
{
    Ex x = rpg_gen_tile(g, t, depth - 1);
    char *k = gen_int(g);
    static const char *const fills[] = { "0.0", "-1.5", "2.0", "0.25" };
    const char *v = fills[rpg_pick(g, 4)];
    switch (rpg_pick(g, 4)) {
    case 0: rpg_feature(g, RPG_F_TRIL); return (Ex){ .s = rpg_str(g, "tril(%s, %s)", x.s, k), .mag = x.mag };
    case 1: rpg_feature(g, RPG_F_TRIL); return (Ex){ .s = rpg_str(g, "triu(%s, %s, %s)", x.s, k, v), .mag = fmax(x.mag, 2) };
    case 2: rpg_feature(g, RPG_F_MASK); return (Ex){ .s = rpg_str(g, "mask_rows(%s, %s, %s)", x.s, k, v), .mag = fmax(x.mag, 2) };
    default: rpg_feature(g, RPG_F_MASK); return (Ex){ .s = rpg_str(g, "mask_cols(%s, %s, %s)", x.s, k, v), .mag = fmax(x.mag, 2) };
    }
}

/* mask_cols of a vector: its elements from the count on replaced. */
static Ex vec_mask(G *g, Ty t, int depth)
{
    Ex x = rpg_gen_vec(g, t, depth - 1);
    char *k = gen_int(g);
    static const char *const fills[] = { "0.0", "-1.5", "2.0", "0.25" };
    rpg_feature(g, RPG_F_MASK);
    return (Ex){ .s = rpg_str(g, "mask_cols(%s, %s, %s)", x.s, k, fills[rpg_pick(g, 4)]), .mag = fmax(x.mag, 2) };
}

static Ex convert_elem(G *g, Ty t, int depth)
{
    rpg_feature(g, RPG_F_CONVERT_T);
    Ty src = t;
    src.e = (t.e + 1 + rpg_pick(g, 2)) % 3;
    Ex x = t.k == T_RT ? rpg_gen_tile(g, src, depth - 1) : rpg_gen_vec(g, src, depth - 1);
    if (t.k == T_RV) return (Ex){ .s = rpg_str(g, "convert<%s>(%s)", rpg_ty_str(g, t), x.s), .mag = x.mag };
    return (Ex){ .s = rpg_chance(g, 50) ? rpg_str(g, "convert<%s>(%s)", ELEM[t.e], x.s) : rpg_str(g, "convert<%s>(%s)", rpg_ty_str(g, t), x.s), .mag = x.mag };
}

static Ex convert_layout(G *g, Ty t, int depth)
{
    rpg_feature(g, RPG_F_CONVERT_L);
    Ty src = t;
    src.col = !t.col;
    if (rpg_chance(g, 30)) src.e = (t.e + 1) % 3;
    Ex x = rpg_gen_tile(g, src, depth - 1);
    return (Ex){ .s = rpg_str(g, "convert<%s>(%s)", rpg_ty_str(g, t), x.s), .mag = x.mag };
}

static Ex transposed(G *g, Ty t, int depth)
{
    rpg_feature(g, RPG_F_TRANSPOSE);
    Ty src = rpg_rt(t.e, t.c, t.r, t.col);
    Ex x = rpg_gen_tile(g, src, depth - 1);
    return (Ex){ .s = rpg_str(g, "transpose(%s)", x.s), .mag = x.mag };
}

/* A mask of t's shape and layout: comparisons of tiles or vectors (of any
 * element type) with each other or with a constant, combined with && || !
 * and, in the kernel, with a bool condition. Comparing exact values (loads,
 * constants) keeps the interpreter's verdict certain; computed values may
 * compare differently within rounding, which the interpreter reports as an
 * unreliable case rather than a mismatch. */
static char *gen_mask(G *g, Ty t, int depth)
{
    static const char *const ops[] = { "<", "<=", ">", ">=", "==", "!=" };
    Ex (*gen)(G *, Ty, int) = t.k == T_RT ? rpg_gen_tile : rpg_gen_vec;
    unsigned w[] = { 6, depth > 0 ? 2u : 0u, depth > 0 ? 1u : 0u, g->in_helper || depth <= 0 ? 0u : 1u };
    switch (rpg_weighted(g, w, 4)) {
    case 0: {
        rpg_feature(g, RPG_F_COMPARE);
        Ty s = t;
        if (rpg_chance(g, 30)) s.e = (t.e + 1 + (int)rpg_pick(g, 2)) % 3;
        Ex a = rpg_chance(g, 60) || depth <= 0 ? leaf(g, s) : gen(g, s, depth - 1);
        const char *op = ops[rpg_pick(g, 6)];
        if (rpg_chance(g, 40)) return rpg_str(g, "(%s) %s (%s)", a.s, op, leaf(g, s).s);
        static const double cuts[] = { 0.0, 0.25, -0.5, 0.75 };
        return rpg_str(g, "(%s) %s %s", a.s, op, rpg_flit(g, cuts[rpg_pick(g, 4)]));
    }
    case 1:
        rpg_feature(g, RPG_F_MASK_LOGIC);
        return rpg_str(g, "(%s) %s (%s)", gen_mask(g, t, depth - 1), rpg_chance(g, 50) ? "&&" : "||", gen_mask(g, t, depth - 1));
    case 2: rpg_feature(g, RPG_F_MASK_LOGIC); return rpg_str(g, "!(%s)", gen_mask(g, t, depth - 1));
    default: rpg_feature(g, RPG_F_MASK_LOGIC); return rpg_str(g, "(%s) && (%s)", gen_mask(g, t, depth - 1), rpg_gen_cond(g));
    }
}

/* where(mask, a, b) with tile/vector or scalar values, or a mask as 1.0/0.0. */
static Ex selected(G *g, Ty t, int depth)
{
    Ex (*gen)(G *, Ty, int) = t.k == T_RT ? rpg_gen_tile : rpg_gen_vec;
    char *m = gen_mask(g, t, depth - 1);
    if (rpg_chance(g, 20)) {
        rpg_feature(g, RPG_F_MASK_CONVERT);
        Ex x = rpg_bounded(g, gen(g, t, depth - 1), 4);
        return (Ex){ .s = rpg_str(g, "convert<%s>(%s) * (%s)", ELEM[t.e], m, x.s), .mag = x.mag };
    }
    rpg_feature(g, RPG_F_WHERE);
    Ex a, b;
    switch (rpg_pick(g, 4)) {
    case 0: a = gen(g, t, depth - 1), b = rpg_gen_fscalar(g, t.e, depth - 1); break;
    case 1: a = rpg_gen_fscalar(g, t.e, depth - 1), b = gen(g, t, depth - 1); break;
    case 2:
        if (t.e == E_F32) {   /* two constants: an f32 tile of the mask's shape */
            a = (Ex){ .s = rpg_str(g, "0.5"), .mag = 0.5 }, b = (Ex){ .s = rpg_str(g, "-1.25"), .mag = 1.25 };
            break;
        }
        /* fall through */
    default: a = gen(g, t, depth - 1), b = gen(g, t, depth - 1); break;
    }
    return (Ex){ .s = rpg_str(g, "where(%s, %s, %s)", m, a.s, b.s), .mag = fmax(a.mag, b.mag) };
}

static Ex helper_call(G *g, Ty t, int depth);

/* ---------------------------------------------------------------- sub-tiles and rows (LANGUAGE.md §5.13) */

/* A role whose dim is at least (bigger) or at most (!bigger) role r's. In a
 * helper only r itself: a generic helper must be valid at every binding. */
int rpg_part_role(G *g, int r, bool bigger)
{
    int cand[3], n = 0;
    for (int x = 0; x < 3; x++)
        if (x == r || (!g->in_helper && (bigger ? g->dim[x] >= g->dim[r] : g->dim[x] <= g->dim[r]))) cand[n++] = x;
    return cand[rpg_pick(g, (unsigned)n)];
}

/* The first index of a part d long of a dim D long: a multiple of 16, maybe
 * following the constant loop's variable (which makes the loop unrolled). */
static char *part_offset(G *g, int D, int d)
{
    int n = (D - d) / 16 + 1;
    if (n <= 1 || g->in_helper) return rpg_str(g, "0");
    if (g->cvar && rpg_chance(g, 40)) return rpg_str(g, "16 * (%s %% %d)", g->cvar, n);
    return rpg_str(g, "%d", 16 * (int)rpg_pick(g, (unsigned)n));
}

/* A range over role `part` inside a dim of role `whole`. */
char *rpg_part_range(G *g, int whole, int part)
{
    if (whole == part && rpg_chance(g, 50)) return rpg_str(g, "..");
    char *o = part_offset(g, g->dim[whole], g->dim[part]);
    return rpg_str(g, "%s .. %s + %s", o, o, DIM_NAME[part]);
}

/* A row or column index below the dim of `role`: a constant or the constant
 * loop's variable (a run-time index the checker proves in range). */
char *rpg_line_index(G *g, int role)
{
    int hi = g->dim[role];
    if (g->in_helper) return rpg_str(g, "0");
    if (g->cvar && g->cvar_hi <= hi && rpg_chance(g, 50)) return rpg_str(g, "%s", g->cvar);
    return rpg_str(g, "%d", (int)rpg_pick(g, (unsigned)hi));
}

/* A sub-tile of a tile at least as large: (src)[r0 .. r0 + TR, c0 .. c0 + TC]. */
static Ex subtile_read(G *g, Ty t, int depth)
{
    rpg_feature(g, RPG_F_SUBTILE);
    int r = rpg_part_role(g, t.r, true), c = rpg_part_role(g, t.c, true);
    Ex x = rpg_gen_tile(g, rpg_rt(t.e, r, c, t.col), depth - 1);
    return (Ex){ .s = rpg_str(g, "(%s)[%s, %s]", x.s, rpg_part_range(g, r, t.r), rpg_part_range(g, c, t.c)), .mag = x.mag };
}

/* A row or column of a tile (rv of role t.r), or a part of a longer vector. */
static Ex line_read(G *g, Ty t, int depth)
{
    if (rpg_chance(g, 25)) {
        rpg_feature(g, RPG_F_SUBTILE);
        int r = rpg_part_role(g, t.r, true);
        if (r == D_K) r = t.r;   /* vectors are of the R and C roles */
        Ex x = rpg_gen_vec(g, rpg_rv(t.e, r), depth - 1);
        return (Ex){ .s = rpg_str(g, "(%s)[%s]", x.s, rpg_part_range(g, r, t.r)), .mag = x.mag };
    }
    rpg_feature(g, RPG_F_ROW_COL);
    bool row = rpg_chance(g, 50);
    int other = rpg_pick(g, 2) == 0 ? (t.r == D_R ? D_C : D_R) : t.r;
    Ex x = rpg_gen_tile(g, row ? rpg_rt(t.e, other, t.r, rpg_chance(g, 30)) : rpg_rt(t.e, t.r, other, rpg_chance(g, 30)), depth - 1);
    char *i = rpg_line_index(g, other);
    return (Ex){ .s = rpg_str(g, row ? "(%s)[%s, ..]" : "(%s)[.., %s]", x.s, i), .mag = x.mag };
}

Ex rpg_gen_tile(G *g, Ty t, int depth)
{
    if (g->oom) return (Ex){ .s = rpg_str(g, "0"), .mag = 0 };
    if (depth <= 0) return leaf(g, t);
    /* leaf, unary, binary, scalar, broadcast, mask, convert dtype, convert layout, transpose, helper, where, sub-tile */
    unsigned w[] = { 3, 4, 4, 2, 2, 1, 1, 1, 1, g->in_helper || g->nhelpers == MAX_HELPERS ? 0u : 1u, 1, 1 };
    switch (rpg_weighted(g, w, 12)) {
    case 0: return leaf(g, t);
    case 1: return unary(g, t, depth);
    case 2: return binary(g, t, depth);
    case 3: return with_scalar(g, t, depth);
    case 4: return broadcast(g, t, depth);
    case 5: return mask(g, t, depth);
    case 6: return convert_elem(g, t, depth);
    case 7: return convert_layout(g, t, depth);
    case 8: return transposed(g, t, depth);
    case 9: return helper_call(g, t, depth);
    case 11: return subtile_read(g, t, depth);
    default: return selected(g, t, depth);
    }
}

int rpg_dim_of(const G *g, int role) { return g->dim[role]; }

/* How far a constant element index into a dim of `role` may go. In a helper
 * the smallest of the dims: a generic helper is also instantiated at the
 * transposed shape (GR and GC swapped), where x[16, 40] of a 32 x 64 tile
 * would index past a 64 x 32 one (seed 550032). */
static int index_bound(const G *g, int role)
{
    if (!g->in_helper) return rpg_dim_of(g, role);
    int m = g->dim[0];
    for (int x = 1; x < 3; x++)
        if (g->dim[x] < m) m = g->dim[x];
    return m;
}

static Ex reduction(G *g, Ty t, int depth)
{
    bool rows = rpg_chance(g, 50);
    rpg_feature(g, rows ? RPG_F_ROW_RED : RPG_F_COL_RED);
    int other = (int)rpg_pick(g, 2) == 0 ? (t.r == D_R ? D_C : D_R) : t.r;
    Ty src = rows ? rpg_rt(t.e, t.r, other, rpg_chance(g, 30)) : rpg_rt(t.e, other, t.r, rpg_chance(g, 30));
    Ex x = rpg_gen_tile(g, src, depth - 1);
    const char *side = rows ? "row" : "col";
    switch (rpg_pick(g, 3)) {
    case 0: return (Ex){ .s = rpg_str(g, "%s_max(%s)", side, x.s), .mag = x.mag };
    case 1: return (Ex){ .s = rpg_str(g, "%s_min(%s)", side, x.s), .mag = x.mag };
    default: return (Ex){ .s = rpg_str(g, "%s_sum(%s)", side, x.s), .mag = rpg_grow(x.mag * rpg_dim_of(g, other)) };
    }
}

Ex rpg_gen_vec(G *g, Ty t, int depth)
{
    if (g->oom) return (Ex){ .s = rpg_str(g, "0"), .mag = 0 };
    if (depth <= 0) return leaf(g, t);
    unsigned w[] = { 3, 4, 2, 2, 1, 1, 1, 1 };   /* leaf, reduction, unary, binary/scalar, convert, where, row/col, mask_cols */
    switch (rpg_weighted(g, w, 8)) {
    case 0: return leaf(g, t);
    case 1: return reduction(g, t, depth);
    case 2: rpg_feature(g, RPG_F_RV_OP); return unary(g, t, depth);
    case 3: rpg_feature(g, RPG_F_RV_OP); return rpg_chance(g, 50) ? binary(g, t, depth) : with_scalar(g, t, depth);
    case 4: return convert_elem(g, t, depth);
    case 6: return line_read(g, t, depth);
    case 7: return vec_mask(g, t, depth);
    default: rpg_feature(g, RPG_F_RV_OP); return selected(g, t, depth);
    }
}

/* A float scalar of element type e (or an untyped constant, which adopts it). */
Ex rpg_gen_fscalar(G *g, int e, int depth)
{
    if (g->oom) return (Ex){ .s = rpg_str(g, "0.5"), .mag = 0.5 };
    unsigned w[] = { 3, g->in_helper && !g->helper_scalar ? 0u : 3u, 3, depth > 0 ? 2u : 0u, depth > 0 ? 1u : 0u, depth > 0 ? 1u : 0u };
    switch (rpg_weighted(g, w, 6)) {
    case 0: {
        static const double vals[] = { 0.5, 0.75, 1.25, -2.0, 0.125, 3.0 };
        double v = vals[rpg_pick(g, 6)];
        return (Ex){ .s = rpg_flit(g, v), .mag = fabs(v), .untyped = true };
    }
    case 1: {
        if (g->in_helper) return (Ex){ .s = rpg_str(g, "%s", e == E_F32 ? "s" : rpg_str(g, "convert<%s>(s)", ELEM[e])), .mag = 1 };
        /* a parameter; f32 → bf16/f16 by convert when the parameter has another type */
        int which = rpg_chance(g, 60) ? e : 0;
        const char *p = rpg_scalar_param(g, which);
        Ex x = { .s = rpg_str(g, "%s", p), .mag = 2 };
        if (which != e) {
            rpg_feature(g, RPG_F_CONVERT_T);
            x.s = rpg_str(g, "convert<%s>(%s)", ELEM[e], p);
        }
        return x;
    }
    case 2: {
        /* an element of a tile or vector variable */
        Ty tt = rpg_chance(g, 70) ? rpg_rt(e, rpg_pick(g, 2), rpg_pick(g, 2), rpg_chance(g, 30)) : rpg_rv(e, rpg_pick(g, 2));
        Var *v = rpg_find_var(g, tt, false);
        if (!v) return (Ex){ .s = rpg_flit(g, 0.25), .mag = 0.25, .untyped = true };
        rpg_feature(g, RPG_F_ELEM_READ);
        int hi_r = index_bound(g, tt.r), hi_c = tt.k == T_RT ? index_bound(g, tt.c) : 0;
        char *i = g->cvar && g->cvar_hi <= hi_r && rpg_chance(g, 50) ? rpg_str(g, "%s", g->cvar) : rpg_str(g, "%d", (int)rpg_pick(g, (unsigned)hi_r));
        if (tt.k == T_RV) return (Ex){ .s = rpg_str(g, "%s[%s]", v->name, i), .mag = v->mag };
        return (Ex){ .s = rpg_str(g, "%s[%s, %d]", v->name, i, (int)rpg_pick(g, (unsigned)hi_c)), .mag = v->mag };
    }
    case 3: {
        /* two untyped constants fold into one (still untyped) */
        Ex a = rpg_gen_fscalar(g, e, depth - 1), b = rpg_gen_fscalar(g, e, depth - 1);
        bool u = a.untyped && b.untyped;
        if (rpg_chance(g, 50)) return (Ex){ .s = rpg_str(g, "(%s) + (%s)", a.s, b.s), .mag = a.mag + b.mag, .untyped = u };
        a = rpg_bounded(g, a, 4), b = rpg_bounded(g, b, 4);
        return (Ex){ .s = rpg_str(g, "(%s) * (%s)", a.s, b.s), .mag = a.mag * b.mag, .untyped = u };
    }
    case 4: {
        Ex a = rpg_gen_fscalar(g, e, depth - 1);
        return rpg_chance(g, 50) ? (Ex){ .s = scalar_fn(g, "abs", a, e), .mag = a.mag } : (Ex){ .s = scalar_fn(g, "tanh", a, e), .mag = 1 };
    }
    default: {
        /* a vector reduced to one value (a vector is one row) */
        int role = (int)rpg_pick(g, 2);
        Ex v = rpg_gen_vec(g, rpg_rv(e, role), depth - 1);
        rpg_feature(g, RPG_F_VEC_RED);
        switch (rpg_pick(g, 3)) {
        case 0: return (Ex){ .s = rpg_str(g, "row_max(%s)", v.s), .mag = v.mag };
        case 1: return (Ex){ .s = rpg_str(g, "row_min(%s)", v.s), .mag = v.mag };
        default: return (Ex){ .s = rpg_str(g, "row_sum(%s)", v.s), .mag = rpg_grow(v.mag * rpg_dim_of(g, role)) };
        }
    }
    }
}

/* ---------------------------------------------------------------- helpers */

/* A generic helper's text: the tile constants TR, TC, TK (whole words)
 * become its compile-time parameters GR, GC, GK, in place. The body was
 * generated over the roles, so it is valid for any binding of them. */
static void generic_dims(char *s)
{
    for (char *p = s; (p = strchr(p, 'T')) != NULL; p++) {
        bool start = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool end = p[1] && !(isalnum((unsigned char)p[2]) || p[2] == '_');
        if (start && end && (p[1] == 'R' || p[1] == 'C' || p[1] == 'K')) *p = 'G';
    }
}

/* Writes helper h (rt → rt, and an f32 scalar) into g->helpers. */
static void write_helper(G *g, Helper *h)
{
    /* the body is generated with the helper's own names only */
    Var saved[MAX_VARS];
    unsigned nsaved = g->nvars, depth = g->depth;
    memcpy(saved, g->vars, sizeof(Var) * nsaved);
    Sb body = g->body;
    unsigned indent = g->indent;
    const char *cvar = g->cvar, *kcoord = g->kcoord;
    g->body = (Sb){ 0 };
    g->nvars = 0;
    g->depth = 0;
    g->indent = 1;
    g->cvar = g->kcoord = NULL;
    g->in_helper = true;
    g->helper_scalar = h->has_scalar;

    rpg_declare(g, "x", h->arg, 1, true);
    Ex y = rpg_gen_tile(g, h->ret, 2);
    Ex r = y;
    if (rpg_chance(g, 50)) {
        rpg_line(g, "let y = %s;", y.s);
        r = (Ex){ .s = rpg_str(g, "y"), .mag = y.mag };
    }
    h->mag = r.mag;

    char *text = rpg_str(g, "(%s x%s) -> %s {\n%s    return %s;\n}\n\n", rpg_ty_str(g, h->arg), h->has_scalar ? ", f32 s" : "", rpg_ty_str(g, h->ret),
                   g->body.s ? g->body.s : "", r.s);
    if (h->generic) generic_dims(text);
    rpg_sb_printf(g, &g->helpers, "fn %s%s%s", h->name, h->generic ? "<GR = TR, GC = TC, GK = TK>" : "", text);
    free(g->body.s);

    g->in_helper = false;
    g->helper_scalar = false;
    g->body = body;
    g->indent = indent;
    g->cvar = cvar;
    g->kcoord = kcoord;
    memcpy(g->vars, saved, sizeof(Var) * nsaved);
    g->nvars = nsaved;
    g->depth = depth;
}

static Ex helper_call(G *g, Ty t, int depth)
{
    rpg_feature(g, RPG_F_HELPER);
    Helper *h = NULL;
    for (unsigned i = 0; i < g->nhelpers; i++)
        if (rpg_ty_eq(g->helper[i].ret, t) && rpg_chance(g, 70)) h = &g->helper[i];
    if (!h) {
        h = &g->helper[g->nhelpers++];
        snprintf(h->name, sizeof h->name, "h%u", g->nhelpers);
        h->ret = t;
        h->arg = rpg_chance(g, 60) ? t : rpg_rt(rpg_pick(g, 3), t.r, t.c, rpg_chance(g, 30));
        h->has_scalar = rpg_chance(g, 50);
        h->generic = rpg_chance(g, 30);
        write_helper(g, h);
    }
    Ex a = rpg_bounded(g, rpg_gen_tile(g, h->arg, depth - 1), 1);
    char *s = h->has_scalar ? rpg_str(g, ", %s", rpg_gen_fscalar(g, E_F32, 0).s) : rpg_str(g, "%s", "");
    /* the scalar's magnitude can reach 3: the helper saw 1, so allow for it */
    double mag = rpg_grow(h->mag * (h->has_scalar ? 9 : 1));
    Ex call = { .s = rpg_str(g, "%s(%s%s)", h->name, a.s, s), .mag = mag };
    if (!h->generic || !rpg_chance(g, 70)) return call;
    /* the same helper at the transposed shape (another instance), its
     * result transposed back: inferred from the argument or given <...> */
    rpg_feature(g, RPG_F_GENERIC);
    rpg_feature(g, RPG_F_TRANSPOSE);
    Ty sw = rpg_rt(h->arg.e, h->arg.c, h->arg.r, h->arg.col);
    Ex b = rpg_bounded(g, rpg_gen_tile(g, sw, depth - 1), 1);
    char *s2 = h->has_scalar ? rpg_str(g, ", %s", rpg_gen_fscalar(g, E_F32, 0).s) : rpg_str(g, "%s", "");
    const char *bind[3] = { DIM_NAME[D_R], DIM_NAME[D_C], DIM_NAME[D_K] };   /* GR, GC, GK at this call */
    bind[h->arg.r] = DIM_NAME[h->arg.c];
    bind[h->arg.c] = DIM_NAME[h->arg.r];
    char *targs = rpg_chance(g, 50) ? rpg_str(g, "<%s, %s, %s>", bind[0], bind[1], bind[2]) : rpg_str(g, "%s", "");
    return (Ex){ .s = rpg_str(g, "(%s) + transpose(%s%s(%s%s))", call.s, h->name, targs, b.s, s2), .mag = 2 * mag };
}
