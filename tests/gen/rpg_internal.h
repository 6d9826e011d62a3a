/* rpg_internal.h — what the files of the random program generator share
 * (rpg.h says what it makes): the generator's state G, its types (element
 * types, tile roles, typed expressions, variables, tensors, helpers), and
 * the functions one file calls in another:
 *   rpg.c       the driver: text buffers, the stream of choices, types as
 *               text, tensors and scalar parameters, variables, magnitudes,
 *               and rpg_generate, which joins the program
 *   rpg_expr.c  expressions: tiles, vectors, scalars, masks, sub-tiles and
 *               rows read, helper functions and their calls
 *   rpg_stmt.c  statements: let/var/assign, products (mma) and shared
 *               tiles, loops, if, arrays, element and sub-tile writes,
 *               stores */
#ifndef TK_TESTS_GEN_RPG_INTERNAL_H
#define TK_TESTS_GEN_RPG_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rpg.h"

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

/* ---------------------------------------------------------------- rpg.c */

void rpg_sb_printf(G *g, Sb *b, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
char *rpg_str(G *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rpg_line(G *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
unsigned rpg_pick(G *g, unsigned n);
bool rpg_chance(G *g, unsigned pct);
int rpg_weighted(G *g, const unsigned *w, unsigned n);
void rpg_feature(G *g, RpgFeature f);
char *rpg_flit(G *g, double v);
char *rpg_fresh(G *g, const char *prefix);
char *rpg_ty_str(G *g, Ty t);
bool rpg_ty_eq(Ty a, Ty b);
Ty rpg_rt(int e, int r, int c, bool col);
Ty rpg_rv(int e, int r);
void rpg_note_elem(G *g, int e);
const Tensor *rpg_tensor(G *g, TensorShape shape, int e, int a, int b, bool out);
const Tensor *rpg_tensor_new(G *g, TensorShape shape, int e, int a, int b, bool out, bool fresh_out);
const char *rpg_coord(G *g, int role);
const char *rpg_scalar_param(G *g, int which);
Var *rpg_declare(G *g, const char *name, Ty t, double mag, bool mut);
void rpg_scope_push(G *g);
void rpg_scope_pop(G *g);
Var *rpg_find_var(G *g, Ty t, bool need_mut);
Ex rpg_bounded(G *g, Ex e, double lim);
double rpg_grow(double m);

/* ---------------------------------------------------------------- rpg_expr.c */

Ex rpg_leaf_load(G *g, Ty t);
int rpg_part_role(G *g, int r, bool bigger);
char *rpg_part_range(G *g, int whole, int part);
char *rpg_line_index(G *g, int role);
Ex rpg_gen_tile(G *g, Ty t, int depth);
int rpg_dim_of(const G *g, int role);
Ex rpg_gen_vec(G *g, Ty t, int depth);
Ex rpg_gen_fscalar(G *g, int e, int depth);

/* ---------------------------------------------------------------- rpg_stmt.c */

void rpg_stmt_shared(G *g, Sb *decls);
void rpg_stmt_staged_mma(G *g, Sb *decls);
char *rpg_gen_cond(G *g);
void rpg_gen_stmts(G *g, unsigned n, int depth);
void rpg_store_the_rest(G *g);

#endif
