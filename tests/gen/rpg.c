/* rpg.c — see rpg.h; the driver of the generator (its expressions are in
 * rpg_expr.c, its statements in rpg_stmt.c, what they share in
 * rpg_internal.h). One pass writes the program: the constants, helpers
 * (made on demand while the body is written), the parameter list (tensors
 * and scalars are made on demand too) and the body, each into its own buffer,
 * joined at the end.
 *
 * Expressions are typed on the way down: rpg_gen_tile(t) returns an expression
 * of exactly type t, so validity never depends on luck. Alongside each
 * expression goes `mag`, a bound on the magnitude of its values for inputs
 * in [-1, 1); an operand that would grow past MAG_LIMIT is scaled by a power
 * of two (exact in every dtype) first, exp gets arguments of magnitude ≤ 4,
 * and divisors, logarithms and roots get |x| + c. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpg_internal.h"

/* ---------------------------------------------------------------- memory, text */

static void sb_vprintf(G *g, Sb *b, const char *fmt, va_list ap)
{
    if (g->oom) return;
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0) return;
    if (b->n + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + (size_t)n + 1) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            g->oom = true;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    b->n += (size_t)n;
}

void rpg_sb_printf(G *g, Sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(g, b, fmt, ap);
    va_end(ap);
}

/* A formatted string that lives until the end of the generation. */
char *rpg_str(G *g, const char *fmt, ...)
{
    static char empty[] = "0";
    if (g->oom || g->nstrs == MAX_STRS) {
        g->oom = true;
        return empty;
    }
    va_list ap;
    va_start(ap, fmt);
    Sb b = { 0 };
    sb_vprintf(g, &b, fmt, ap);
    va_end(ap);
    if (!b.s) {
        g->oom = true;
        return empty;
    }
    g->strs[g->nstrs++] = b.s;
    return b.s;
}

