/* rpg_stmt.c — the generator's statements (rpg_internal.h): let, var and
 * assignments (op=, element writes, sub-tile and row/column assignments),
 * products of every form (mma) and the shared tiles with sync() around them,
 * row loops over symbolic bounds, constant loops, if/else, arrays of tiles,
 * stores to the outputs (and of every value left unread, so nothing the
 * program computes is dead). */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpg_internal.h"

/* ---------------------------------------------------------------- statements */

static Ty random_tile_ty(G *g)
{
    /* mostly the output tile's shape; sometimes its transpose */
    bool tr = rpg_chance(g, 15);
    int e = rpg_chance(g, 50) ? E_F32 : rpg_chance(g, 60) ? E_BF16 : E_F16;
    return rpg_rt(e, tr ? D_C : D_R, tr ? D_R : D_C, rpg_chance(g, 25));
}

static void stmt_let(G *g, int depth)
{
    unsigned kind = rpg_pick(g, 10);
    if (kind < 6) {
        Ty t = random_tile_ty(g);
        Ex e = rpg_gen_tile(g, t, depth);
        char *name = rpg_fresh(g, "v");
        if (rpg_chance(g, 50)) rpg_line(g, "let %s = %s;", name, e.s);
        else rpg_line(g, "%s %s = %s;", rpg_ty_str(g, t), name, e.s);
        rpg_declare(g, name, t, e.mag, false);
    } else if (kind < 8) {
        Ty t = rpg_rv(rpg_pick(g, 3), rpg_pick(g, 2));
        Ex e = rpg_gen_vec(g, t, depth);
        char *name = rpg_fresh(g, "u");
        rpg_line(g, "let %s = %s;", name, e.s);
        rpg_declare(g, name, t, e.mag, false);
    } else {
        int e = rpg_pick(g, 3);
        Ex x = rpg_gen_fscalar(g, e, 2);
        char *name = rpg_fresh(g, "s");
        /* typed declaration: an untyped constant adopts e (a let would make it f32) */
        rpg_line(g, "%s %s = %s;", ELEM[e], name, x.s);
        rpg_declare(g, name, (Ty){ T_FS, e, 0, 0, false }, x.mag, false);
    }
}

/* A mutable tile variable, declared zero-filled or initialised. */
static void stmt_var(G *g, int depth)
{
    Ty t = random_tile_ty(g);
    char *name = rpg_fresh(g, "m");
    if (rpg_chance(g, 30)) {
        rpg_line(g, "%s %s;", rpg_ty_str(g, t), name);
        rpg_declare(g, name, t, 0, true);
        return;
    }
    Ex e = rpg_chance(g, 50) ? rpg_leaf_load(g, t) : rpg_gen_tile(g, t, depth);
    rpg_line(g, "%s %s = %s;", rpg_ty_str(g, t), name, e.s);
    rpg_declare(g, name, t, e.mag, true);
}

