/* rpg.c — see rpg.h. One pass writes the program: the constants, helpers
 * (made on demand while the body is written), the parameter list (tensors
 * and scalars are made on demand too) and the body, each into its own buffer,
 * joined at the end.
 *
 * Expressions are typed on the way down: gen_tile(t) returns an expression
 * of exactly type t, so validity never depends on luck. Alongside each
 * expression goes `mag`, a bound on the magnitude of its values for inputs
 * in [-1, 1); an operand that would grow past MAG_LIMIT is scaled by a power
 * of two (exact in every dtype) first, exp gets arguments of magnitude ≤ 4,
 * and divisors, logarithms and roots get |x| + c. */
#include "rpg.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAG_LIMIT 16.0
#define MAX_VARS 512
#define MAX_TENSORS 24
#define MAX_HELPERS 8
#define MAX_STRS 8192

/* ---------------------------------------------------------------- text */

typedef struct {
    char *s;
    size_t n, cap;
} Sb;

typedef struct G G;

/* ---------------------------------------------------------------- types */

enum { E_F32, E_BF16, E_F16 };
static const char *const ELEM[] = { "f32", "bf16", "f16" };

/* Tile dimensions by role: rows of the output tile, its columns, the depth of products. */
enum { D_R, D_C, D_K };
static const char *const DIM_NAME[] = { "TR", "TC", "TK" };
static const char *const SIZE_OF[] = { "M", "N", "K" };   /* the tensor extent a role tiles */

typedef enum { T_RT, T_RV, T_FS } Kind;   /* register tile, register vector, float scalar */

typedef struct {
    Kind k;
    int e;        /* E_* */
    int r, c;     /* roles (rv: r only) */
    bool col;     /* rt layout */
} Ty;

typedef struct {
    char *s;
    double mag;
    bool untyped;   /* an untyped constant: adopts its context's type, but unary maps make it f32 */
} Ex;

typedef struct {
    char name[16];
    Ty t;
    double mag;
    bool mut;
    bool hidden;     /* not to be read (a loop's own accumulator) */
    bool used;       /* read somewhere: otherwise its value is dead, and the compiler drops it */
    unsigned depth;  /* scope depth of its declaration */
} Var;

/* A tensor parameter, keyed by what it holds. */
typedef enum { TS_TILE, TS_VEC, TS_PACKED } TensorShape;

typedef struct {
    char name[8];
    TensorShape shape;
    int e, a, b;     /* element type; roles of its last two dims (vectors: a) */
    bool rank3, out;
} Tensor;

typedef struct {
    char name[8];
    Ty arg, ret;     /* rt → rt helpers, with an f32 scalar */
    bool has_scalar;
    bool generic;    /* fn h<GR = TR, GC = TC, GK = TK>: its dims are its own parameters */
    double mag;      /* of the result for an argument of magnitude ≤ 1 */
} Helper;

struct G {
    uint64_t rng;
    const uint8_t *bytes;
    size_t nbytes, pos;
    bool oom;

    Sb consts, helpers, params, body;
    char *strs[MAX_STRS];
    unsigned nstrs;

    int dim[3];      /* values of TR, TC, TK */
    int W;           /* warps */
    bool rank3;
    int64_t M, N, K, B;   /* the case */

    Tensor tens[MAX_TENSORS];
    unsigned ntens;
    bool sizes_used[8];   /* M N K B NB KT MT */
    Helper helper[MAX_HELPERS];
    unsigned nhelpers;
    bool in_helper;       /* writing a helper body: no tensors, no kernel names */
    bool helper_scalar;   /* ... whose f32 parameter s may be read */

    Var vars[MAX_VARS];
    unsigned nvars, depth;
    unsigned indent;
    unsigned names;       /* counter for fresh names */
    unsigned loop_trip;   /* product of enclosing constant trip counts */
    const char *kcoord;   /* coordinate of the K role (a loop variable), NULL: 0 */
    const char *ccoord;   /* coordinate of the C role inside a loop over a row of tiles, NULL: tj */
    const char *cvar;     /* innermost constant-loop variable, or NULL */
    int cvar_hi;          /* its bound (exclusive) */

    bool scalar_made[4];  /* s0 (f32), h0 (bf16), q0 (f16), n0 (i32) */
    bool flag_made;
    bool put_made[3];     /* the store helpers put_f32, put_bf16, put_f16 */
    double sval[3];
    int nval;
    bool flag;

    unsigned *features;
};

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