/* A line of the body at the current indentation. */
void rpg_line(G *g, const char *fmt, ...)
{
    rpg_sb_printf(g, &g->body, "%*s", (int)(4 * g->indent), "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(g, &g->body, fmt, ap);
    va_end(ap);
    rpg_sb_printf(g, &g->body, "\n");
}

/* ---------------------------------------------------------------- choices */

unsigned rpg_pick(G *g, unsigned n)
{
    if (n <= 1) return 0;
    if (g->bytes) {
        /* fuzz mode: one byte per choice; past the end every choice is 0 (the simplest) */
        unsigned v = g->pos < g->nbytes ? g->bytes[g->pos] : 0;
        g->pos++;
        return v % n;
    }
    g->rng ^= g->rng << 13;
    g->rng ^= g->rng >> 7;
    g->rng ^= g->rng << 17;
    return (unsigned)((g->rng * 0x2545F4914F6CDD1Dull) >> 33) % n;
}

bool rpg_chance(G *g, unsigned pct) { return rpg_pick(g, 100) < pct; }

/* Picks an index by weight; weights of 0 are never taken (all 0: -1). */
int rpg_weighted(G *g, const unsigned *w, unsigned n)
{
    unsigned total = 0;
    for (unsigned i = 0; i < n; i++) total += w[i];
    if (!total) return -1;
    unsigned x = rpg_pick(g, total);
    for (unsigned i = 0; i < n; i++) {
        if (x < w[i]) return (int)i;
        x -= w[i];
    }
    return (int)n - 1;
}

void rpg_feature(G *g, RpgFeature f) { g->features[f]++; }

/* A float literal: always with a point, so that it is an untyped float, never an int. */
char *rpg_flit(G *g, double v)
{
    char *t = rpg_str(g, "%.17g", v);
    return strpbrk(t, ".en") ? t : rpg_str(g, "%s.0", t);
}

char *rpg_fresh(G *g, const char *prefix) { return rpg_str(g, "%s%u", prefix, ++g->names); }

/* ---------------------------------------------------------------- types as text */

char *rpg_ty_str(G *g, Ty t)
{
    switch (t.k) {
    case T_RT: return rpg_str(g, "rt<%s, %s, %s%s>", ELEM[t.e], DIM_NAME[t.r], DIM_NAME[t.c], t.col ? ", col" : "");
    case T_RV: return rpg_str(g, "rv<%s, %s>", ELEM[t.e], DIM_NAME[t.r]);
    default: return rpg_str(g, "%s", ELEM[t.e]);
    }
}

bool rpg_ty_eq(Ty a, Ty b)
{
    if (a.k != b.k || a.e != b.e) return false;
    if (a.k == T_FS) return true;
    if (a.r != b.r) return false;
    return a.k == T_RV || (a.c == b.c && a.col == b.col);
}

Ty rpg_rt(int e, int r, int c, bool col) { return (Ty){ T_RT, e, r, c, col }; }
Ty rpg_rv(int e, int r) { return (Ty){ T_RV, e, r, 0, false }; }

/* ---------------------------------------------------------------- tensors and scalars */

void rpg_note_elem(G *g, int e)
{
    if (e == E_BF16) rpg_feature(g, RPG_F_BF16);
    if (e == E_F16) rpg_feature(g, RPG_F_F16);
}

/* The tensor parameter for a shape, made on first use. Inputs are named X*, outputs Y*. */

const Tensor *rpg_tensor(G *g, TensorShape shape, int e, int a, int b, bool out)
{
    return rpg_tensor_new(g, shape, e, a, b, out, false);
}

/* ... or, with fresh_out, always a new output (for a value no other store overwrites). */
const Tensor *rpg_tensor_new(G *g, TensorShape shape, int e, int a, int b, bool out, bool fresh_out)
{
    bool rank3 = g->rank3 && shape == TS_TILE && !out ? rpg_chance(g, 50) : (g->rank3 && shape == TS_TILE && out);
    for (unsigned i = 0; i < g->ntens && !(fresh_out && g->ntens < MAX_TENSORS - 2); i++) {
        const Tensor *t = &g->tens[i];
        if (t->shape == shape && t->e == e && t->a == a && t->b == b && t->out == out && (out || t->rank3 == rank3)) return t;
    }
    if (g->ntens == MAX_TENSORS) {
        /* reuse any input of this shape */
        for (unsigned i = 0; i < g->ntens; i++)
            if (g->tens[i].shape == shape && g->tens[i].e == e && g->tens[i].a == a && g->tens[i].b == b && !g->tens[i].out) return &g->tens[i];
        g->oom = true;
        return &g->tens[0];
    }
    Tensor *t = &g->tens[g->ntens];
    *t = (Tensor){ .shape = shape, .e = e, .a = a, .b = b, .rank3 = rank3, .out = out };
    snprintf(t->name, sizeof t->name, "%c%u", out ? 'Y' : 'X', g->ntens);
    g->ntens++;
    rpg_note_elem(g, e);
    const char *sep = g->params.n ? ", " : "";
    switch (shape) {
    case TS_TILE:
        rpg_sb_printf(g, &g->params, "%sgl<%s, %s%s, %s> %s", sep, ELEM[e], rank3 ? "B, " : "", SIZE_OF[a], SIZE_OF[b], t->name);
        g->sizes_used[a] = g->sizes_used[b] = true;
        if (rank3) {
            g->sizes_used[3] = true;
            rpg_feature(g, RPG_F_RANK3);
        }
        break;
    case TS_VEC:
        rpg_sb_printf(g, &g->params, "%sgl<%s, %s> %s", sep, ELEM[e], SIZE_OF[a], t->name);
        g->sizes_used[a] = true;
        break;
    case TS_PACKED:
        /* planes of B tiles (K × C: the product's operand), or of output tiles (R × C) */
        if (a == D_K) {
            rpg_sb_printf(g, &g->params, "%sgl<%s, NB, KT, TK, TC, packed> %s", sep, ELEM[e], t->name);
            g->sizes_used[4] = g->sizes_used[5] = true;
        } else {
            rpg_sb_printf(g, &g->params, "%sgl<%s, NB, MT, TR, TC, packed> %s", sep, ELEM[e], t->name);
            g->sizes_used[4] = g->sizes_used[6] = true;
        }
        rpg_feature(g, RPG_F_PACKED);
        break;
    }
    return t;
}

/* The tile coordinate of a role. */
const char *rpg_coord(G *g, int role)
{
    if (role == D_R) return "ti";
    if (role == D_C) return g->ccoord ? g->ccoord : "tj";
    return g->kcoord ? g->kcoord : "0";
}

/* A scalar parameter: 0 s0 (f32), 1 h0 (bf16), 2 q0 (f16), 3 n0 (i32). */
const char *rpg_scalar_param(G *g, int which)
{
    static const char *const names[] = { "s0", "h0", "q0", "n0" };
    static const char *const types[] = { "f32", "bf16", "f16", "i32" };
    if (!g->scalar_made[which]) {
        g->scalar_made[which] = true;
        rpg_sb_printf(g, &g->params, "%s%s %s", g->params.n ? ", " : "", types[which], names[which]);
        rpg_feature(g, RPG_F_SCALAR_PARAM);
    }
    return names[which];
}

/* ---------------------------------------------------------------- variables */

Var *rpg_declare(G *g, const char *name, Ty t, double mag, bool mut)
{
    if (g->nvars == MAX_VARS) {
        g->oom = true;
        return &g->vars[0];
    }
    Var *v = &g->vars[g->nvars++];
    *v = (Var){ .t = t, .mag = mag, .mut = mut, .depth = g->depth };
    snprintf(v->name, sizeof v->name, "%s", name);
    return v;
}

void rpg_scope_push(G *g) { g->depth++; }

void rpg_scope_pop(G *g)
{
    while (g->nvars && g->vars[g->nvars - 1].depth == g->depth) g->nvars--;
    g->depth--;
}

/* A random visible variable of type t (mutable only if asked), or NULL. */
Var *rpg_find_var(G *g, Ty t, bool need_mut)
{
    unsigned n = 0;
    for (unsigned i = 0; i < g->nvars; i++)
        if (!g->vars[i].hidden && rpg_ty_eq(g->vars[i].t, t) && (!need_mut || g->vars[i].mut)) n++;
    if (!n) return NULL;
    unsigned k = rpg_pick(g, n);
    for (unsigned i = 0; i < g->nvars; i++)
        if (!g->vars[i].hidden && rpg_ty_eq(g->vars[i].t, t) && (!need_mut || g->vars[i].mut) && k-- == 0) {
            g->vars[i].used = true;
            return &g->vars[i];
        }
    return NULL;
}

/* ---------------------------------------------------------------- magnitudes */

/* e scaled by a power of two so that its magnitude is at most lim. */
Ex rpg_bounded(G *g, Ex e, double lim)
{
    if (e.mag <= lim) return e;
    double f = 1;
    while (e.mag * f > lim) f /= 2;
    return (Ex){ .s = rpg_str(g, "(%s) * %s", e.s, rpg_flit(g, f)), .mag = e.mag * f };
}

double rpg_grow(double m) { return m > 1e30 ? 1e30 : m; }

/* ---------------------------------------------------------------- the program */

static const int DIMS[] = { 16, 32, 48, 64, 96, 128 };
static const int64_t SIZES[] = { 1, 3, 16, 17, 31, 33, 47, 64, 65, 97, 100, 127, 129, 150 };
static const int64_t KSIZES[] = { 1, 7, 16, 17, 33, 48, 63, 65, 100, 130 };

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int rpg_generate(const RpgOptions *o, RpgProgram *out)
{
    memset(out, 0, sizeof *out);
    G *g = calloc(1, sizeof *g);
    if (!g) return -1;
    g->rng = o->seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    if (!g->rng) g->rng = 1;
    g->bytes = o->bytes;
    g->nbytes = o->nbytes;
    g->features = out->features;
    g->loop_trip = 1;
    if (o->kernel_name) snprintf(out->kernel, sizeof out->kernel, "%s", o->kernel_name);
    else snprintf(out->kernel, sizeof out->kernel, "g%llu", (unsigned long long)o->seed);

    /* tiles: products want the depth too; keep a block's work small for the interpreter */
    g->dim[D_R] = DIMS[rpg_pick(g, 5)];
    g->dim[D_C] = DIMS[rpg_pick(g, 5)];
    g->dim[D_K] = DIMS[rpg_pick(g, 4)];
    if (rpg_chance(g, 8)) g->dim[D_R] = 128, g->dim[D_C] = 64;   /* the write-through path of big accumulators */
    g->W = rpg_chance(g, 60) ? 1 : 2 + (int)rpg_pick(g, 3);
    if (g->W * g->dim[D_R] > 256) g->W = 256 / g->dim[D_R];
    if (g->W > 1) rpg_feature(g, RPG_F_WARPS);
    g->rank3 = rpg_chance(g, 15);
    g->M = SIZES[rpg_pick(g, 14)];
    g->N = SIZES[rpg_pick(g, 14)];
    g->K = KSIZES[rpg_pick(g, 10)];
    g->B = 1 + rpg_pick(g, 3);

    Sb decls = { 0 };
    rpg_sb_printf(g, &g->body, "    let ti = %s;\n", g->W == 1 && rpg_chance(g, 50) ? "block.y" : "block.y * W + warp.id");
    rpg_sb_printf(g, &g->body, "    let tj = block.x;\n");
    g->indent = 1;

    unsigned nst = o->max_stmts ? o->max_stmts : 10;
    nst = 2 + rpg_pick(g, nst - 1);
    bool shared_done = false;
    for (unsigned i = 0; i < nst && !g->oom; i++) {
        if (!shared_done && rpg_chance(g, 14)) {
            if (rpg_chance(g, 50)) rpg_stmt_staged_mma(g, &decls);
            else rpg_stmt_shared(g, &decls);
            shared_done = rpg_chance(g, 50);
            continue;
        }
        rpg_gen_stmts(g, 1, 3);
    }
    /* the primary output, always: a tile of the last tile variable, or fresh;
     * with warps(1), the output-view form store(Y, acc, block.y, block.x) */
    {
        Var *acc = NULL;
        for (unsigned i = 0; i < g->nvars; i++)
            if (strncmp(g->vars[i].name, "acc", 3) == 0 && g->vars[i].depth == 0) acc = &g->vars[i];
        const Tensor *y = rpg_tensor(g, TS_TILE, E_F32, D_R, D_C, true);
        rpg_feature(g, RPG_F_STORE);
        if (acc && rpg_chance(g, 60)) {
            rpg_feature(g, g->W == 1 ? RPG_F_OUT_VIEW : RPG_F_STORE);
            const char *z = y->rank3 ? "block.z, " : "";
            if (g->W == 1) rpg_line(g, "store(%s, %s, %sblock.y, block.x);", y->name, acc->name, z);
            else rpg_line(g, "store(%s, %s, %sti, tj);", y->name, acc->name, z);
            acc->used = true;
        } else {
            if (acc) rpg_feature(g, RPG_F_EPILOGUE);
            Ex x = rpg_bounded(g, rpg_gen_tile(g, rpg_rt(E_F32, D_R, D_C, false), 3), 1e6);
            if (y->rank3) rpg_line(g, "store(%s, %s, block.z, ti, tj);", y->name, x.s);
            else rpg_line(g, "store(%s, %s, ti, tj);", y->name, x.s);
        }
    }
    rpg_store_the_rest(g);
    /* a product loop over cdiv(K, TK) whose operands read no tensor of K: a
     * K-long input binds the size (else "unknown name 'K'") */
    if (!g->sizes_used[2] && g->body.s && strstr(g->body.s, "cdiv(K, TK)")) rpg_tensor(g, TS_VEC, E_F32, D_K, 0, false);

    /* join: constants, helpers, kernel */
    Sb src = { 0 };
    rpg_sb_printf(g, &src, "// generated by tk_difftest (tests/gen/rpg.c), seed %llu\n", (unsigned long long)o->seed);
    rpg_sb_printf(g, &src, "const TR = %d;\nconst TC = %d;\nconst TK = %d;\nconst W = %d;\nconst TRW = TR * W;\n\n", g->dim[D_R], g->dim[D_C],
              g->dim[D_K], g->W);
    if (g->helpers.s) rpg_sb_printf(g, &src, "%s", g->helpers.s);
    rpg_sb_printf(g, &src, "kernel %s(%s)\n    grid(cdiv(N, TC), cdiv(M, TRW)%s) warps(W)\n{\n", out->kernel, g->params.s ? g->params.s : "",
              g->sizes_used[3] ? ", B" : "");
    if (decls.s) rpg_sb_printf(g, &src, "%s", decls.s);
    rpg_sb_printf(g, &src, "%s}\n", g->body.s ? g->body.s : "");

    /* the case */
    int64_t vals[7] = { g->M, g->N, g->K, g->B, cdiv(g->N, g->dim[D_C]), cdiv(g->K, g->dim[D_K]), cdiv(g->M, g->dim[D_R]) };
    static const char *const names[7] = { "M", "N", "K", "B", "NB", "KT", "MT" };
    if (rpg_chance(g, 20)) vals[4] += (int64_t)rpg_pick(g, 3) - 1;   /* planes missing or spare: masked */
    if (vals[4] < 1) vals[4] = 1;
    size_t n = 0;
    for (int i = 0; i < 7; i++)
        if (g->sizes_used[i]) n += (size_t)snprintf(out->sizes + n, sizeof out->sizes - n, "%s%s=%lld", n ? "," : "", names[i], (long long)vals[i]);
    n = 0;
    static const char *const snames[4] = { "s0", "h0", "q0", "n0" };
    static const double svals[] = { 0.5, 0.75, 1.25, -1.5, 2.0 };
    for (int i = 0; i < 4; i++) {
        if (!g->scalar_made[i]) continue;
        if (i < 3) n += (size_t)snprintf(out->scalars + n, sizeof out->scalars - n, "%s%s=%g", n ? "," : "", snames[i], svals[rpg_pick(g, 5)]);
        else n += (size_t)snprintf(out->scalars + n, sizeof out->scalars - n, "%sn0=%d", n ? "," : "", (int)rpg_pick(g, 45) - 5);
    }
    if (g->flag_made) n += (size_t)snprintf(out->scalars + n, sizeof out->scalars - n, "%sflag=%s", n ? "," : "", rpg_chance(g, 50) ? "true" : "false");
    if (!n) snprintf(out->scalars, sizeof out->scalars, "-");

    bool oom = g->oom || !src.s;
    out->source = src.s;
    free(decls.s);
    free(g->helpers.s);
    free(g->params.s);
    free(g->body.s);
    free(g->consts.s);
    for (unsigned i = 0; i < g->nstrs; i++) free(g->strs[i]);
    free(g);
    if (oom) {
        free(out->source);
        out->source = NULL;
        return -1;
    }
    return 0;
}

void rpg_free(RpgProgram *p)
{
    free(p->source);
    p->source = NULL;
}

const char *rpg_feature_name(unsigned f)
{
#define RPG_FEATURE_NAME(id, name) name,
    static const char *const names[] = { RPG_FEATURES(RPG_FEATURE_NAME) };
#undef RPG_FEATURE_NAME
    return f < RPG_NFEATURES ? names[f] : "?";
}