static void stmt_assign(G *g, int depth)
{
    Ty t = random_tile_ty(g);
    Var *v = rpg_find_var(g, t, true);
    if (!v) {
        stmt_var(g, depth);
        return;
    }
    unsigned trip = g->loop_trip;
    Var *w = rpg_chance(g, 20) ? rpg_find_var(g, t, false) : NULL;
    if (w && w != v) {
        /* a copy: tile variables that may share one slot (lower/cpu/emit_coalesce.c) */
        rpg_line(g, "%s = %s;", v->name, w->name);
        v->mag = fmax(v->mag, w->mag);
        return;
    }
    switch (rpg_pick(g, 6)) {
    case 4: {
        /* a sub-tile of v, assigned or updated (LANGUAGE.md §5.13) */
        rpg_feature(g, RPG_F_SUBTILE);
        int r = rpg_part_role(g, t.r, false), c = rpg_part_role(g, t.c, false);
        bool comp = rpg_chance(g, 40);
        v->hidden = comp || trip > 1;
        Ex e = rpg_bounded(g, rpg_gen_tile(g, rpg_rt(t.e, r, c, t.col), depth), comp ? 4 : MAG_LIMIT);
        v->hidden = false;
        rpg_line(g, "%s[%s, %s] %s %s;", v->name, rpg_part_range(g, t.r, r), rpg_part_range(g, t.c, c), comp ? "+=" : "=", e.s);
        v->mag = comp ? rpg_grow(v->mag + trip * e.mag) : fmax(v->mag, e.mag);
        return;
    }
    case 5: {
        /* a row or column of v from a vector */
        rpg_feature(g, RPG_F_ROW_COL);
        bool row = rpg_chance(g, 50);
        v->hidden = trip > 1;
        Ex e = rpg_bounded(g, rpg_gen_vec(g, rpg_rv(t.e, row ? t.c : t.r), depth), MAG_LIMIT);
        v->hidden = false;
        char *i = rpg_line_index(g, row ? t.r : t.c);
        rpg_line(g, row ? "%s[%s, ..] = %s;" : "%s[.., %s] = %s;", v->name, i, e.s);
        v->mag = fmax(v->mag, e.mag);
        return;
    }
    case 0: {
        /* plain assignment; inside a loop the value must not feed on itself */
        v->hidden = trip > 1;
        Ex e = rpg_bounded(g, rpg_gen_tile(g, t, depth), MAG_LIMIT);
        v->hidden = false;
        rpg_line(g, "%s = %s;", v->name, e.s);
        v->mag = fmax(v->mag, e.mag);
        return;
    }
    case 1: {
        rpg_feature(g, RPG_F_COMPOUND);
        v->hidden = true;
        Ex e = rpg_bounded(g, rpg_gen_tile(g, t, depth), 4);
        v->hidden = false;
        rpg_line(g, "%s %s %s;", v->name, rpg_chance(g, 50) ? "+=" : "-=", e.s);
        v->mag = rpg_grow(v->mag + trip * e.mag);
        return;
    }
    case 2: {
        rpg_feature(g, RPG_F_COMPOUND);
        static const char *const f[] = { "0.5", "-1.0", "0.25" };
        rpg_line(g, "%s *= %s;", v->name, f[rpg_pick(g, 3)]);
        return;
    }
    default: {
        rpg_feature(g, RPG_F_ELEM_WRITE);
        Ex s = rpg_gen_fscalar(g, t.e, 1);
        int hr = rpg_dim_of(g, t.r), hc = rpg_dim_of(g, t.c);
        char *i = g->cvar && g->cvar_hi <= hr ? rpg_str(g, "%s", g->cvar) : rpg_str(g, "%d", (int)rpg_pick(g, (unsigned)hr));
        char *j = g->cvar && g->cvar_hi <= hc && rpg_chance(g, 50) ? rpg_str(g, "%s", g->cvar) : rpg_str(g, "%d", (int)rpg_pick(g, (unsigned)hc));
        rpg_line(g, "%s[%s, %s] = %s;", v->name, i, j, s.s);
        v->mag = fmax(v->mag, s.mag);
        return;
    }
    }
}

/* The tile roles and layout of an mma operand of form f (0 ab, 1 abt, 2 atb, 3 atbt). */
static Ty mma_a_ty(int e, int f) { return f < 2 ? rpg_rt(e, D_R, D_K, false) : rpg_rt(e, D_K, D_R, true); }
static Ty mma_b_ty(int e, int f) { return (f == 0 || f == 2) ? rpg_rt(e, D_K, D_C, true) : rpg_rt(e, D_C, D_K, false); }

/* One operand inside a product's loop: a load (read in place where the
 * compiler can), or an element-wise expression of loads. */
static char *mma_operand(G *g, Ty t, bool packed, const char *prefix)
{
    char *name = rpg_fresh(g, prefix);
    char *ts = rpg_ty_str(g, t);
    if (packed) {
        const Tensor *p = rpg_tensor(g, TS_PACKED, t.e, D_K, D_C, false);
        rpg_line(g, "%s %s = load(%s, tj, %s, 0, 0);", ts, name, p->name, rpg_coord(g, D_K));
        return name;
    }
    switch (rpg_pick(g, 4)) {
    case 0:
    case 1: {
        const Tensor *x = rpg_tensor(g, TS_TILE, t.e, t.r, t.c, false);
        rpg_line(g, "%s %s = load(%s, %s%s, %s);", ts, name, x->name, x->rank3 ? "block.z, " : "", rpg_coord(g, t.r), rpg_coord(g, t.c));
        break;
    }
    case 2: {
        /* computed: converted from f32, or scaled */
        Ty src = t;
        src.e = E_F32;
        Ex x = t.e == E_F32 ? rpg_leaf_load(g, t) : rpg_leaf_load(g, src);
        if (t.e != E_F32) {
            rpg_feature(g, RPG_F_CONVERT_T);
            rpg_line(g, "%s %s = convert<%s>(%s);", ts, name, ts, x.s);
        } else {
            rpg_line(g, "%s %s = (%s) * 0.5;", ts, name, x.s);
        }
        break;
    }
    default: {
        Ex x = rpg_bounded(g, rpg_gen_tile(g, t, 1), 2);
        rpg_line(g, "%s %s = %s;", ts, name, x.s);
        break;
    }
    }
    return name;
}