static void sb_printf(G *g, Sb *b, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void sb_printf(G *g, Sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(g, b, fmt, ap);
    va_end(ap);
}

/* A formatted string that lives until the end of the generation. */
static char *S(G *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *S(G *g, const char *fmt, ...)
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
static void line(G *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(G *g, const char *fmt, ...)
{
    sb_printf(g, &g->body, "%*s", (int)(4 * g->indent), "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(g, &g->body, fmt, ap);
    va_end(ap);
    sb_printf(g, &g->body, "\n");
}

/* ---------------------------------------------------------------- choices */

static unsigned pick(G *g, unsigned n)
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

static bool chance(G *g, unsigned pct) { return pick(g, 100) < pct; }

/* Picks an index by weight; weights of 0 are never taken (all 0: -1). */
static int weighted(G *g, const unsigned *w, unsigned n)
{
    unsigned total = 0;
    for (unsigned i = 0; i < n; i++) total += w[i];
    if (!total) return -1;
    unsigned x = pick(g, total);
    for (unsigned i = 0; i < n; i++) {
        if (x < w[i]) return (int)i;
        x -= w[i];
    }
    return (int)n - 1;
}

static void feature(G *g, RpgFeature f) { g->features[f]++; }

/* A float literal: always with a point, so that it is an untyped float, never an int. */
static char *flit(G *g, double v)
{
    char *t = S(g, "%.17g", v);
    return strpbrk(t, ".en") ? t : S(g, "%s.0", t);
}

static char *fresh(G *g, const char *prefix) { return S(g, "%s%u", prefix, ++g->names); }

/* ---------------------------------------------------------------- types as text */

static char *ty_str(G *g, Ty t)
{
    switch (t.k) {
    case T_RT: return S(g, "rt<%s, %s, %s%s>", ELEM[t.e], DIM_NAME[t.r], DIM_NAME[t.c], t.col ? ", col" : "");
    case T_RV: return S(g, "rv<%s, %s>", ELEM[t.e], DIM_NAME[t.r]);
    default: return S(g, "%s", ELEM[t.e]);
    }
}

static bool ty_eq(Ty a, Ty b)
{
    if (a.k != b.k || a.e != b.e) return false;
    if (a.k == T_FS) return true;
    if (a.r != b.r) return false;
    return a.k == T_RV || (a.c == b.c && a.col == b.col);
}

static Ty rt(int e, int r, int c, bool col) { return (Ty){ T_RT, e, r, c, col }; }
static Ty rv(int e, int r) { return (Ty){ T_RV, e, r, 0, false }; }

/* ---------------------------------------------------------------- tensors and scalars */

static void note_elem(G *g, int e)
{
    if (e == E_BF16) feature(g, RPG_F_BF16);
    if (e == E_F16) feature(g, RPG_F_F16);
}

/* The tensor parameter for a shape, made on first use. Inputs are named X*, outputs Y*. */
static const Tensor *tensor_new(G *g, TensorShape shape, int e, int a, int b, bool out, bool fresh_out);

static const Tensor *tensor(G *g, TensorShape shape, int e, int a, int b, bool out)
{
    return tensor_new(g, shape, e, a, b, out, false);
}

/* ... or, with fresh_out, always a new output (for a value no other store overwrites). */
static const Tensor *tensor_new(G *g, TensorShape shape, int e, int a, int b, bool out, bool fresh_out)
{
    bool rank3 = g->rank3 && shape == TS_TILE && !out ? chance(g, 50) : (g->rank3 && shape == TS_TILE && out);
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
    note_elem(g, e);
    const char *sep = g->params.n ? ", " : "";
    switch (shape) {
    case TS_TILE:
        sb_printf(g, &g->params, "%sgl<%s, %s%s, %s> %s", sep, ELEM[e], rank3 ? "B, " : "", SIZE_OF[a], SIZE_OF[b], t->name);
        g->sizes_used[a] = g->sizes_used[b] = true;
        if (rank3) {
            g->sizes_used[3] = true;
            feature(g, RPG_F_RANK3);
        }
        break;
    case TS_VEC:
        sb_printf(g, &g->params, "%sgl<%s, %s> %s", sep, ELEM[e], SIZE_OF[a], t->name);
        g->sizes_used[a] = true;
        break;
    case TS_PACKED:
        /* planes of B tiles (K × C: the product's operand), or of output tiles (R × C) */
        if (a == D_K) {
            sb_printf(g, &g->params, "%sgl<%s, NB, KT, TK, TC, packed> %s", sep, ELEM[e], t->name);
            g->sizes_used[4] = g->sizes_used[5] = true;
        } else {
            sb_printf(g, &g->params, "%sgl<%s, NB, MT, TR, TC, packed> %s", sep, ELEM[e], t->name);
            g->sizes_used[4] = g->sizes_used[6] = true;
        }
        feature(g, RPG_F_PACKED);
        break;
    }
    return t;
}

/* The tile coordinate of a role. */
static const char *coord(G *g, int role)
{
    if (role == D_R) return "ti";
    if (role == D_C) return g->ccoord ? g->ccoord : "tj";
    return g->kcoord ? g->kcoord : "0";
}

/* A scalar parameter: 0 s0 (f32), 1 h0 (bf16), 2 q0 (f16), 3 n0 (i32). */
static const char *scalar_param(G *g, int which)
{
    static const char *const names[] = { "s0", "h0", "q0", "n0" };
    static const char *const types[] = { "f32", "bf16", "f16", "i32" };
    if (!g->scalar_made[which]) {
        g->scalar_made[which] = true;
        sb_printf(g, &g->params, "%s%s %s", g->params.n ? ", " : "", types[which], names[which]);
        feature(g, RPG_F_SCALAR_PARAM);
    }
    return names[which];
}

/* ---------------------------------------------------------------- variables */

static Var *declare(G *g, const char *name, Ty t, double mag, bool mut)
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

static void scope_push(G *g) { g->depth++; }

static void scope_pop(G *g)
{
    while (g->nvars && g->vars[g->nvars - 1].depth == g->depth) g->nvars--;
    g->depth--;
}

/* A random visible variable of type t (mutable only if asked), or NULL. */
static Var *find_var(G *g, Ty t, bool need_mut)
{
    unsigned n = 0;
    for (unsigned i = 0; i < g->nvars; i++)
        if (!g->vars[i].hidden && ty_eq(g->vars[i].t, t) && (!need_mut || g->vars[i].mut)) n++;
    if (!n) return NULL;
    unsigned k = pick(g, n);
    for (unsigned i = 0; i < g->nvars; i++)
        if (!g->vars[i].hidden && ty_eq(g->vars[i].t, t) && (!need_mut || g->vars[i].mut) && k-- == 0) {
            g->vars[i].used = true;
            return &g->vars[i];
        }
    return NULL;
}

/* ---------------------------------------------------------------- magnitudes */

/* e scaled by a power of two so that its magnitude is at most lim. */
static Ex bounded(G *g, Ex e, double lim)
{
    if (e.mag <= lim) return e;
    double f = 1;
    while (e.mag * f > lim) f /= 2;
    return (Ex){ .s = S(g, "(%s) * %s", e.s, flit(g, f)), .mag = e.mag * f };
}

static double grow(double m) { return m > 1e30 ? 1e30 : m; }

/* ---------------------------------------------------------------- expressions */

/* fn(s) for a float scalar s of element type e: of type e even when s is an
 * untyped constant (which a unary map would make f32). */
static char *scalar_fn(G *g, const char *fn, Ex s, int e)
{
    if (s.untyped && e != E_F32) return S(g, "convert<%s>(%s(%s))", ELEM[e], fn, s.s);
    return S(g, "%s(%s)", fn, s.s);
}

static Ex gen_tile(G *g, Ty t, int depth);
static Ex gen_vec(G *g, Ty t, int depth);
static Ex gen_fscalar(G *g, int e, int depth);

static Ex leaf_fill(G *g, Ty t)
{
    feature(g, RPG_F_FILL);
    char *ts = ty_str(g, t);
    switch (pick(g, 4)) {
    case 0: return (Ex){ .s = S(g, "zeros<%s>()", ts), .mag = 0 };
    case 1: return (Ex){ .s = S(g, "ones<%s>()", ts), .mag = 1 };
    case 2: {
        static const double vals[] = { 0.5, -1.5, 0.25, 2.0, -0.75 };
        double v = vals[pick(g, 5)];
        return (Ex){ .s = S(g, "fill<%s>(%s)", ts, flit(g, v)), .mag = fabs(v) };
    }
    default: {
        Ex s = gen_fscalar(g, t.e, 1);
        return (Ex){ .s = S(g, "fill<%s>(%s)", ts, s.s), .mag = s.mag };
    }
    }
}

static Ex leaf_load(G *g, Ty t)
{
    if (g->in_helper) return leaf_fill(g, t);
    char *ts = ty_str(g, t);
    if (t.k == T_RV) {
        feature(g, RPG_F_LOAD_RV);
        const Tensor *x = tensor(g, TS_VEC, t.e, t.r, 0, false);
        return (Ex){ .s = S(g, "load<%s>(%s, %s)", ts, x->name, coord(g, t.r)), .mag = 1 };
    }
    feature(g, RPG_F_LOAD_RT);
    if (t.col) feature(g, RPG_F_LOAD_COL);
    if (t.c == D_C && (t.r == D_R || (t.r == D_K && g->kcoord)) && chance(g, 10)) {
        /* a packed tensor read as a tile (element by element unless only multiplied) */
        const Tensor *x = tensor(g, TS_PACKED, t.e, t.r, D_C, false);
        return (Ex){ .s = S(g, "load<%s>(%s, tj, %s, 0, 0)", ts, x->name, coord(g, t.r)), .mag = 1 };
    }
    const Tensor *x = tensor(g, TS_TILE, t.e, t.r, t.c, false);
    return (Ex){ .s = S(g, "load<%s>(%s, %s%s, %s)", ts, x->name, x->rank3 ? "block.z, " : "", coord(g, t.r), coord(g, t.c)), .mag = 1 };
}

static Ex leaf(G *g, Ty t)
{
    Var *v = chance(g, 50) ? find_var(g, t, false) : NULL;
    if (v) return (Ex){ .s = S(g, "%s", v->name), .mag = v->mag };
    return chance(g, 80) ? leaf_load(g, t) : leaf_fill(g, t);
}

/* A unary map of x (of type t, tile, vector or scalar). */
static Ex unary(G *g, Ty t, int depth)
{
    static const RpgFeature feats[] = { RPG_F_NEG,  RPG_F_ABS,     RPG_F_EXP,  RPG_F_EXP2, RPG_F_LOG,  RPG_F_SQRT, RPG_F_RSQRT,
                                        RPG_F_TANH, RPG_F_SIGMOID, RPG_F_RELU, RPG_F_GELU, RPG_F_SILU, RPG_F_ERF,  RPG_F_GELU_ERF };
    static const char *const names[] = { "neg", "abs", "exp", "exp2", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "gelu", "silu",
                                         "erf", "gelu_erf" };
    unsigned f = pick(g, 14);
    Ex x = t.k == T_RT ? gen_tile(g, t, depth - 1) : t.k == T_RV ? gen_vec(g, t, depth - 1) : gen_fscalar(g, t.e, depth - 1);
    feature(g, feats[f]);
    switch (f) {
    case 0: return chance(g, 50) ? (Ex){ .s = S(g, "-(%s)", x.s), .mag = x.mag } : (Ex){ .s = S(g, "neg(%s)", x.s), .mag = x.mag };
    case 2:
        x = bounded(g, x, 4);
        return (Ex){ .s = S(g, "exp(%s)", x.s), .mag = exp(x.mag) };
    case 3:
        x = bounded(g, x, 4);
        return (Ex){ .s = S(g, "exp2(%s)", x.s), .mag = exp2(x.mag) };
    case 4: return (Ex){ .s = S(g, "log(abs(%s) + 1.0)", x.s), .mag = log1p(x.mag) };
    case 5: return (Ex){ .s = S(g, "sqrt(abs(%s))", x.s), .mag = sqrt(x.mag) };
    case 6: return (Ex){ .s = S(g, "rsqrt(abs(%s) + 0.5)", x.s), .mag = 1.5 };
    case 7:
    case 8:
    case 12: return (Ex){ .s = S(g, "%s(%s)", names[f], x.s), .mag = 1 };
    default: return (Ex){ .s = S(g, "%s(%s)", names[f], x.s), .mag = x.mag };
    }
}

/* A binary map of two values of type t. */
static Ex binary(G *g, Ty t, int depth)
{
    Ex (*gen)(G *, Ty, int) = t.k == T_RT ? gen_tile : gen_vec;
    Ex a = gen(g, t, depth - 1), b = gen(g, t, depth - 1);
    switch (pick(g, 6)) {
    case 0:
        feature(g, RPG_F_ADD);
        return (Ex){ .s = chance(g, 50) ? S(g, "(%s) + (%s)", a.s, b.s) : S(g, "add(%s, %s)", a.s, b.s), .mag = a.mag + b.mag };
    case 1:
        feature(g, RPG_F_SUB);
        return (Ex){ .s = chance(g, 50) ? S(g, "(%s) - (%s)", a.s, b.s) : S(g, "sub(%s, %s)", a.s, b.s), .mag = a.mag + b.mag };
    case 2:
        feature(g, RPG_F_MUL);
        a = bounded(g, a, 4), b = bounded(g, b, 4);
        return (Ex){ .s = chance(g, 50) ? S(g, "(%s) * (%s)", a.s, b.s) : S(g, "mul(%s, %s)", a.s, b.s), .mag = a.mag * b.mag };
    case 3:
        feature(g, RPG_F_DIV);
        return (Ex){ .s = chance(g, 50) ? S(g, "(%s) / (abs(%s) + 0.5)", a.s, b.s) : S(g, "div(%s, abs(%s) + 0.5)", a.s, b.s), .mag = 2 * a.mag };
    case 4: feature(g, RPG_F_MAX); return (Ex){ .s = S(g, "max(%s, %s)", a.s, b.s), .mag = fmax(a.mag, b.mag) };
    default: feature(g, RPG_F_MIN); return (Ex){ .s = S(g, "min(%s, %s)", a.s, b.s), .mag = fmax(a.mag, b.mag) };
    }
}

/* fma(x, y, z) of tiles/vectors of type t, with one operand a scalar (or
 * a constant) some of the time. */
static Ex fma3(G *g, Ty t, int depth)
{
    feature(g, RPG_F_FMA);
    Ex (*gen)(G *, Ty, int) = t.k == T_RT ? gen_tile : gen_vec;
    Ex x = bounded(g, gen(g, t, depth - 1), 4), y, z = gen(g, t, depth - 1);
    switch (pick(g, 3)) {
    case 0: y = bounded(g, gen(g, t, depth - 1), 4); break;
    case 1: y = bounded(g, gen_fscalar(g, t.e, depth - 1), 4); break;
    default: y = (Ex){ .s = S(g, "0.375"), .mag = 0.375 }; break;
    }
    if (chance(g, 30)) z = gen_fscalar(g, t.e, depth - 1);
    return (Ex){ .s = S(g, "fma(%s, %s, %s)", x.s, y.s, z.s), .mag = x.mag * y.mag + z.mag };
}

/* A tile or vector combined with a scalar of its element type. */
static Ex with_scalar(G *g, Ty t, int depth)
{
    if (chance(g, 20)) return fma3(g, t, depth);
    feature(g, RPG_F_SCALAR_OP);
    Ex x = t.k == T_RT ? gen_tile(g, t, depth - 1) : gen_vec(g, t, depth - 1);
    Ex s = gen_fscalar(g, t.e, depth - 1);
    switch (pick(g, 5)) {
    case 0: return (Ex){ .s = S(g, "(%s) * (%s)", x.s, s.s), .mag = x.mag * s.mag };
    case 1: return (Ex){ .s = S(g, "(%s) + (%s)", s.s, x.s), .mag = x.mag + s.mag };
    case 2: return (Ex){ .s = S(g, "sub(%s, %s)", x.s, s.s), .mag = x.mag + s.mag };
    case 3: return (Ex){ .s = S(g, "max(%s, %s)", x.s, s.s), .mag = fmax(x.mag, s.mag) };
    default: return (Ex){ .s = S(g, "(%s) / (%s + 0.5)", x.s, scalar_fn(g, "abs", s, t.e)), .mag = 2 * x.mag };
    }
}

static Ex broadcast(G *g, Ty t, int depth)
{
    bool rows = chance(g, 50);
    feature(g, rows ? RPG_F_BCAST_ROW : RPG_F_BCAST_COL);
    Ex x = gen_tile(g, t, depth - 1);
    Ex v = gen_vec(g, rv(t.e, rows ? t.r : t.c), depth - 1);
    const char *side = rows ? "row" : "col";
    switch (pick(g, 4)) {
    case 0: return (Ex){ .s = S(g, "add_%s(%s, %s)", side, x.s, v.s), .mag = x.mag + v.mag };
    case 1: return (Ex){ .s = S(g, "sub_%s(%s, %s)", side, x.s, v.s), .mag = x.mag + v.mag };
    case 2:
        x = bounded(g, x, 4), v = bounded(g, v, 4);
        return (Ex){ .s = S(g, "mul_%s(%s, %s)", side, x.s, v.s), .mag = x.mag * v.mag };
    default: return (Ex){ .s = S(g, "div_%s(%s, abs(%s) + 0.5)", side, x.s, v.s), .mag = 2 * x.mag };
    }
}

/* An integer expression for masks: constants, the ragged-edge counts, a parameter. */
static char *gen_int(G *g)
{
    switch (pick(g, g->in_helper ? 2 : 9)) {
    case 8: return S(g, "convert<i64>(%s) * 2 - %d", scalar_param(g, 3), (int)pick(g, 9));   /* i64 arithmetic */
    case 0: return S(g, "%d", (int)pick(g, 40) - 8);
    case 1: return S(g, "%d", (int)pick(g, 4));
    case 2: return S(g, "M - TR * ti");
    case 3: return S(g, "N - TC * tj");
    case 4: return S(g, "%s", scalar_param(g, 3));
    case 5: return S(g, "TR * ti - TC * tj");
    case 6: return g->cvar ? S(g, "%s + 1", g->cvar) : S(g, "ti - tj");
    default: return S(g, "(block.x + 1) * %d", (int)pick(g, 5) + 1);
    }
}

static Ex mask(G *g, Ty t, int depth)
{
    Ex x = gen_tile(g, t, depth - 1);
    char *k = gen_int(g);
    static const char *const fills[] = { "0.0", "-1.5", "2.0", "0.25" };
    const char *v = fills[pick(g, 4)];
    switch (pick(g, 4)) {
    case 0: feature(g, RPG_F_TRIL); return (Ex){ .s = S(g, "tril(%s, %s)", x.s, k), .mag = x.mag };
    case 1: feature(g, RPG_F_TRIL); return (Ex){ .s = S(g, "triu(%s, %s, %s)", x.s, k, v), .mag = fmax(x.mag, 2) };
    case 2: feature(g, RPG_F_MASK); return (Ex){ .s = S(g, "mask_rows(%s, %s, %s)", x.s, k, v), .mag = fmax(x.mag, 2) };
    default: feature(g, RPG_F_MASK); return (Ex){ .s = S(g, "mask_cols(%s, %s, %s)", x.s, k, v), .mag = fmax(x.mag, 2) };
    }
}

static Ex convert_elem(G *g, Ty t, int depth)
{
    feature(g, RPG_F_CONVERT_T);
    Ty src = t;
    src.e = (t.e + 1 + pick(g, 2)) % 3;
    Ex x = t.k == T_RT ? gen_tile(g, src, depth - 1) : gen_vec(g, src, depth - 1);
    if (t.k == T_RV) return (Ex){ .s = S(g, "convert<%s>(%s)", ty_str(g, t), x.s), .mag = x.mag };
    return (Ex){ .s = chance(g, 50) ? S(g, "convert<%s>(%s)", ELEM[t.e], x.s) : S(g, "convert<%s>(%s)", ty_str(g, t), x.s), .mag = x.mag };
}

static Ex convert_layout(G *g, Ty t, int depth)
{
    feature(g, RPG_F_CONVERT_L);
    Ty src = t;
    src.col = !t.col;
    if (chance(g, 30)) src.e = (t.e + 1) % 3;
    Ex x = gen_tile(g, src, depth - 1);
    return (Ex){ .s = S(g, "convert<%s>(%s)", ty_str(g, t), x.s), .mag = x.mag };
}

static Ex transposed(G *g, Ty t, int depth)
{
    feature(g, RPG_F_TRANSPOSE);
    Ty src = rt(t.e, t.c, t.r, t.col);
    Ex x = gen_tile(g, src, depth - 1);
    return (Ex){ .s = S(g, "transpose(%s)", x.s), .mag = x.mag };
}

static char *gen_cond(G *g);

/* A mask of t's shape and layout: comparisons of tiles or vectors (of any
 * element type) with each other or with a constant, combined with && || !
 * and, in the kernel, with a bool condition. Comparing exact values (loads,
 * constants) keeps the interpreter's verdict certain; computed values may
 * compare differently within rounding, which the interpreter reports as an
 * unreliable case rather than a mismatch. */
static char *gen_mask(G *g, Ty t, int depth)
{
    static const char *const ops[] = { "<", "<=", ">", ">=", "==", "!=" };
    Ex (*gen)(G *, Ty, int) = t.k == T_RT ? gen_tile : gen_vec;
    unsigned w[] = { 6, depth > 0 ? 2u : 0u, depth > 0 ? 1u : 0u, g->in_helper || depth <= 0 ? 0u : 1u };
    switch (weighted(g, w, 4)) {
    case 0: {
        feature(g, RPG_F_COMPARE);
        Ty s = t;
        if (chance(g, 30)) s.e = (t.e + 1 + (int)pick(g, 2)) % 3;
        Ex a = chance(g, 60) || depth <= 0 ? leaf(g, s) : gen(g, s, depth - 1);
        const char *op = ops[pick(g, 6)];
        if (chance(g, 40)) return S(g, "(%s) %s (%s)", a.s, op, leaf(g, s).s);
        static const double cuts[] = { 0.0, 0.25, -0.5, 0.75 };
        return S(g, "(%s) %s %s", a.s, op, flit(g, cuts[pick(g, 4)]));
    }
    case 1:
        feature(g, RPG_F_MASK_LOGIC);
        return S(g, "(%s) %s (%s)", gen_mask(g, t, depth - 1), chance(g, 50) ? "&&" : "||", gen_mask(g, t, depth - 1));
    case 2: feature(g, RPG_F_MASK_LOGIC); return S(g, "!(%s)", gen_mask(g, t, depth - 1));
    default: feature(g, RPG_F_MASK_LOGIC); return S(g, "(%s) && (%s)", gen_mask(g, t, depth - 1), gen_cond(g));
    }
}

/* where(mask, a, b) with tile/vector or scalar values, or a mask as 1.0/0.0. */
static Ex selected(G *g, Ty t, int depth)
{
    Ex (*gen)(G *, Ty, int) = t.k == T_RT ? gen_tile : gen_vec;
    char *m = gen_mask(g, t, depth - 1);
    if (chance(g, 20)) {
        feature(g, RPG_F_MASK_CONVERT);
        Ex x = bounded(g, gen(g, t, depth - 1), 4);
        return (Ex){ .s = S(g, "convert<%s>(%s) * (%s)", ELEM[t.e], m, x.s), .mag = x.mag };
    }
    feature(g, RPG_F_WHERE);
    Ex a, b;
    switch (pick(g, 4)) {
    case 0: a = gen(g, t, depth - 1), b = gen_fscalar(g, t.e, depth - 1); break;
    case 1: a = gen_fscalar(g, t.e, depth - 1), b = gen(g, t, depth - 1); break;
    case 2:
        if (t.e == E_F32) {   /* two constants: an f32 tile of the mask's shape */
            a = (Ex){ .s = S(g, "0.5"), .mag = 0.5 }, b = (Ex){ .s = S(g, "-1.25"), .mag = 1.25 };
            break;
        }
        /* fall through */
    default: a = gen(g, t, depth - 1), b = gen(g, t, depth - 1); break;
    }
    return (Ex){ .s = S(g, "where(%s, %s, %s)", m, a.s, b.s), .mag = fmax(a.mag, b.mag) };
}

static Ex helper_call(G *g, Ty t, int depth);

/* ---------------------------------------------------------------- sub-tiles and rows (LANGUAGE.md §5.13) */

/* A role whose dim is at least (bigger) or at most (!bigger) role r's. In a
 * helper only r itself: a generic helper must be valid at every binding. */
static int part_role(G *g, int r, bool bigger)
{
    int cand[3], n = 0;
    for (int x = 0; x < 3; x++)
        if (x == r || (!g->in_helper && (bigger ? g->dim[x] >= g->dim[r] : g->dim[x] <= g->dim[r]))) cand[n++] = x;
    return cand[pick(g, (unsigned)n)];
}

/* The first index of a part d long of a dim D long: a multiple of 16, maybe
 * following the constant loop's variable (which makes the loop unrolled). */
static char *part_offset(G *g, int D, int d)
{
    int n = (D - d) / 16 + 1;
    if (n <= 1 || g->in_helper) return S(g, "0");
    if (g->cvar && chance(g, 40)) return S(g, "16 * (%s %% %d)", g->cvar, n);
    return S(g, "%d", 16 * (int)pick(g, (unsigned)n));
}

/* A range over role `part` inside a dim of role `whole`. */
static char *part_range(G *g, int whole, int part)
{
    if (whole == part && chance(g, 50)) return S(g, "..");
    char *o = part_offset(g, g->dim[whole], g->dim[part]);
    return S(g, "%s .. %s + %s", o, o, DIM_NAME[part]);
}

/* A row or column index below the dim of `role`: a constant or the constant
 * loop's variable (a run-time index the checker proves in range). */
static char *line_index(G *g, int role)
{
    int hi = g->dim[role];
    if (g->in_helper) return S(g, "0");
    if (g->cvar && g->cvar_hi <= hi && chance(g, 50)) return S(g, "%s", g->cvar);
    return S(g, "%d", (int)pick(g, (unsigned)hi));
}

/* A sub-tile of a tile at least as large: (src)[r0 .. r0 + TR, c0 .. c0 + TC]. */
static Ex subtile_read(G *g, Ty t, int depth)
{
    feature(g, RPG_F_SUBTILE);
    int r = part_role(g, t.r, true), c = part_role(g, t.c, true);
    Ex x = gen_tile(g, rt(t.e, r, c, t.col), depth - 1);
    return (Ex){ .s = S(g, "(%s)[%s, %s]", x.s, part_range(g, r, t.r), part_range(g, c, t.c)), .mag = x.mag };
}

/* A row or column of a tile (rv of role t.r), or a part of a longer vector. */
static Ex line_read(G *g, Ty t, int depth)
{
    if (chance(g, 25)) {
        feature(g, RPG_F_SUBTILE);
        int r = part_role(g, t.r, true);
        if (r == D_K) r = t.r;   /* vectors are of the R and C roles */
        Ex x = gen_vec(g, rv(t.e, r), depth - 1);
        return (Ex){ .s = S(g, "(%s)[%s]", x.s, part_range(g, r, t.r)), .mag = x.mag };
    }
    feature(g, RPG_F_ROW_COL);
    bool row = chance(g, 50);
    int other = pick(g, 2) == 0 ? (t.r == D_R ? D_C : D_R) : t.r;
    Ex x = gen_tile(g, row ? rt(t.e, other, t.r, chance(g, 30)) : rt(t.e, t.r, other, chance(g, 30)), depth - 1);
    char *i = line_index(g, other);
    return (Ex){ .s = S(g, row ? "(%s)[%s, ..]" : "(%s)[.., %s]", x.s, i), .mag = x.mag };
}

static Ex gen_tile(G *g, Ty t, int depth)
{
    if (g->oom) return (Ex){ .s = S(g, "0"), .mag = 0 };
    if (depth <= 0) return leaf(g, t);
    /* leaf, unary, binary, scalar, broadcast, mask, convert dtype, convert layout, transpose, helper, where, sub-tile */
    unsigned w[] = { 3, 4, 4, 2, 2, 1, 1, 1, 1, g->in_helper || g->nhelpers == MAX_HELPERS ? 0u : 1u, 1, 1 };
    switch (weighted(g, w, 12)) {
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

static int dim_of(const G *g, int role) { return g->dim[role]; }

/* How far a constant element index into a dim of `role` may go. In a helper
 * the smallest of the dims: a generic helper is also instantiated at the
 * transposed shape (GR and GC swapped), where x[16, 40] of a 32 x 64 tile
 * would index past a 64 x 32 one (seed 550032). */
static int index_bound(const G *g, int role)
{
    if (!g->in_helper) return dim_of(g, role);
    int m = g->dim[0];
    for (int x = 1; x < 3; x++)
        if (g->dim[x] < m) m = g->dim[x];
    return m;
}

static Ex reduction(G *g, Ty t, int depth)
{
    bool rows = chance(g, 50);
    feature(g, rows ? RPG_F_ROW_RED : RPG_F_COL_RED);
    int other = (int)pick(g, 2) == 0 ? (t.r == D_R ? D_C : D_R) : t.r;
    Ty src = rows ? rt(t.e, t.r, other, chance(g, 30)) : rt(t.e, other, t.r, chance(g, 30));
    Ex x = gen_tile(g, src, depth - 1);
    const char *side = rows ? "row" : "col";
    switch (pick(g, 3)) {
    case 0: return (Ex){ .s = S(g, "%s_max(%s)", side, x.s), .mag = x.mag };
    case 1: return (Ex){ .s = S(g, "%s_min(%s)", side, x.s), .mag = x.mag };
    default: return (Ex){ .s = S(g, "%s_sum(%s)", side, x.s), .mag = grow(x.mag * dim_of(g, other)) };
    }
}

static Ex gen_vec(G *g, Ty t, int depth)
{
    if (g->oom) return (Ex){ .s = S(g, "0"), .mag = 0 };
    if (depth <= 0) return leaf(g, t);
    unsigned w[] = { 3, 4, 2, 2, 1, 1, 1 };   /* leaf, reduction, unary, binary/scalar, convert, where, row/col */
    switch (weighted(g, w, 7)) {
    case 0: return leaf(g, t);
    case 1: return reduction(g, t, depth);
    case 2: feature(g, RPG_F_RV_OP); return unary(g, t, depth);
    case 3: feature(g, RPG_F_RV_OP); return chance(g, 50) ? binary(g, t, depth) : with_scalar(g, t, depth);
    case 4: return convert_elem(g, t, depth);
    case 6: return line_read(g, t, depth);
    default: feature(g, RPG_F_RV_OP); return selected(g, t, depth);
    }
}

/* A float scalar of element type e (or an untyped constant, which adopts it). */
static Ex gen_fscalar(G *g, int e, int depth)
{
    if (g->oom) return (Ex){ .s = S(g, "0.5"), .mag = 0.5 };
    unsigned w[] = { 3, g->in_helper && !g->helper_scalar ? 0u : 3u, 3, depth > 0 ? 2u : 0u, depth > 0 ? 1u : 0u };
    switch (weighted(g, w, 5)) {
    case 0: {
        static const double vals[] = { 0.5, 0.75, 1.25, -2.0, 0.125, 3.0 };
        double v = vals[pick(g, 6)];
        return (Ex){ .s = flit(g, v), .mag = fabs(v), .untyped = true };
    }
    case 1: {
        if (g->in_helper) return (Ex){ .s = S(g, "%s", e == E_F32 ? "s" : S(g, "convert<%s>(s)", ELEM[e])), .mag = 1 };
        /* a parameter; f32 → bf16/f16 by convert when the parameter has another type */
        int which = chance(g, 60) ? e : 0;
        const char *p = scalar_param(g, which);
        Ex x = { .s = S(g, "%s", p), .mag = 2 };
        if (which != e) {
            feature(g, RPG_F_CONVERT_T);
            x.s = S(g, "convert<%s>(%s)", ELEM[e], p);
        }
        return x;
    }
    case 2: {
        /* an element of a tile or vector variable */
        Ty tt = chance(g, 70) ? rt(e, pick(g, 2), pick(g, 2), chance(g, 30)) : rv(e, pick(g, 2));
        Var *v = find_var(g, tt, false);
        if (!v) return (Ex){ .s = flit(g, 0.25), .mag = 0.25, .untyped = true };
        feature(g, RPG_F_ELEM_READ);
        int hi_r = index_bound(g, tt.r), hi_c = tt.k == T_RT ? index_bound(g, tt.c) : 0;
        char *i = g->cvar && g->cvar_hi <= hi_r && chance(g, 50) ? S(g, "%s", g->cvar) : S(g, "%d", (int)pick(g, (unsigned)hi_r));
        if (tt.k == T_RV) return (Ex){ .s = S(g, "%s[%s]", v->name, i), .mag = v->mag };
        return (Ex){ .s = S(g, "%s[%s, %d]", v->name, i, (int)pick(g, (unsigned)hi_c)), .mag = v->mag };
    }
    case 3: {
        /* two untyped constants fold into one (still untyped) */
        Ex a = gen_fscalar(g, e, depth - 1), b = gen_fscalar(g, e, depth - 1);
        bool u = a.untyped && b.untyped;
        if (chance(g, 50)) return (Ex){ .s = S(g, "(%s) + (%s)", a.s, b.s), .mag = a.mag + b.mag, .untyped = u };
        a = bounded(g, a, 4), b = bounded(g, b, 4);
        return (Ex){ .s = S(g, "(%s) * (%s)", a.s, b.s), .mag = a.mag * b.mag, .untyped = u };
    }
    default: {
        Ex a = gen_fscalar(g, e, depth - 1);
        return chance(g, 50) ? (Ex){ .s = scalar_fn(g, "abs", a, e), .mag = a.mag } : (Ex){ .s = scalar_fn(g, "tanh", a, e), .mag = 1 };
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

    declare(g, "x", h->arg, 1, true);
    Ex y = gen_tile(g, h->ret, 2);
    Ex r = y;
    if (chance(g, 50)) {
        line(g, "let y = %s;", y.s);
        r = (Ex){ .s = S(g, "y"), .mag = y.mag };
    }
    h->mag = r.mag;

    char *text = S(g, "(%s x%s) -> %s {\n%s    return %s;\n}\n\n", ty_str(g, h->arg), h->has_scalar ? ", f32 s" : "", ty_str(g, h->ret),
                   g->body.s ? g->body.s : "", r.s);
    if (h->generic) generic_dims(text);
    sb_printf(g, &g->helpers, "fn %s%s%s", h->name, h->generic ? "<GR = TR, GC = TC, GK = TK>" : "", text);
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
    feature(g, RPG_F_HELPER);
    Helper *h = NULL;
    for (unsigned i = 0; i < g->nhelpers; i++)
        if (ty_eq(g->helper[i].ret, t) && chance(g, 70)) h = &g->helper[i];
    if (!h) {
        h = &g->helper[g->nhelpers++];
        snprintf(h->name, sizeof h->name, "h%u", g->nhelpers);
        h->ret = t;
        h->arg = chance(g, 60) ? t : rt(pick(g, 3), t.r, t.c, chance(g, 30));
        h->has_scalar = chance(g, 50);
        h->generic = chance(g, 30);
        write_helper(g, h);
    }
    Ex a = bounded(g, gen_tile(g, h->arg, depth - 1), 1);
    char *s = h->has_scalar ? S(g, ", %s", gen_fscalar(g, E_F32, 0).s) : S(g, "%s", "");
    /* the scalar's magnitude can reach 3: the helper saw 1, so allow for it */
    double mag = grow(h->mag * (h->has_scalar ? 9 : 1));
    Ex call = { .s = S(g, "%s(%s%s)", h->name, a.s, s), .mag = mag };
    if (!h->generic || !chance(g, 70)) return call;
    /* the same helper at the transposed shape (another instance), its
     * result transposed back: inferred from the argument or given <...> */
    feature(g, RPG_F_GENERIC);
    feature(g, RPG_F_TRANSPOSE);
    Ty sw = rt(h->arg.e, h->arg.c, h->arg.r, h->arg.col);
    Ex b = bounded(g, gen_tile(g, sw, depth - 1), 1);
    char *s2 = h->has_scalar ? S(g, ", %s", gen_fscalar(g, E_F32, 0).s) : S(g, "%s", "");
    const char *bind[3] = { DIM_NAME[D_R], DIM_NAME[D_C], DIM_NAME[D_K] };   /* GR, GC, GK at this call */
    bind[h->arg.r] = DIM_NAME[h->arg.c];
    bind[h->arg.c] = DIM_NAME[h->arg.r];
    char *targs = chance(g, 50) ? S(g, "<%s, %s, %s>", bind[0], bind[1], bind[2]) : S(g, "%s", "");
    return (Ex){ .s = S(g, "(%s) + transpose(%s%s(%s%s))", call.s, h->name, targs, b.s, s2), .mag = 2 * mag };
}

/* ---------------------------------------------------------------- statements */

static void gen_stmts(G *g, unsigned n, int depth);

static Ty random_tile_ty(G *g)
{
    /* mostly the output tile's shape; sometimes its transpose */
    bool tr = chance(g, 15);
    int e = chance(g, 50) ? E_F32 : chance(g, 60) ? E_BF16 : E_F16;
    return rt(e, tr ? D_C : D_R, tr ? D_R : D_C, chance(g, 25));
}

static void stmt_let(G *g, int depth)
{
    unsigned kind = pick(g, 10);
    if (kind < 6) {
        Ty t = random_tile_ty(g);
        Ex e = gen_tile(g, t, depth);
        char *name = fresh(g, "v");
        if (chance(g, 50)) line(g, "let %s = %s;", name, e.s);
        else line(g, "%s %s = %s;", ty_str(g, t), name, e.s);
        declare(g, name, t, e.mag, false);
    } else if (kind < 8) {
        Ty t = rv(pick(g, 3), pick(g, 2));
        Ex e = gen_vec(g, t, depth);
        char *name = fresh(g, "u");
        line(g, "let %s = %s;", name, e.s);
        declare(g, name, t, e.mag, false);
    } else {
        int e = pick(g, 3);
        Ex x = gen_fscalar(g, e, 2);
        char *name = fresh(g, "s");
        /* typed declaration: an untyped constant adopts e (a let would make it f32) */
        line(g, "%s %s = %s;", ELEM[e], name, x.s);
        declare(g, name, (Ty){ T_FS, e, 0, 0, false }, x.mag, false);
    }
}

/* A mutable tile variable, declared zero-filled or initialised. */
static void stmt_var(G *g, int depth)
{
    Ty t = random_tile_ty(g);
    char *name = fresh(g, "m");
    if (chance(g, 30)) {
        line(g, "%s %s;", ty_str(g, t), name);
        declare(g, name, t, 0, true);
        return;
    }
    Ex e = chance(g, 50) ? leaf_load(g, t) : gen_tile(g, t, depth);
    line(g, "%s %s = %s;", ty_str(g, t), name, e.s);
    declare(g, name, t, e.mag, true);
}

static void stmt_assign(G *g, int depth)
{
    Ty t = random_tile_ty(g);
    Var *v = find_var(g, t, true);
    if (!v) {
        stmt_var(g, depth);
        return;
    }
    unsigned trip = g->loop_trip;
    Var *w = chance(g, 20) ? find_var(g, t, false) : NULL;
    if (w && w != v) {
        /* a copy: tile variables that may share one slot (lower/cpu/emit_coalesce.c) */
        line(g, "%s = %s;", v->name, w->name);
        v->mag = fmax(v->mag, w->mag);
        return;
    }
    switch (pick(g, 6)) {
    case 4: {
        /* a sub-tile of v, assigned or updated (LANGUAGE.md §5.13) */
        feature(g, RPG_F_SUBTILE);
        int r = part_role(g, t.r, false), c = part_role(g, t.c, false);
        bool comp = chance(g, 40);
        v->hidden = comp || trip > 1;
        Ex e = bounded(g, gen_tile(g, rt(t.e, r, c, t.col), depth), comp ? 4 : MAG_LIMIT);
        v->hidden = false;
        line(g, "%s[%s, %s] %s %s;", v->name, part_range(g, t.r, r), part_range(g, t.c, c), comp ? "+=" : "=", e.s);
        v->mag = comp ? grow(v->mag + trip * e.mag) : fmax(v->mag, e.mag);
        return;
    }
    case 5: {
        /* a row or column of v from a vector */
        feature(g, RPG_F_ROW_COL);
        bool row = chance(g, 50);
        v->hidden = trip > 1;
        Ex e = bounded(g, gen_vec(g, rv(t.e, row ? t.c : t.r), depth), MAG_LIMIT);
        v->hidden = false;
        char *i = line_index(g, row ? t.r : t.c);
        line(g, row ? "%s[%s, ..] = %s;" : "%s[.., %s] = %s;", v->name, i, e.s);
        v->mag = fmax(v->mag, e.mag);
        return;
    }
    case 0: {
        /* plain assignment; inside a loop the value must not feed on itself */
        v->hidden = trip > 1;
        Ex e = bounded(g, gen_tile(g, t, depth), MAG_LIMIT);
        v->hidden = false;
        line(g, "%s = %s;", v->name, e.s);
        v->mag = fmax(v->mag, e.mag);
        return;
    }
    case 1: {
        feature(g, RPG_F_COMPOUND);
        v->hidden = true;
        Ex e = bounded(g, gen_tile(g, t, depth), 4);
        v->hidden = false;
        line(g, "%s %s %s;", v->name, chance(g, 50) ? "+=" : "-=", e.s);
        v->mag = grow(v->mag + trip * e.mag);
        return;
    }
    case 2: {
        feature(g, RPG_F_COMPOUND);
        static const char *const f[] = { "0.5", "-1.0", "0.25" };
        line(g, "%s *= %s;", v->name, f[pick(g, 3)]);
        return;
    }
    default: {
        feature(g, RPG_F_ELEM_WRITE);
        Ex s = gen_fscalar(g, t.e, 1);
        int hr = dim_of(g, t.r), hc = dim_of(g, t.c);
        char *i = g->cvar && g->cvar_hi <= hr ? S(g, "%s", g->cvar) : S(g, "%d", (int)pick(g, (unsigned)hr));
        char *j = g->cvar && g->cvar_hi <= hc && chance(g, 50) ? S(g, "%s", g->cvar) : S(g, "%d", (int)pick(g, (unsigned)hc));
        line(g, "%s[%s, %s] = %s;", v->name, i, j, s.s);
        v->mag = fmax(v->mag, s.mag);
        return;
    }
    }
}

/* The tile roles and layout of an mma operand of form f (0 ab, 1 abt, 2 atb, 3 atbt). */
static Ty mma_a_ty(int e, int f) { return f < 2 ? rt(e, D_R, D_K, false) : rt(e, D_K, D_R, true); }
static Ty mma_b_ty(int e, int f) { return (f == 0 || f == 2) ? rt(e, D_K, D_C, true) : rt(e, D_C, D_K, false); }

/* One operand inside a product's loop: a load (read in place where the
 * compiler can), or an element-wise expression of loads. */
static char *mma_operand(G *g, Ty t, bool packed, const char *prefix)
{
    char *name = fresh(g, prefix);
    char *ts = ty_str(g, t);
    if (packed) {
        const Tensor *p = tensor(g, TS_PACKED, t.e, D_K, D_C, false);
        line(g, "%s %s = load(%s, tj, %s, 0, 0);", ts, name, p->name, coord(g, D_K));
        return name;
    }
    switch (pick(g, 4)) {
    case 0:
    case 1: {
        const Tensor *x = tensor(g, TS_TILE, t.e, t.r, t.c, false);
        line(g, "%s %s = load(%s, %s%s, %s);", ts, name, x->name, x->rank3 ? "block.z, " : "", coord(g, t.r), coord(g, t.c));
        break;
    }
    case 2: {
        /* computed: converted from f32, or scaled */
        Ty src = t;
        src.e = E_F32;
        Ex x = t.e == E_F32 ? leaf_load(g, t) : leaf_load(g, src);
        if (t.e != E_F32) {
            feature(g, RPG_F_CONVERT_T);
            line(g, "%s %s = convert<%s>(%s);", ts, name, ts, x.s);
        } else {
            line(g, "%s %s = (%s) * 0.5;", ts, name, x.s);
        }
        break;
    }
    default: {
        Ex x = bounded(g, gen_tile(g, t, 1), 2);
        line(g, "%s %s = %s;", ts, name, x.s);
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
    int f = pick(g, 4), e = pick(g, 3);
    bool packed = f == 0 && chance(g, 30);
    feature(g, ffeat[f]);
    feature(g, e == E_F32 ? RPG_F_MMA_F32 : e == E_BF16 ? RPG_F_MMA_BF16 : RPG_F_MMA_F16);
    note_elem(g, e);
    Ty acct = rt(E_F32, D_R, D_C, false);
    char *acc = fresh(g, "acc");
    double acc_mag = 0;
    if (chance(g, 75)) {
        line(g, "%s %s = zeros();", ty_str(g, acct), acc);
    } else {
        Ex init = bounded(g, gen_tile(g, acct, 1), 4);
        line(g, "%s %s = %s;", ty_str(g, acct), acc, init.s);
        acc_mag = init.mag;
    }
    /* loop kind: 0 symbolic cdiv(K, TK), 1 constant trip count, 2 a single product */
    unsigned kind = packed ? 0 : pick(g, 3);
    int64_t trip = kind == 0 ? (packed ? (g->K + g->dim[D_K] - 1) / g->dim[D_K] : (g->K + g->dim[D_K] - 1) / g->dim[D_K]) : kind == 1 ? 1 + pick(g, 3) : 1;
    const char *saved_k = g->kcoord;
    char *k = fresh(g, "k");
    if (kind == 0) {
        feature(g, RPG_F_K_LOOP);
        const char *hi = packed ? "KT" : "cdiv(K, TK)";
        switch (pick(g, 6)) {
        case 0:
            /* skips the first step: no step at all when K <= TK (an accumulator never multiplied) */
            line(g, "for (%s in 1 .. %s) {", k, hi);
            trip = trip > 0 ? trip - 1 : 0;
            break;
        case 1:
            /* as many steps as a parameter says, which may be none */
            line(g, "for (%s in 0 .. min(%s, %s)) {", k, scalar_param(g, 3), hi);
            break;
        default: line(g, "for (%s in 0 .. %s) {", k, hi); break;
        }
        g->kcoord = k;
        g->indent++;
    } else if (kind == 1) {
        feature(g, RPG_F_CONST_LOOP);
        line(g, "for (%s in 0 .. %d) {", k, (int)trip);
        g->kcoord = k;
        g->indent++;
    } else {
        g->kcoord = NULL;
    }
    scope_push(g);
    Ty at = mma_a_ty(e, f), bt = mma_b_ty(e, f);
    char *a = mma_operand(g, at, false, "a");
    char *b = mma_operand(g, bt, packed, "b");
    line(g, "%s(%s, %s, %s);", forms[f], acc, a, b);
    scope_pop(g);
    if (kind != 2) {
        g->indent--;
        line(g, "}");
    }
    g->kcoord = saved_k;
    /* operands are loads (≤ 1) or bounded by 2: every k step adds at most 4 per term */
    double steps = kind == 2 ? 1 : (double)trip;
    declare(g, acc, acct, grow(acc_mag + steps * g->dim[D_K] * 4), true);
}

/* Shared tiles: a block-collective load, a per-warp restage read back by
 * another warp across sync(), and a collective store. Top level only. */
static void stmt_shared(G *g, Sb *decls)
{
    feature(g, RPG_F_SHARED);
    feature(g, RPG_F_SYNC);
    int e = pick(g, 3);
    note_elem(g, e);
    char *sname = fresh(g, "S");
    sb_printf(g, decls, "    st<%s, TRW, TC> %s;\n", ELEM[e], sname);
    Ty t = rt(e, D_R, D_C, chance(g, 30));
    if (chance(g, 30)) {
        /* shared vectors: one per block loaded collectively, or one sub-vector per warp restaged */
        char *vname = fresh(g, "V"), *name = fresh(g, "u");
        if (chance(g, 50)) {
            sb_printf(g, decls, "    sv<%s, TC> %s;\n", ELEM[e], vname);
            const Tensor *x = tensor(g, TS_VEC, e, D_C, 0, false);
            line(g, "%s = load(%s, block.x);", vname, x->name);
            line(g, "sync();");
            line(g, "rv<%s, TC> %s = load(%s);", ELEM[e], name, vname);
            declare(g, name, rv(e, D_C), 1, false);
        } else {
            sb_printf(g, decls, "    sv<%s, TRW> %s;\n", ELEM[e], vname);
            Ex v = bounded(g, gen_vec(g, rv(e, D_R), 2), MAG_LIMIT);
            line(g, "store(%s, %s, warp.id);", vname, v.s);
            line(g, "sync();");
            line(g, "rv<%s, TR> %s = load(%s, %s);", ELEM[e], name, vname, g->W > 1 ? "(warp.id + 1) % W" : "warp.id");
            declare(g, name, rv(e, D_R), v.mag, false);
        }
        return;
    }
    if (chance(g, 50)) {
        const Tensor *x = tensor(g, TS_TILE, e, D_R, D_C, false);
        if (x->rank3) {
            /* a collective load takes the block's rows: block.y in TRW units */
            line(g, "%s = load(%s, block.z, block.y, block.x);", sname, x->name);
        } else {
            line(g, "%s = load(%s, block.y, block.x);", sname, x->name);
        }
        line(g, "sync();");
        char *name = fresh(g, "w");
        line(g, "%s %s = load(%s, warp.id, 0);", ty_str(g, t), name, sname);
        declare(g, name, t, 1, false);
        return;
    }
    Ex v = bounded(g, gen_tile(g, t, 2), MAG_LIMIT);
    line(g, "store(%s, %s, warp.id, 0);", sname, v.s);
    line(g, "sync();");
    char *name = fresh(g, "w");
    /* another warp's tile: what sync() made visible */
    if (g->W > 1) line(g, "%s %s = load(%s, (warp.id + 1) %% W, 0);", ty_str(g, t), name, sname);
    else line(g, "%s %s = load(%s, warp.id, 0);", ty_str(g, t), name, sname);
    declare(g, name, t, v.mag, false);
    if (chance(g, 40)) {
        const Tensor *y = tensor(g, TS_TILE, e, D_R, D_C, true);
        if (y->rank3) line(g, "store(%s, %s, block.z, block.y, block.x);", y->name, sname);
        else line(g, "store(%s, %s, block.y, block.x);", y->name, sname);
        feature(g, RPG_F_STORE);
    }
}

/* A product staged through shared tiles, as on a GPU: the block loads A's and
 * B's tiles collectively, sync(), each warp multiplies its rows, sync()
 * before the next step overwrites them (a barrier inside a symbolic loop). */
static void stmt_staged_mma(G *g, Sb *decls)
{
    feature(g, RPG_F_SHARED);
    feature(g, RPG_F_SYNC);
    feature(g, RPG_F_K_LOOP);
    int e = pick(g, 3);
    bool bt = chance(g, 40);   /* B given as [N, K]: mma_abt */
    feature(g, bt ? RPG_F_MMA_ABT : RPG_F_MMA_AB);
    feature(g, e == E_F32 ? RPG_F_MMA_F32 : e == E_BF16 ? RPG_F_MMA_BF16 : RPG_F_MMA_F16);
    note_elem(g, e);
    char *as = fresh(g, "S"), *bs = fresh(g, "S"), *acc = fresh(g, "acc"), *k = fresh(g, "k");
    sb_printf(g, decls, "    st<%s, TRW, TK> %s;\n", ELEM[e], as);
    sb_printf(g, decls, "    st<%s, %s> %s;\n", ELEM[e], bt ? "TC, TK" : "TK, TC", bs);
    const Tensor *A = tensor(g, TS_TILE, e, D_R, D_K, false);
    const Tensor *B = bt ? tensor(g, TS_TILE, e, D_C, D_K, false) : tensor(g, TS_TILE, e, D_K, D_C, false);
    line(g, "rt<f32, TR, TC> %s = zeros();", acc);
    line(g, "for (%s in 0 .. cdiv(K, TK)) {", k);
    g->indent++;
    line(g, "%s = load(%s, %sblock.y, %s);", as, A->name, A->rank3 ? "block.z, " : "", k);
    if (bt) line(g, "%s = load(%s, %sblock.x, %s);", bs, B->name, B->rank3 ? "block.z, " : "", k);
    else line(g, "%s = load(%s, %s%s, block.x);", bs, B->name, B->rank3 ? "block.z, " : "", k);
    line(g, "sync();");
    char *a = fresh(g, "a"), *b = fresh(g, "b");
    line(g, "rt<%s, TR, TK> %s = load(%s, warp.id, 0);", ELEM[e], a, as);
    if (bt) line(g, "rt<%s, TC, TK> %s = load(%s);", ELEM[e], b, bs);
    else line(g, "rt<%s, TK, TC, col> %s = load(%s);", ELEM[e], b, bs);
    line(g, "%s(%s, %s, %s);", bt ? "mma_abt" : "mma_ab", acc, a, b);
    line(g, "sync();");
    g->indent--;
    line(g, "}");
    declare(g, acc, rt(E_F32, D_R, D_C, false), grow((double)((g->K + g->dim[D_K] - 1) / g->dim[D_K]) * g->dim[D_K]), true);
}

/* A sum over the tiles of this warp's rows (a loop with symbolic bounds that is no product). */
static void stmt_row_loop(G *g, int depth)
{
    feature(g, RPG_F_K_LOOP);
    Ty t = rt(chance(g, 60) ? E_F32 : pick(g, 3), D_R, D_C, chance(g, 25));
    char *m = fresh(g, "m"), *c = fresh(g, "c");
    line(g, "%s %s = zeros();", ty_str(g, t), m);
    line(g, "for (%s in 0 .. cdiv(N, TC)) {", c);
    g->indent++;
    scope_push(g);
    const char *saved = g->ccoord;
    g->ccoord = c;
    Ex e = bounded(g, gen_tile(g, t, depth), 2);
    g->ccoord = saved;
    line(g, "%s += %s;", m, e.s);
    scope_pop(g);
    g->indent--;
    line(g, "}");
    feature(g, RPG_F_COMPOUND);
    declare(g, m, t, grow(2.0 * (double)((g->N + g->dim[D_C] - 1) / g->dim[D_C])), true);
}

static char *gen_cond(G *g)
{
    switch (pick(g, 9)) {
    case 7: return S(g, "(%s) || (%s)", gen_cond(g), gen_cond(g));
    case 8: return S(g, "!(%s) && (%s)", gen_cond(g), gen_cond(g));
    case 0: return S(g, "%s > %d", scalar_param(g, 3), (int)pick(g, 10));
    case 1: return S(g, "block.x %% 2 == 0");
    case 2: return S(g, "ti < %d", (int)pick(g, 3) + 1);
    case 3: return S(g, "warp.id == 0");
    case 4: return S(g, "tj * TC + TC <= N");
    case 5: return S(g, "M - TR * ti > %d", (int)pick(g, 40));
    default: {
        if (!g->flag_made) {
            g->flag_made = true;
            sb_printf(g, &g->params, "%sbool flag", g->params.n ? ", " : "");
            feature(g, RPG_F_SCALAR_PARAM);
        }
        return S(g, "%sflag", chance(g, 50) ? "!" : "");
    }
    }
}

/* An expression of tile type dst made from variable src (a tile of any shape,
 * dtype or layout, a vector or a scalar), so that src's value reaches dst; NULL if none. */
static char *as_tile(G *g, Ty dst, const Var *src)
{
    Ty t = src->t;
    char *ds = ty_str(g, dst);
    if (t.k == T_FS) return S(g, "fill<%s>(%s)", ds, t.e == dst.e ? src->name : S(g, "convert<%s>(%s)", ELEM[dst.e], src->name));
    if (t.k == T_RV) {
        if (t.r != dst.r && t.r != dst.c) return NULL;
        char *v = t.e == dst.e ? S(g, "%s", src->name) : S(g, "convert<rv<%s, %s>>(%s)", ELEM[dst.e], DIM_NAME[t.r], src->name);
        return S(g, "add_%s(zeros<%s>(), %s)", t.r == dst.r ? "row" : "col", ds, v);
    }
    if (t.r == dst.r && t.c == dst.c) return ty_eq(t, dst) ? S(g, "%s", src->name) : S(g, "convert<%s>(%s)", ds, src->name);
    if (t.r == dst.c && t.c == dst.r) return S(g, "convert<%s>(transpose(%s))", ds, src->name);
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
        Ex x = bounded(g, (Ex){ .s = e, .mag = v->mag }, 4);
        line(g, "%s += %s;", sink->name, x.s);
        sink->mag = grow(sink->mag + g->loop_trip * x.mag);
    }
}

/* A mutable tile variable of the enclosing scope for a block's results to flow into. */
static Var *sink_for_block(G *g)
{
    Ty t = rt(chance(g, 70) ? E_F32 : pick(g, 3), D_R, D_C, chance(g, 20));
    Var *v = find_var(g, t, true);
    if (v) return v;
    char *name = fresh(g, "m");
    line(g, "%s %s = zeros();", ty_str(g, t), name);
    return declare(g, name, t, 0, true);
}

static void stmt_if(G *g, int depth)
{
    feature(g, RPG_F_IF);
    Var *sink = sink_for_block(g);
    unsigned sink_index = (unsigned)(sink - g->vars);
    line(g, "if (%s) {", gen_cond(g));
    g->indent++;
    scope_push(g);
    gen_stmts(g, 1 + pick(g, 2), depth);
    consume_scope(g, &g->vars[sink_index]);
    scope_pop(g);
    g->indent--;
    if (chance(g, 60)) {
        line(g, "} else {");
        g->indent++;
        scope_push(g);
        gen_stmts(g, 1 + pick(g, 2), depth);
        consume_scope(g, &g->vars[sink_index]);
        scope_pop(g);
        g->indent--;
    }
    line(g, "}");
}

static void stmt_const_loop(G *g, int depth)
{
    feature(g, RPG_F_CONST_LOOP);
    int n = 2 + (int)pick(g, 3);
    unsigned sink = (unsigned)(sink_for_block(g) - g->vars);   /* before the loop: its results flow out */
    char *j = fresh(g, "j");
    line(g, "for (%s in 0 .. %d) {", j, n);
    g->indent++;
    scope_push(g);
    const char *cvar = g->cvar;
    int cvar_hi = g->cvar_hi;
    unsigned trip = g->loop_trip;
    g->cvar = j;
    g->cvar_hi = n;
    g->loop_trip *= (unsigned)n;
    gen_stmts(g, 1 + pick(g, 2), depth);
    consume_scope(g, &g->vars[sink]);
    g->loop_trip = trip;
    g->cvar = cvar;
    g->cvar_hi = cvar_hi;
    scope_pop(g);
    g->indent--;
    line(g, "}");
}

/* An array of tiles or vectors (lang/arrays.c): declared, filled by a loop
 * with constant bounds that indexes it (unrolled), maybe one element scaled
 * by a constant index; then its elements are ordinary variables named a3[0]
 * … (a constant index is valid source anywhere a name is). */
static void stmt_array(G *g, int depth)
{
    feature(g, RPG_F_ARRAY);
    bool vec = chance(g, 30);
    Ty t = vec ? rv(pick(g, 3), pick(g, 2)) : random_tile_ty(g);
    int n = 2 + (int)pick(g, 3);
    char *a = fresh(g, "a");
    char *ts = ty_str(g, t);
    double mag = 0;
    switch (pick(g, 3)) {
    case 0: line(g, "%s %s[%d];", ts, a, n); break;
    case 1: line(g, "%s %s[%d] = zeros();", ts, a, n); break;
    default: {
        Ex e = bounded(g, vec ? gen_vec(g, t, depth) : gen_tile(g, t, depth), 2);
        line(g, "%s %s[%d] = %s;", ts, a, n, e.s);
        mag = e.mag;
        break;
    }
    }
    feature(g, RPG_F_CONST_LOOP);
    char *j = fresh(g, "j");
    line(g, "for (%s in 0 .. %d) {", j, n);
    g->indent++;
    scope_push(g);
    Ex e = bounded(g, vec ? gen_vec(g, t, depth) : gen_tile(g, t, depth), 2);
    /* every element once, in order or backwards */
    char *ix = chance(g, 30) ? S(g, "%d - %s", n - 1, j) : j;
    line(g, "%s[%s] = %s[%s] + %s;", a, ix, a, ix, e.s);
    scope_pop(g);
    g->indent--;
    line(g, "}");
    mag += e.mag;
    if (chance(g, 50)) {
        int k = (int)pick(g, (unsigned)n);
        line(g, "%s[%d] = (%s[%d]) * 0.5;", a, k, a, k);
    }
    for (int i = 0; i < n; i++) declare(g, S(g, "%s[%d]", a, i), t, mag, true);
}

/* A helper that stores a tile through its gl parameter (the helper's own sizes R, C unify with the kernel's). */
static const char *store_helper(G *g, int e)
{
    static const char *const names[] = { "put_f32", "put_bf16", "put_f16" };
    if (!g->put_made[e]) {
        g->put_made[e] = true;
        sb_printf(g, &g->helpers, "fn %s(gl<%s, R, C> Y, rt<%s, TR, TC> t, i32 i, i32 j) {\n    store(Y, t, i, j);\n}\n\n", names[e], ELEM[e],
                  ELEM[e]);
    }
    return names[e];
}

/* A store of a value into an output tensor (an element type the value may need converting to). */
static void stmt_store(G *g, int depth)
{
    feature(g, RPG_F_STORE);
    int e = pick(g, 3);
    unsigned kind = pick(g, 10);
    if (kind == 1 && !g->rank3 && chance(g, 40)) {
        feature(g, RPG_F_HELPER);
        const char *h = store_helper(g, e);
        const Tensor *y = tensor(g, TS_TILE, e, D_R, D_C, true);
        Ex x = gen_tile(g, rt(e, D_R, D_C, false), depth);
        line(g, "%s(%s, %s, ti, tj);", h, y->name, x.s);
        return;
    }
    if (kind == 0 && chance(g, 30)) {
        /* into a packed tensor, one plane per warp's tile (a pack kernel) */
        const Tensor *y = tensor(g, TS_PACKED, e, D_R, D_C, true);
        Ex x = gen_tile(g, rt(e, D_R, D_C, chance(g, 25)), depth);
        line(g, "store(%s, %s, tj, ti, 0, 0);", y->name, x.s);
    } else if (kind < 6) {
        const Tensor *y = tensor(g, TS_TILE, e, D_R, D_C, true);
        Ty t = rt(e, D_R, D_C, chance(g, 25));
        Var *v = find_var(g, rt(E_F32, D_R, D_C, false), false);
        Ex x = v && e == E_F32 && chance(g, 40) ? (Ex){ .s = S(g, "%s", v->name), .mag = v->mag } : gen_tile(g, t, depth);
        if (y->rank3) line(g, "store(%s, %s, block.z, ti, tj);", y->name, x.s);
        else line(g, "store(%s, %s, ti, tj);", y->name, x.s);
    } else if (kind < 7) {
        const Tensor *y = tensor(g, TS_TILE, e, D_C, D_R, true);
        Ex x = gen_tile(g, rt(e, D_C, D_R, chance(g, 25)), depth);
        if (y->rank3) line(g, "store(%s, %s, block.z, tj, ti);", y->name, x.s);
        else line(g, "store(%s, %s, tj, ti);", y->name, x.s);
    } else if (kind < 9) {
        /* one value per row: the blocks of column 0 write it */
        const Tensor *y = tensor(g, TS_VEC, e, D_R, 0, true);
        Ex x = gen_vec(g, rv(e, D_R), depth);
        line(g, "if (block.x == 0%s) {", g->rank3 ? " && block.z == 0" : "");
        line(g, "    store(%s, %s, ti);", y->name, x.s);
        line(g, "}");
    } else {
        /* one value per column: warp 0 of the blocks of row 0 */
        const Tensor *y = tensor(g, TS_VEC, e, D_C, 0, true);
        Ex x = gen_vec(g, rv(e, D_C), depth);
        line(g, "if (block.y == 0 && warp.id == 0%s) {", g->rank3 ? " && block.z == 0" : "");
        line(g, "    store(%s, %s, tj);", y->name, x.s);
        line(g, "}");
    }
}

static void gen_stmts(G *g, unsigned n, int depth)
{
    bool nested = g->depth > 0;
    for (unsigned i = 0; i < n && !g->oom; i++) {
        /* let, var, assign, mma, if, constant loop, store, row loop, array */
        unsigned w[] = { 5, 2, 3, nested ? 1u : 3u, nested ? 0u : 2u, nested ? 0u : 2u, nested ? 0u : 2u, nested ? 0u : 1u, 1 };
        switch (weighted(g, w, 9)) {
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
static void store_the_rest(G *g)
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
            feature(g, RPG_F_STORE);
            Ty t = v->t;
            Ex x = bounded(g, (Ex){ .s = S(g, "%s", v->name), .mag = v->mag }, 1e6);
            if (t.k == T_RV) {
                const Tensor *y = tensor_new(g, TS_VEC, t.e, t.r, 0, true, true);
                line(g, "if (%s%s) {", t.r == D_R ? "block.x == 0" : "block.y == 0 && warp.id == 0", zc);
                line(g, "    store(%s, %s, %s);", y->name, x.s, t.r == D_R ? "ti" : "tj");
                line(g, "}");
            } else if ((t.r == D_R && t.c == D_C) || (t.r == D_C && t.c == D_R)) {
                bool tr = t.r == D_C;
                const Tensor *y = tensor_new(g, TS_TILE, t.e, t.r, t.c, true, true);
                line(g, "store(%s, %s, %s%s);", y->name, x.s, y->rank3 ? z : "", tr ? "tj, ti" : "ti, tj");
            }
            continue;
        }
        if (!sink) {
            sink = sink_for_block(g);
            sink->used = false;
        }
        char *e = as_tile(g, sink->t, v);
        if (!e) continue;
        Ex x = bounded(g, (Ex){ .s = e, .mag = v->mag }, 4);
        line(g, "%s += %s;", sink->name, x.s);
        sink->mag = grow(sink->mag + x.mag);
    }
    if (sink && !sink->used) {
        const Tensor *y = tensor_new(g, TS_TILE, sink->t.e, D_R, D_C, true, true);
        line(g, "store(%s, %s, %sti, tj);", y->name, sink->name, y->rank3 ? "block.z, " : "");
    }
}

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
    g->dim[D_R] = DIMS[pick(g, 5)];
    g->dim[D_C] = DIMS[pick(g, 5)];
    g->dim[D_K] = DIMS[pick(g, 4)];
    if (chance(g, 8)) g->dim[D_R] = 128, g->dim[D_C] = 64;   /* the write-through path of big accumulators */
    g->W = chance(g, 60) ? 1 : 2 + (int)pick(g, 3);
    if (g->W * g->dim[D_R] > 256) g->W = 256 / g->dim[D_R];
    if (g->W > 1) feature(g, RPG_F_WARPS);
    g->rank3 = chance(g, 15);
    g->M = SIZES[pick(g, 14)];
    g->N = SIZES[pick(g, 14)];
    g->K = KSIZES[pick(g, 10)];
    g->B = 1 + pick(g, 3);

    Sb decls = { 0 };
    sb_printf(g, &g->body, "    let ti = %s;\n", g->W == 1 && chance(g, 50) ? "block.y" : "block.y * W + warp.id");
    sb_printf(g, &g->body, "    let tj = block.x;\n");
    g->indent = 1;

    unsigned nst = o->max_stmts ? o->max_stmts : 10;
    nst = 2 + pick(g, nst - 1);
    bool shared_done = false;
    for (unsigned i = 0; i < nst && !g->oom; i++) {
        if (!shared_done && chance(g, 14)) {
            if (chance(g, 50)) stmt_staged_mma(g, &decls);
            else stmt_shared(g, &decls);
            shared_done = chance(g, 50);
            continue;
        }
        gen_stmts(g, 1, 3);
    }
    /* the primary output, always: a tile of the last tile variable, or fresh;
     * with warps(1), the output-view form store(Y, acc, block.y, block.x) */
    {
        Var *acc = NULL;
        for (unsigned i = 0; i < g->nvars; i++)
            if (strncmp(g->vars[i].name, "acc", 3) == 0 && g->vars[i].depth == 0) acc = &g->vars[i];
        const Tensor *y = tensor(g, TS_TILE, E_F32, D_R, D_C, true);
        feature(g, RPG_F_STORE);
        if (acc && chance(g, 60)) {
            feature(g, g->W == 1 ? RPG_F_OUT_VIEW : RPG_F_STORE);
            const char *z = y->rank3 ? "block.z, " : "";
            if (g->W == 1) line(g, "store(%s, %s, %sblock.y, block.x);", y->name, acc->name, z);
            else line(g, "store(%s, %s, %sti, tj);", y->name, acc->name, z);
            acc->used = true;
        } else {
            if (acc) feature(g, RPG_F_EPILOGUE);
            Ex x = bounded(g, gen_tile(g, rt(E_F32, D_R, D_C, false), 3), 1e6);
            if (y->rank3) line(g, "store(%s, %s, block.z, ti, tj);", y->name, x.s);
            else line(g, "store(%s, %s, ti, tj);", y->name, x.s);
        }
    }
    store_the_rest(g);
    /* a product loop over cdiv(K, TK) whose operands read no tensor of K: a
     * K-long input binds the size (else "unknown name 'K'") */
    if (!g->sizes_used[2] && g->body.s && strstr(g->body.s, "cdiv(K, TK)")) tensor(g, TS_VEC, E_F32, D_K, 0, false);

    /* join: constants, helpers, kernel */
    Sb src = { 0 };
    sb_printf(g, &src, "// generated by tk_difftest (tests/gen/rpg.c), seed %llu\n", (unsigned long long)o->seed);
    sb_printf(g, &src, "const TR = %d;\nconst TC = %d;\nconst TK = %d;\nconst W = %d;\nconst TRW = TR * W;\n\n", g->dim[D_R], g->dim[D_C],
              g->dim[D_K], g->W);
    if (g->helpers.s) sb_printf(g, &src, "%s", g->helpers.s);
    sb_printf(g, &src, "kernel %s(%s)\n    grid(cdiv(N, TC), cdiv(M, TRW)%s) warps(W)\n{\n", out->kernel, g->params.s ? g->params.s : "",
              g->sizes_used[3] ? ", B" : "");
    if (decls.s) sb_printf(g, &src, "%s", decls.s);
    sb_printf(g, &src, "%s}\n", g->body.s ? g->body.s : "");

    /* the case */
    int64_t vals[7] = { g->M, g->N, g->K, g->B, cdiv(g->N, g->dim[D_C]), cdiv(g->K, g->dim[D_K]), cdiv(g->M, g->dim[D_R]) };
    static const char *const names[7] = { "M", "N", "K", "B", "NB", "KT", "MT" };
    if (chance(g, 20)) vals[4] += (int64_t)pick(g, 3) - 1;   /* planes missing or spare: masked */
    if (vals[4] < 1) vals[4] = 1;
    size_t n = 0;
    for (int i = 0; i < 7; i++)
        if (g->sizes_used[i]) n += (size_t)snprintf(out->sizes + n, sizeof out->sizes - n, "%s%s=%lld", n ? "," : "", names[i], (long long)vals[i]);
    n = 0;
    static const char *const snames[4] = { "s0", "h0", "q0", "n0" };
    static const double svals[] = { 0.5, 0.75, 1.25, -1.5, 2.0 };
    for (int i = 0; i < 4; i++) {
        if (!g->scalar_made[i]) continue;
        if (i < 3) n += (size_t)snprintf(out->scalars + n, sizeof out->scalars - n, "%s%s=%g", n ? "," : "", snames[i], svals[pick(g, 5)]);
        else n += (size_t)snprintf(out->scalars + n, sizeof out->scalars - n, "%sn0=%d", n ? "," : "", (int)pick(g, 45) - 5);
    }
    if (g->flag_made) n += (size_t)snprintf(out->scalars + n, sizeof out->scalars - n, "%sflag=%s", n ? "," : "", chance(g, 50) ? "true" : "false");
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