/* A product: an f32 accumulator, a K loop (symbolic, over packed planes,
 * constant, or none), operands of one form and dtype, optionally staged
 * through shared tiles. */
static void stmt_mma(G *g)
{
    static const char *const forms[] = { "mma_ab", "mma_abt", "mma_atb", "mma_atbt" };
    static const RpgFeature ffeat[] = { RPG_F_MMA_AB, RPG_F_MMA_ABT, RPG_F_MMA_ATB, RPG_F_MMA_ATBT };
    int f = rpg_pick(g, 4), e = rpg_pick(g, 3);
    bool packed = f == 0 && rpg_chance(g, 30);
    rpg_feature(g, ffeat[f]);
    rpg_feature(g, e == E_F32 ? RPG_F_MMA_F32 : e == E_BF16 ? RPG_F_MMA_BF16 : RPG_F_MMA_F16);
    rpg_note_elem(g, e);
    Ty acct = rpg_rt(E_F32, D_R, D_C, false);
    char *acc = rpg_fresh(g, "acc");
    double acc_mag = 0;
    if (rpg_chance(g, 75)) {
        rpg_line(g, "%s %s = zeros();", rpg_ty_str(g, acct), acc);
    } else {
        Ex init = rpg_bounded(g, rpg_gen_tile(g, acct, 1), 4);
        rpg_line(g, "%s %s = %s;", rpg_ty_str(g, acct), acc, init.s);
        acc_mag = init.mag;
    }
    /* loop kind: 0 symbolic cdiv(K, TK), 1 constant trip count, 2 a single product */
    unsigned kind = packed ? 0 : rpg_pick(g, 3);
    int64_t trip = kind == 0 ? (packed ? (g->K + g->dim[D_K] - 1) / g->dim[D_K] : (g->K + g->dim[D_K] - 1) / g->dim[D_K]) : kind == 1 ? 1 + rpg_pick(g, 3) : 1;
    const char *saved_k = g->kcoord;
    char *k = rpg_fresh(g, "k");
    if (kind == 0) {
        rpg_feature(g, RPG_F_K_LOOP);
        const char *hi = packed ? "KT" : "cdiv(K, TK)";
        switch (rpg_pick(g, 6)) {
        case 0:
            /* skips the first step: no step at all when K <= TK (an accumulator never multiplied) */
            rpg_line(g, "for (%s in 1 .. %s) {", k, hi);
            trip = trip > 0 ? trip - 1 : 0;
            break;
        case 1:
            /* as many steps as a parameter says, which may be none */
            rpg_line(g, "for (%s in 0 .. min(%s, %s)) {", k, rpg_scalar_param(g, 3), hi);
            break;
        default: rpg_line(g, "for (%s in 0 .. %s) {", k, hi); break;
        }
        g->kcoord = k;
        g->indent++;
    } else if (kind == 1) {
        rpg_feature(g, RPG_F_CONST_LOOP);
        rpg_line(g, "for (%s in 0 .. %d) {", k, (int)trip);
        g->kcoord = k;
        g->indent++;
    } else {
        g->kcoord = NULL;
    }
    rpg_scope_push(g);
    Ty at = mma_a_ty(e, f), bt = mma_b_ty(e, f);
    char *a = mma_operand(g, at, false, "a");
    char *b = mma_operand(g, bt, packed, "b");
    rpg_line(g, "%s(%s, %s, %s);", forms[f], acc, a, b);
    rpg_scope_pop(g);
    if (kind != 2) {
        g->indent--;
        rpg_line(g, "}");
    }
    g->kcoord = saved_k;
    /* operands are loads (≤ 1) or bounded by 2: every k step adds at most 4 per term */
    double steps = kind == 2 ? 1 : (double)trip;
    rpg_declare(g, acc, acct, rpg_grow(acc_mag + steps * g->dim[D_K] * 4), true);
}

/* Shared tiles: a block-collective load, a per-warp restage read back by
 * another warp across sync(), and a collective store. Top level only. */
void rpg_stmt_shared(G *g, Sb *decls)
{
    rpg_feature(g, RPG_F_SHARED);
    rpg_feature(g, RPG_F_SYNC);
    int e = rpg_pick(g, 3);
    rpg_note_elem(g, e);
    char *sname = rpg_fresh(g, "S");
    rpg_sb_printf(g, decls, "    st<%s, TRW, TC> %s;\n", ELEM[e], sname);
    Ty t = rpg_rt(e, D_R, D_C, rpg_chance(g, 30));
    if (rpg_chance(g, 30)) {
        /* shared vectors: one per block loaded collectively, or one sub-vector per warp restaged */
        char *vname = rpg_fresh(g, "V"), *name = rpg_fresh(g, "u");
        if (rpg_chance(g, 50)) {
            rpg_sb_printf(g, decls, "    sv<%s, TC> %s;\n", ELEM[e], vname);
            const Tensor *x = rpg_tensor(g, TS_VEC, e, D_C, 0, false);
            rpg_line(g, "%s = load(%s, block.x);", vname, x->name);
            rpg_line(g, "sync();");
            rpg_line(g, "rv<%s, TC> %s = load(%s);", ELEM[e], name, vname);
            rpg_declare(g, name, rpg_rv(e, D_C), 1, false);
        } else {
            rpg_sb_printf(g, decls, "    sv<%s, TRW> %s;\n", ELEM[e], vname);
            Ex v = rpg_bounded(g, rpg_gen_vec(g, rpg_rv(e, D_R), 2), MAG_LIMIT);
            rpg_line(g, "store(%s, %s, warp.id);", vname, v.s);
            rpg_line(g, "sync();");
            rpg_line(g, "rv<%s, TR> %s = load(%s, %s);", ELEM[e], name, vname, g->W > 1 ? "(warp.id + 1) % W" : "warp.id");
            rpg_declare(g, name, rpg_rv(e, D_R), v.mag, false);
        }
        return;
    }
    if (rpg_chance(g, 50)) {
        const Tensor *x = rpg_tensor(g, TS_TILE, e, D_R, D_C, false);
        if (x->rank3) {
            /* a collective load takes the block's rows: block.y in TRW units */
            rpg_line(g, "%s = load(%s, block.z, block.y, block.x);", sname, x->name);
        } else {
            rpg_line(g, "%s = load(%s, block.y, block.x);", sname, x->name);
        }
        rpg_line(g, "sync();");
        char *name = rpg_fresh(g, "w");
        rpg_line(g, "%s %s = load(%s, warp.id, 0);", rpg_ty_str(g, t), name, sname);
        rpg_declare(g, name, t, 1, false);
        return;
    }
    Ex v = rpg_bounded(g, rpg_gen_tile(g, t, 2), MAG_LIMIT);
    rpg_line(g, "store(%s, %s, warp.id, 0);", sname, v.s);
    rpg_line(g, "sync();");
    char *name = rpg_fresh(g, "w");
    /* another warp's tile: what sync() made visible */
    if (g->W > 1) rpg_line(g, "%s %s = load(%s, (warp.id + 1) %% W, 0);", rpg_ty_str(g, t), name, sname);
    else rpg_line(g, "%s %s = load(%s, warp.id, 0);", rpg_ty_str(g, t), name, sname);
    rpg_declare(g, name, t, v.mag, false);
    if (rpg_chance(g, 40)) {
        const Tensor *y = rpg_tensor(g, TS_TILE, e, D_R, D_C, true);
        if (y->rank3) rpg_line(g, "store(%s, %s, block.z, block.y, block.x);", y->name, sname);
        else rpg_line(g, "store(%s, %s, block.y, block.x);", y->name, sname);
        rpg_feature(g, RPG_F_STORE);
    }
}

/* A product staged through shared tiles, as on a GPU: the block loads A's and
 * B's tiles collectively, sync(), each warp multiplies its rows, sync()
 * before the next step overwrites them (a barrier inside a symbolic loop). */
void rpg_stmt_staged_mma(G *g, Sb *decls)
{
    rpg_feature(g, RPG_F_SHARED);
    rpg_feature(g, RPG_F_SYNC);
    rpg_feature(g, RPG_F_K_LOOP);
    int e = rpg_pick(g, 3);
    bool bt = rpg_chance(g, 40);   /* B given as [N, K]: mma_abt */
    rpg_feature(g, bt ? RPG_F_MMA_ABT : RPG_F_MMA_AB);
    rpg_feature(g, e == E_F32 ? RPG_F_MMA_F32 : e == E_BF16 ? RPG_F_MMA_BF16 : RPG_F_MMA_F16);
    rpg_note_elem(g, e);
    char *as = rpg_fresh(g, "S"), *bs = rpg_fresh(g, "S"), *acc = rpg_fresh(g, "acc"), *k = rpg_fresh(g, "k");
    rpg_sb_printf(g, decls, "    st<%s, TRW, TK> %s;\n", ELEM[e], as);
    rpg_sb_printf(g, decls, "    st<%s, %s> %s;\n", ELEM[e], bt ? "TC, TK" : "TK, TC", bs);
    const Tensor *A = rpg_tensor(g, TS_TILE, e, D_R, D_K, false);
    const Tensor *B = bt ? rpg_tensor(g, TS_TILE, e, D_C, D_K, false) : rpg_tensor(g, TS_TILE, e, D_K, D_C, false);
    rpg_line(g, "rt<f32, TR, TC> %s = zeros();", acc);
    rpg_line(g, "for (%s in 0 .. cdiv(K, TK)) {", k);
    g->indent++;
    rpg_line(g, "%s = load(%s, %sblock.y, %s);", as, A->name, A->rank3 ? "block.z, " : "", k);
    if (bt) rpg_line(g, "%s = load(%s, %sblock.x, %s);", bs, B->name, B->rank3 ? "block.z, " : "", k);
    else rpg_line(g, "%s = load(%s, %s%s, block.x);", bs, B->name, B->rank3 ? "block.z, " : "", k);
    rpg_line(g, "sync();");
    char *a = rpg_fresh(g, "a"), *b = rpg_fresh(g, "b");
    rpg_line(g, "rt<%s, TR, TK> %s = load(%s, warp.id, 0);", ELEM[e], a, as);
    if (bt) rpg_line(g, "rt<%s, TC, TK> %s = load(%s);", ELEM[e], b, bs);
    else rpg_line(g, "rt<%s, TK, TC, col> %s = load(%s);", ELEM[e], b, bs);
    rpg_line(g, "%s(%s, %s, %s);", bt ? "mma_abt" : "mma_ab", acc, a, b);
    rpg_line(g, "sync();");
    g->indent--;
    rpg_line(g, "}");
    rpg_declare(g, acc, rpg_rt(E_F32, D_R, D_C, false), rpg_grow((double)((g->K + g->dim[D_K] - 1) / g->dim[D_K]) * g->dim[D_K]), true);
}

/* A sum over the tiles of this warp's rows (a loop with symbolic bounds that is no product). */
static void stmt_row_loop(G *g, int depth)
{
    rpg_feature(g, RPG_F_K_LOOP);
    Ty t = rpg_rt(rpg_chance(g, 60) ? E_F32 : rpg_pick(g, 3), D_R, D_C, rpg_chance(g, 25));
    char *m = rpg_fresh(g, "m"), *c = rpg_fresh(g, "c");
    rpg_line(g, "%s %s = zeros();", rpg_ty_str(g, t), m);
    rpg_line(g, "for (%s in 0 .. cdiv(N, TC)) {", c);
    g->indent++;
    rpg_scope_push(g);
    const char *saved = g->ccoord;
    g->ccoord = c;
    Ex e = rpg_bounded(g, rpg_gen_tile(g, t, depth), 2);
    g->ccoord = saved;
    rpg_line(g, "%s += %s;", m, e.s);
    rpg_scope_pop(g);
    g->indent--;
    rpg_line(g, "}");
    rpg_feature(g, RPG_F_COMPOUND);
    rpg_declare(g, m, t, rpg_grow(2.0 * (double)((g->N + g->dim[D_C] - 1) / g->dim[D_C])), true);
}

char *rpg_gen_cond(G *g)
{
    switch (rpg_pick(g, 9)) {
    case 7: return rpg_str(g, "(%s) || (%s)", rpg_gen_cond(g), rpg_gen_cond(g));
    case 8: return rpg_str(g, "!(%s) && (%s)", rpg_gen_cond(g), rpg_gen_cond(g));
    case 0: return rpg_str(g, "%s > %d", rpg_scalar_param(g, 3), (int)rpg_pick(g, 10));
    case 1: return rpg_str(g, "block.x %% 2 == 0");
    case 2: return rpg_str(g, "ti < %d", (int)rpg_pick(g, 3) + 1);
    case 3: return rpg_str(g, "warp.id == 0");
    case 4: return rpg_str(g, "tj * TC + TC <= N");
    case 5: return rpg_str(g, "M - TR * ti > %d", (int)rpg_pick(g, 40));
    default: {
        if (!g->flag_made) {
            g->flag_made = true;
            rpg_sb_printf(g, &g->params, "%sbool flag", g->params.n ? ", " : "");
            rpg_feature(g, RPG_F_SCALAR_PARAM);
        }
        return rpg_str(g, "%sflag", rpg_chance(g, 50) ? "!" : "");
    }
    }
}

/* An expression of tile type dst made from variable src (a tile of any shape,
 * dtype or layout, a vector or a scalar), so that src's value reaches dst; NULL if none. */
static char *as_tile(G *g, Ty dst, const Var *src)
{
    Ty t = src->t;
    char *ds = rpg_ty_str(g, dst);
    if (t.k == T_FS) return rpg_str(g, "fill<%s>(%s)", ds, t.e == dst.e ? src->name : rpg_str(g, "convert<%s>(%s)", ELEM[dst.e], src->name));
    if (t.k == T_RV) {
        if (t.r != dst.r && t.r != dst.c) return NULL;
        char *v = t.e == dst.e ? rpg_str(g, "%s", src->name) : rpg_str(g, "convert<rv<%s, %s>>(%s)", ELEM[dst.e], DIM_NAME[t.r], src->name);
        return rpg_str(g, "add_%s(zeros<%s>(), %s)", t.r == dst.r ? "row" : "col", ds, v);
    }
    if (t.r == dst.r && t.c == dst.c) return rpg_ty_eq(t, dst) ? rpg_str(g, "%s", src->name) : rpg_str(g, "convert<%s>(%s)", ds, src->name);
    if (t.r == dst.c && t.c == dst.r) return rpg_str(g, "convert<%s>(transpose(%s))", ds, src->name);
    return NULL;
}

/* Adds the value of every variable of the current scope that nothing read into sink. */
static void consume_scope(G *g, Var *sink)
{
    for (unsigned i = g->nvars; i-- > 0 && g->vars[i].depth == g->depth;) {
        Var *v = &g->vars[i];
        if (v->used || v == sink) continue;
        char *e = as_tile(g, sink->t, v);
        if (!e) continue;
        v->used = true;
        Ex x = rpg_bounded(g, (Ex){ .s = e, .mag = v->mag }, 4);
        rpg_line(g, "%s += %s;", sink->name, x.s);
        sink->mag = rpg_grow(sink->mag + g->loop_trip * x.mag);
    }
}

/* A mutable tile variable of the enclosing scope for a block's results to flow into. */
static Var *sink_for_block(G *g)
{
    Ty t = rpg_rt(rpg_chance(g, 70) ? E_F32 : rpg_pick(g, 3), D_R, D_C, rpg_chance(g, 20));
    Var *v = rpg_find_var(g, t, true);
    if (v) return v;
    char *name = rpg_fresh(g, "m");
    rpg_line(g, "%s %s = zeros();", rpg_ty_str(g, t), name);
    return rpg_declare(g, name, t, 0, true);
}

static void stmt_if(G *g, int depth)
{
    rpg_feature(g, RPG_F_IF);
    Var *sink = sink_for_block(g);
    unsigned sink_index = (unsigned)(sink - g->vars);
    rpg_line(g, "if (%s) {", rpg_gen_cond(g));
    g->indent++;
    rpg_scope_push(g);
    rpg_gen_stmts(g, 1 + rpg_pick(g, 2), depth);
    consume_scope(g, &g->vars[sink_index]);
    rpg_scope_pop(g);
    g->indent--;
    if (rpg_chance(g, 60)) {
        rpg_line(g, "} else {");
        g->indent++;
        rpg_scope_push(g);
        rpg_gen_stmts(g, 1 + rpg_pick(g, 2), depth);
        consume_scope(g, &g->vars[sink_index]);
        rpg_scope_pop(g);
        g->indent--;
    }
    rpg_line(g, "}");
}

static void stmt_const_loop(G *g, int depth)
{
    rpg_feature(g, RPG_F_CONST_LOOP);
    int n = 2 + (int)rpg_pick(g, 3);
    unsigned sink = (unsigned)(sink_for_block(g) - g->vars);   /* before the loop: its results flow out */
    char *j = rpg_fresh(g, "j");
    rpg_line(g, "for (%s in 0 .. %d) {", j, n);
    g->indent++;
    rpg_scope_push(g);
    const char *cvar = g->cvar;
    int cvar_hi = g->cvar_hi;
    unsigned trip = g->loop_trip;
    g->cvar = j;
    g->cvar_hi = n;
    g->loop_trip *= (unsigned)n;
    rpg_gen_stmts(g, 1 + rpg_pick(g, 2), depth);
    consume_scope(g, &g->vars[sink]);
    g->loop_trip = trip;
    g->cvar = cvar;
    g->cvar_hi = cvar_hi;
    rpg_scope_pop(g);
    g->indent--;
    rpg_line(g, "}");
}

/* An array of tiles or vectors (lang/arrays.c): declared, filled by a loop
 * with constant bounds that indexes it (unrolled), maybe one element scaled
 * by a constant index; then its elements are ordinary variables named a3[0]
 * … (a constant index is valid source anywhere a name is). */
static void stmt_array(G *g, int depth)
{
    rpg_feature(g, RPG_F_ARRAY);
    bool vec = rpg_chance(g, 30);
    Ty t = vec ? rpg_rv(rpg_pick(g, 3), rpg_pick(g, 2)) : random_tile_ty(g);
    int n = 2 + (int)rpg_pick(g, 3);
    char *a = rpg_fresh(g, "a");
    char *ts = rpg_ty_str(g, t);
    double mag = 0;
    switch (rpg_pick(g, 3)) {
    case 0: rpg_line(g, "%s %s[%d];", ts, a, n); break;
    case 1: rpg_line(g, "%s %s[%d] = zeros();", ts, a, n); break;
    default: {
        Ex e = rpg_bounded(g, vec ? rpg_gen_vec(g, t, depth) : rpg_gen_tile(g, t, depth), 2);
        rpg_line(g, "%s %s[%d] = %s;", ts, a, n, e.s);
        mag = e.mag;
        break;
    }
    }
    rpg_feature(g, RPG_F_CONST_LOOP);
    char *j = rpg_fresh(g, "j");
    rpg_line(g, "for (%s in 0 .. %d) {", j, n);
    g->indent++;
    rpg_scope_push(g);
    Ex e = rpg_bounded(g, vec ? rpg_gen_vec(g, t, depth) : rpg_gen_tile(g, t, depth), 2);
    /* every element once, in order or backwards */
    char *ix = rpg_chance(g, 30) ? rpg_str(g, "%d - %s", n - 1, j) : j;
    rpg_line(g, "%s[%s] = %s[%s] + %s;", a, ix, a, ix, e.s);
    rpg_scope_pop(g);
    g->indent--;
    rpg_line(g, "}");
    mag += e.mag;
    if (rpg_chance(g, 50)) {
        int k = (int)rpg_pick(g, (unsigned)n);
        rpg_line(g, "%s[%d] = (%s[%d]) * 0.5;", a, k, a, k);
    }
    for (int i = 0; i < n; i++) rpg_declare(g, rpg_str(g, "%s[%d]", a, i), t, mag, true);
}

/* A helper that stores a tile through its gl parameter (the helper's own sizes R, C unify with the kernel's). */
static const char *store_helper(G *g, int e)
{
    static const char *const names[] = { "put_f32", "put_bf16", "put_f16" };
    if (!g->put_made[e]) {
        g->put_made[e] = true;
        rpg_sb_printf(g, &g->helpers, "fn %s(gl<%s, R, C> Y, rt<%s, TR, TC> t, i32 i, i32 j) {\n    store(Y, t, i, j);\n}\n\n", names[e], ELEM[e],
                  ELEM[e]);
    }
    return names[e];
}

/* A store of a value into an output tensor (an element type the value may need converting to). */
static void stmt_store(G *g, int depth)
{
    rpg_feature(g, RPG_F_STORE);
    int e = rpg_pick(g, 3);
    unsigned kind = rpg_pick(g, 10);
    if (kind == 1 && !g->rank3 && rpg_chance(g, 40)) {
        rpg_feature(g, RPG_F_HELPER);
        const char *h = store_helper(g, e);
        const Tensor *y = rpg_tensor(g, TS_TILE, e, D_R, D_C, true);
        Ex x = rpg_gen_tile(g, rpg_rt(e, D_R, D_C, false), depth);
        rpg_line(g, "%s(%s, %s, ti, tj);", h, y->name, x.s);
        return;
    }
    if (kind == 0 && rpg_chance(g, 30)) {
        /* into a packed tensor, one plane per warp's tile (a pack kernel) */
        const Tensor *y = rpg_tensor(g, TS_PACKED, e, D_R, D_C, true);
        Ex x = rpg_gen_tile(g, rpg_rt(e, D_R, D_C, rpg_chance(g, 25)), depth);
        rpg_line(g, "store(%s, %s, tj, ti, 0, 0);", y->name, x.s);
    } else if (kind < 6) {
        const Tensor *y = rpg_tensor(g, TS_TILE, e, D_R, D_C, true);
        Ty t = rpg_rt(e, D_R, D_C, rpg_chance(g, 25));
        Var *v = rpg_find_var(g, rpg_rt(E_F32, D_R, D_C, false), false);
        Ex x = v && e == E_F32 && rpg_chance(g, 40) ? (Ex){ .s = rpg_str(g, "%s", v->name), .mag = v->mag } : rpg_gen_tile(g, t, depth);
        if (y->rank3) rpg_line(g, "store(%s, %s, block.z, ti, tj);", y->name, x.s);
        else rpg_line(g, "store(%s, %s, ti, tj);", y->name, x.s);
    } else if (kind < 7) {
        const Tensor *y = rpg_tensor(g, TS_TILE, e, D_C, D_R, true);
        Ex x = rpg_gen_tile(g, rpg_rt(e, D_C, D_R, rpg_chance(g, 25)), depth);
        if (y->rank3) rpg_line(g, "store(%s, %s, block.z, tj, ti);", y->name, x.s);
        else rpg_line(g, "store(%s, %s, tj, ti);", y->name, x.s);
    } else if (kind < 9) {
        /* one value per row: the blocks of column 0 write it */
        const Tensor *y = rpg_tensor(g, TS_VEC, e, D_R, 0, true);
        Ex x = rpg_gen_vec(g, rpg_rv(e, D_R), depth);
        rpg_line(g, "if (block.x == 0%s) {", g->rank3 ? " && block.z == 0" : "");
        rpg_line(g, "    store(%s, %s, ti);", y->name, x.s);
        rpg_line(g, "}");
    } else {
        /* one value per column: warp 0 of the blocks of row 0 */
        const Tensor *y = rpg_tensor(g, TS_VEC, e, D_C, 0, true);
        Ex x = rpg_gen_vec(g, rpg_rv(e, D_C), depth);
        rpg_line(g, "if (block.y == 0 && warp.id == 0%s) {", g->rank3 ? " && block.z == 0" : "");
        rpg_line(g, "    store(%s, %s, tj);", y->name, x.s);
        rpg_line(g, "}");
    }
}

void rpg_gen_stmts(G *g, unsigned n, int depth)
{
    bool nested = g->depth > 0;
    for (unsigned i = 0; i < n && !g->oom; i++) {
        /* let, var, assign, mma, if, constant loop, store, row loop, array */
        unsigned w[] = { 5, 2, 3, nested ? 1u : 3u, nested ? 0u : 2u, nested ? 0u : 2u, nested ? 0u : 2u, nested ? 0u : 1u, 1 };
        switch (rpg_weighted(g, w, 9)) {
        case 0: stmt_let(g, depth); break;
        case 1: stmt_var(g, depth); break;
        case 2: stmt_assign(g, depth); break;
        case 3: stmt_mma(g); break;
        case 4: stmt_if(g, depth - 1 > 1 ? depth - 1 : 1); break;
        case 5: stmt_const_loop(g, depth - 1 > 1 ? depth - 1 : 1); break;
        case 6: stmt_store(g, depth); break;
        case 8: stmt_array(g, depth); break;
        default: stmt_row_loop(g, depth - 1 > 1 ? depth - 1 : 1); break;
        }
    }
}

/* Every top-level value nothing read goes to an output of its own (a few),
 * or into one sum that does: no computation is dead code. */
void rpg_store_the_rest(G *g)
{
    unsigned fresh_outputs = 0;
    Var *sink = NULL;
    for (unsigned i = 0; i < g->nvars; i++) {
        Var *v = &g->vars[i];
        if (v->used || v->depth != 0 || v->t.k == T_FS) continue;
        v->used = true;
        const char *z = g->rank3 ? "block.z, " : "";
        const char *zc = g->rank3 ? " && block.z == 0" : "";
        if (fresh_outputs < 4 && !g->oom) {
            fresh_outputs++;
            rpg_feature(g, RPG_F_STORE);
            Ty t = v->t;
            Ex x = rpg_bounded(g, (Ex){ .s = rpg_str(g, "%s", v->name), .mag = v->mag }, 1e6);
            if (t.k == T_RV) {
                const Tensor *y = rpg_tensor_new(g, TS_VEC, t.e, t.r, 0, true, true);
                rpg_line(g, "if (%s%s) {", t.r == D_R ? "block.x == 0" : "block.y == 0 && warp.id == 0", zc);
                rpg_line(g, "    store(%s, %s, %s);", y->name, x.s, t.r == D_R ? "ti" : "tj");
                rpg_line(g, "}");
            } else if ((t.r == D_R && t.c == D_C) || (t.r == D_C && t.c == D_R)) {
                bool tr = t.r == D_C;
                const Tensor *y = rpg_tensor_new(g, TS_TILE, t.e, t.r, t.c, true, true);
                rpg_line(g, "store(%s, %s, %s%s);", y->name, x.s, y->rank3 ? z : "", tr ? "tj, ti" : "ti, tj");
            }
            continue;
        }
        if (!sink) {
            sink = sink_for_block(g);
            sink->used = false;
        }
        char *e = as_tile(g, sink->t, v);
        if (!e) continue;
        Ex x = rpg_bounded(g, (Ex){ .s = e, .mag = v->mag }, 4);
        rpg_line(g, "%s += %s;", sink->name, x.s);
        sink->mag = rpg_grow(sink->mag + x.mag);
    }
    if (sink && !sink->used) {
        const Tensor *y = rpg_tensor_new(g, TS_TILE, sink->t.e, D_R, D_C, true, true);
        rpg_line(g, "store(%s, %s, %sti, tj);", y->name, sink->name, y->rank3 ? "block.z, " : "");
    }
}
