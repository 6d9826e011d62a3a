/* builtins.c — the built-in functions: one table row per built-in (name,
 * family, arity, one-line meaning) and one typing function per family.
 * docs/LANGUAGE.md §Built-ins states the same rules in prose. */
#include "checker.h"

#include <stdio.h>
#include <string.h>

typedef TkBuiltinFamily Family;

struct TkBuiltin {
    const char *name;
    Family family;
    int min_args, max_args;
    int variant;        /* family-specific: mma form, reduce/broadcast axis, ... */
    const char *meaning;
};

enum { ROWS = 0, COLS = 1 };
enum { MMA_AB = TK_MMA_AB, MMA_ABT = TK_MMA_ABT, MMA_ATB = TK_MMA_ATB, MMA_ATBT = TK_MMA_ATBT };

static const TkBuiltin builtins[] = {
    /* name        family       args   variant  meaning */
    { "load",      F_LOAD,      1, 5,  0,        "copy a tile/vector from a tensor (masked) or a shared tile" },
    { "store",     F_STORE,     2, 6,  0,        "copy a tile/vector into a tensor (masked) or a shared tile" },
    { "zeros",     F_INIT,      0, 0,  0,        "tile/vector of zeros" },
    { "ones",      F_INIT,      0, 0,  1,        "tile/vector of ones" },
    { "fill",      F_INIT,      1, 1,  2,        "tile/vector with every element set to a value" },
    { "mma_ab",    F_MMA,       3, 3,  MMA_AB,   "acc += A·B     (A row, B col)" },
    { "mma_abt",   F_MMA,       3, 3,  MMA_ABT,  "acc += A·Bᵀ    (A row, B row)" },
    { "mma_atb",   F_MMA,       3, 3,  MMA_ATB,  "acc += Aᵀ·B    (A col, B col)" },
    { "mma_atbt",  F_MMA,       3, 3,  MMA_ATBT, "acc += Aᵀ·Bᵀ   (A col, B row)" },
    { "neg",       F_UNARY,     1, 1,  0,        "-x" },
    { "abs",       F_UNARY,     1, 1,  0,        "|x|" },
    { "exp",       F_UNARY,     1, 1,  0,        "e^x" },
    { "exp2",      F_UNARY,     1, 1,  0,        "2^x" },
    { "log",       F_UNARY,     1, 1,  0,        "natural logarithm" },
    { "sqrt",      F_UNARY,     1, 1,  0,        "square root" },
    { "rsqrt",     F_UNARY,     1, 1,  0,        "1/sqrt(x)" },
    { "tanh",      F_UNARY,     1, 1,  0,        "hyperbolic tangent" },
    { "sigmoid",   F_UNARY,     1, 1,  0,        "1/(1+e^-x)" },
    { "relu",      F_UNARY,     1, 1,  0,        "max(x, 0)" },
    { "gelu",      F_UNARY,     1, 1,  0,        "x/2·(1+tanh(√(2/π)(x+0.044715x³)))" },
    { "silu",      F_UNARY,     1, 1,  0,        "x·sigmoid(x)" },
    { "erf",       F_UNARY,     1, 1,  0,        "error function 2/√π·∫₀ˣe^(-t²)dt" },
    { "gelu_erf",  F_UNARY,     1, 1,  0,        "exact GELU x/2·(1+erf(x/√2)) (gelu is the tanh form)" },
    { "fma",       F_FMA,       3, 3,  0,        "x·y + z element-wise, rounded once" },
    { "where",     F_WHERE,     3, 3,  0,        "element-wise choice: a where the mask holds, else b" },
    { "add",       F_BINARY,    2, 2,  0,        "x + y element-wise" },
    { "sub",       F_BINARY,    2, 2,  0,        "x - y element-wise" },
    { "mul",       F_BINARY,    2, 2,  0,        "x · y element-wise" },
    { "div",       F_BINARY,    2, 2,  0,        "x / y element-wise" },
    { "max",       F_BINARY,    2, 2,  0,        "larger of x and y element-wise" },
    { "min",       F_BINARY,    2, 2,  0,        "smaller of x and y element-wise" },
    { "row_max",   F_REDUCE,    1, 1,  ROWS,     "maximum of each row → rv of rows; of a vector → one value" },
    { "row_min",   F_REDUCE,    1, 1,  ROWS,     "minimum of each row → rv of rows; of a vector → one value" },
    { "row_sum",   F_REDUCE,    1, 1,  ROWS,     "sum of each row → rv of rows; of a vector → one value" },
    { "col_max",   F_REDUCE,    1, 1,  COLS,     "maximum of each column → rv of cols" },
    { "col_min",   F_REDUCE,    1, 1,  COLS,     "minimum of each column → rv of cols" },
    { "col_sum",   F_REDUCE,    1, 1,  COLS,     "sum of each column → rv of cols" },
    { "add_row",   F_BROADCAST, 2, 2,  ROWS,     "t[i,j] + v[i]" },
    { "sub_row",   F_BROADCAST, 2, 2,  ROWS,     "t[i,j] - v[i]" },
    { "mul_row",   F_BROADCAST, 2, 2,  ROWS,     "t[i,j] · v[i]" },
    { "div_row",   F_BROADCAST, 2, 2,  ROWS,     "t[i,j] / v[i]" },
    { "add_col",   F_BROADCAST, 2, 2,  COLS,     "t[i,j] + v[j]" },
    { "sub_col",   F_BROADCAST, 2, 2,  COLS,     "t[i,j] - v[j]" },
    { "mul_col",   F_BROADCAST, 2, 2,  COLS,     "t[i,j] · v[j]" },
    { "div_col",   F_BROADCAST, 2, 2,  COLS,     "t[i,j] / v[j]" },
    { "convert",   F_CONVERT,   1, 1,  0,        "change element type (the only narrowing) or layout" },
    { "transpose", F_TRANSPOSE, 1, 1,  0,        "rt<T,R,C,L> → rt<T,C,R,L>, element [j,i] = t[i,j]" },
    { "tril",      F_TRI,       2, 3,  0,        "keep t[i,j] where j - i <= k, others := v (default 0)" },
    { "triu",      F_TRI,       2, 3,  1,        "keep t[i,j] where j - i >= k, others := v (default 0)" },
    { "mask_rows", F_MASK,      3, 3,  ROWS,     "rows i >= n := v" },
    { "mask_cols", F_MASK,      3, 3,  COLS,     "columns j >= n := v (an rv: elements)" },
    { "cdiv",      F_CDIV,      2, 2,  0,        "ceiling division of integers" },
    { "sync",      F_SYNC,      0, 0,  0,        "barrier: every warp of the block arrives before any goes on" },
};

const TkBuiltin *tk_builtin_find(const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strcmp(builtins[i].name, name) == 0) return &builtins[i];
    return NULL;
}

bool tk_is_builtin_name(const char *name) { return tk_builtin_find(name) != NULL; }
const char *tk_builtin_name(const TkBuiltin *b) { return b->name; }
bool tk_builtin_is_sync(const TkBuiltin *b) { return b->family == F_SYNC; }
TkBuiltinFamily tk_builtin_family(const TkBuiltin *b) { return b->family; }
int tk_builtin_variant(const TkBuiltin *b) { return b->variant; }

static TkNode *arg(TkNode *call, int i)
{
    TkNode *a = call->list;
    while (a && i-- > 0) a = a->next;
    return a;
}

bool tk_builtin_is_collective(const TkBuiltin *b, const TkNode *call)
{
    const TkType *t = call->type;
    switch (b->family) {
    case F_SYNC: return true;
    case F_LOAD:
    case F_INIT: return t && tk_is_shared(t->kind);
    case F_STORE: {
        TkNode *dst = call->list, *src = dst ? dst->next : NULL;
        return dst && src && dst->type && src->type && dst->type->kind == TK_TY_GL && tk_is_shared(src->type->kind);
    }
    default: return false;
    }
}

/* ---------------------------------------------------------------- helpers */

static TkType *err(void) { return &tk_type_error; }

static void ts(const TkType *t, char *buf, size_t n) { tk_type_str(t, buf, n); }

static bool want_int(TkChecker *c, TkNode *a, const char *what)
{
    if (!a->type || a->type->kind == TK_TY_ERROR) return false;
    if (tk_is_int(a->type->kind)) {
        if (a->type->kind == TK_TY_UINT) tk_coerce(c, a, &tk_type_i32, what);
        return true;
    }
    char s[128];
    ts(a->type, s, sizeof s);
    TkDiag *g = tk_error(c->diags, a->span, "%s must be an integer", what);
    tk_diag_expected(g, "i32 or i64");
    tk_diag_found(g, "%s", s);
    return false;
}

static TkDiag *type_error(TkChecker *c, TkNode *at, const char *msg, const char *expected, const TkType *found)
{
    char s[160];
    ts(found, s, sizeof s);
    TkDiag *g = tk_error(c->diags, at->span, "%s", msg);
    if (expected) tk_diag_expected(g, "%s", expected);
    tk_diag_found(g, "%s", s);
    return g;
}

/* A register tile argument (rt), or NULL after reporting. */
static const TkType *want_rt(TkChecker *c, const TkBuiltin *b, TkNode *a, const char *role)
{
    if (a->type->kind == TK_TY_ERROR) return NULL;
    if (b->family != F_TRANSPOSE && tk_mask_refused(c, a, b->name)) return NULL;
    if (a->type->kind == TK_TY_RT) return a->type;
    char msg[160];
    snprintf(msg, sizeof msg, "%s of %s must be a register tile", role, b->name);
    TkDiag *g = type_error(c, a, msg, "rt<T, rows, cols>", a->type);
    if (a->type->kind == TK_TY_ST) tk_diag_hint(g, "load the shared tile into an rt first");
    return NULL;
}

/* Type argument or context type of a context-typed built-in. */
static const TkType *result_type(TkChecker *c, const TkBuiltin *b, TkNode *call, const TkType *want)
{
    if (call->explicit_targs) {
        if (tk_list_length(call->list2) != 1) {
            TkDiag *g = tk_error(c->diags, call->name_span, "%s takes one type argument", b->name);
            tk_diag_expected(g, "%s<TYPE>(...)", b->name);
            return NULL;
        }
        TkType *t = tk_resolve_type(c, call->list2, false);
        return t->kind == TK_TY_ERROR ? NULL : t;
    }
    if (want) return want->kind == TK_TY_ERROR ? NULL : want;   /* a broken context is reported already */
    TkDiag *g = tk_error(c->diags, call->span, "the result type of %s(...) is not known here", b->name);
    tk_diag_hint(g, "use it as the initialiser of a typed declaration or an assignment, or write %s<rt<f32, 64, 64>>(...)", b->name);
    return NULL;
}

/* Sub-tile coordinates into a shared tile/vector must be provably in range. */
static bool check_sub_coords(TkChecker *c, const TkBuiltin *b, TkNode *call, TkNode *first, const TkType *whole, const TkType *part)
{
    unsigned n = tk_list_length(first);
    char ws[128], ps[128];
    ts(whole, ws, sizeof ws);
    ts(part, ps, sizeof ps);
    if (n == 0) {
        bool same = whole->dims[0] == part->dims[0] && (whole->rank == 1 || whole->dims[1] == part->dims[1]);
        if (!same) {
            /* register tiles and vectors are rt/rv: "an rt", "an rv" */
            TkDiag *g = tk_error(c->diags, call->span, "%s %s a whole %s needs an %s of the same shape", b->name,
                                 b->family == F_STORE ? "into" : "of", ws, tk_type_kind_name(part->kind));
            const TkType *fit = whole->rank == 1 ? tk_type_vec(c->arena, part->kind, part->elem, whole->dims[0])
                                                 : tk_type_tile(c->arena, part->kind, part->elem, whole->dims[0], whole->dims[1], part->layout);
            if (fit) {
                char fs[128];
                ts(fit, fs, sizeof fs);
                tk_diag_expected(g, "%s", fs);
            }
            tk_diag_found(g, "%s", ps);
            tk_diag_hint(g, "give sub-tile coordinates to use part of it");
            return false;
        }
        return true;
    }
    if (n != whole->rank) return false;   /* caller reports */
    bool ok = true;
    unsigned k = 0;
    for (TkNode *a = first; a; a = a->next, k++) {
        if (!want_int(c, a, "a sub-tile coordinate")) {
            ok = false;
            continue;
        }
        if (whole->dims[k] % part->dims[k] != 0) {
            TkDiag *g = tk_error(c->diags, a->span, "%s does not divide into %s sub-tiles", ws, ps);
            tk_diag_hint(g, "dimension %u: %lld is not a multiple of %lld", k, (long long)whole->dims[k], (long long)part->dims[k]);
            return false;
        }
        int64_t count = whole->dims[k] / part->dims[k], lo, hi;
        bool known = tk_interval(c, a, &lo, &hi);
        if (!known && c->in_kernel && !c->warps_known && tk_uses_warp_id(a)) {
            ok = false;   /* the bad warps(...) is reported; warp.id's range follows from it */
            continue;
        }
        if (!known || lo < 0 || hi >= count) {
            TkDiag *g = tk_error(c->diags, a->span, "sub-tile coordinate may be out of bounds for %s", ws);
            tk_diag_expected(g, "a coordinate in [0, %lld]", (long long)(count - 1));
            if (known) tk_diag_found(g, "a coordinate in [%lld, %lld]", (long long)lo, (long long)hi);
            else tk_diag_found(g, "a coordinate whose range is not known at compile time");
            tk_bounds_hint(c, g, a, NULL);
            ok = false;
        }
    }
    return ok;
}

static bool check_gl_coords(TkChecker *c, const TkBuiltin *b, TkNode *call, TkNode *first, const TkType *gl, const TkType *tile)
{
    unsigned n = tk_list_length(first);
    unsigned need = tile->rank;
    char gs[160];
    ts(gl, gs, sizeof gs);
    if (gl->rank < need) {
        TkDiag *g = tk_error(c->diags, call->span, "a %u-D tensor has no room for a %s", gl->rank,
                             tile->rank == 2 ? "2-D tile" : "vector");
        tk_diag_found(g, "%s", gs);
        return false;
    }
    if (n != gl->rank) {
        TkDiag *g = tk_error(c->diags, call->span, "%s %s %s takes %u coordinate%s, not %u", b->name,
                             b->family == F_STORE ? "into" : "from", gs, gl->rank, gl->rank == 1 ? "" : "s", n);
        tk_diag_expected(g, "%s", gl->rank == need ? "tile coordinates, one per dimension"
                                                   : "element indices for the leading dimensions, then tile coordinates");
        return false;
    }
    bool ok = true;
    for (TkNode *a = first; a; a = a->next) ok = want_int(c, a, "a tensor coordinate") && ok;
    return ok;
}

/* A tile moving in or out of a packed gl (tk_packed_offset) covers whole rows
 * of a plane: 2-D, as wide as the plane, at column coordinate 0. */
static bool check_packed_access(TkChecker *c, const TkBuiltin *b, TkNode *call, TkNode *first, const TkType *gl, const TkType *tile)
{
    if (gl->layout != TK_PACKED) return true;
    char gs[160], tsb[160];
    ts(gl, gs, sizeof gs);
    ts(tile, tsb, sizeof tsb);
    int64_t width = 0;
    tk_poly_is_const(&gl->gdims[gl->rank - 1], &width);
    if (tile->rank != 2) {
        TkDiag *g = tk_error(c->diags, call->span, "%s %s packed %s moves 2-D tiles, not vectors", b->name,
                             b->family == F_STORE ? "into" : "from", gs);
        tk_diag_found(g, "%s", tsb);
        tk_diag_hint(g, "packed planes interleave pairs of rows; move whole rows as a tile of %lld columns", (long long)width);
        return false;
    }
    if (tile->dims[1] != width) {
        TkDiag *g = tk_error(c->diags, call->span, "a tile moving %s packed %s must span its rows (%lld columns)",
                             b->family == F_STORE ? "into" : "out of", gs, (long long)width);
        tk_diag_expected(g, "a tile with %lld columns", (long long)width);
        tk_diag_found(g, "%s", tsb);
        tk_diag_hint(g, "make the tensor's last dimension the tile's width, or load from an unpacked tensor");
        return false;
    }
    TkNode *last = first;
    while (last && last->next) last = last->next;
    if (last && !(last->is_const && last->ival == 0)) {
        TkDiag *g = tk_error(c->diags, last->span, "the column tile coordinate in packed %s must be 0", gs);
        tk_diag_hint(g, "the tile spans the whole row, so there is no other column tile");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- families */

static TkType *check_load(TkChecker *c, const TkBuiltin *b, TkNode *call, const TkType *want)
{
    TkNode *src = call->list;
    const TkType *rt = result_type(c, b, call, want);
    if (!rt) return err();
    char rs[160], ss[160];
    ts(rt, rs, sizeof rs);
    if (!tk_is_tile(rt->kind) && !tk_is_vec(rt->kind)) {
        TkDiag *g = tk_error(c->diags, call->span, "load produces a tile or vector, not %s", rs);
        tk_diag_hint(g, "read single elements by loading a tile and indexing it");
        return err();
    }
    if (tk_is_mask(rt)) {
        TkDiag *g = tk_error(c->diags, call->span, "a mask (%s) cannot be loaded: tensors and shared tiles hold numbers", rs);
        tk_diag_hint(g, "load the numbers and compare them, e.g. `load<rt<f32, 16, 16>>(X, i, j) > 0.0`");
        return err();
    }
    if (src->type->kind == TK_TY_ERROR) return err();
    ts(src->type, ss, sizeof ss);
    if (src->type->kind == TK_TY_GL) {
        if (src->type->elem != rt->elem) {
            TkDiag *g = tk_error(c->diags, call->span, "load from %s cannot produce %s: element types differ", ss, rs);
            tk_diag_expected(g, "%s elements", tk_type_kind_name(src->type->elem));
            tk_diag_found(g, "%s elements", tk_type_kind_name(rt->elem));
            tk_diag_hint(g, "load with the tensor's element type, then convert<%s>(...)", tk_type_kind_name(rt->elem));
            return err();
        }
        if (!check_gl_coords(c, b, call, src->next, src->type, rt)) return err();
        if (!check_packed_access(c, b, call, src->next, src->type, rt)) return err();
        return (TkType *)rt;
    }
    if (tk_is_shared(src->type->kind)) {
        TkTypeKind want_kind = src->type->kind == TK_TY_ST ? TK_TY_RT : TK_TY_RV;
        if (rt->kind != want_kind) {
            TkDiag *g = tk_error(c->diags, call->span, "load from shared %s produces a register %s", ss,
                                 want_kind == TK_TY_RT ? "tile (rt)" : "vector (rv)");
            tk_diag_found(g, "%s", rs);
            tk_diag_hint(g, "shared-to-shared copies go through registers: load into an rt, then store");
            return err();
        }
        if (src->type->elem != rt->elem) {
            TkDiag *g = tk_error(c->diags, call->span, "load from %s cannot produce %s: element types differ", ss, rs);
            tk_diag_hint(g, "load with the tile's element type, then convert<%s>(...)", tk_type_kind_name(rt->elem));
            return err();
        }
        unsigned n = tk_list_length(src->next);
        if (n != 0 && n != src->type->rank) {
            TkDiag *g = tk_error(c->diags, call->span, "load from %s takes 0 or %u sub-tile coordinates, not %u", ss, src->type->rank, n);
            (void)g;
            return err();
        }
        if (!check_sub_coords(c, b, call, src->next, src->type, rt)) return err();
        return (TkType *)rt;
    }
    TkDiag *g = type_error(c, src, "load reads from a global tensor or a shared tile", "gl<...>, st<...> or sv<...>", src->type);
    if (tk_is_register(src->type->kind)) tk_diag_hint(g, "this value is already in registers; assign it instead");
    return err();
}

static TkType *check_store(TkChecker *c, const TkBuiltin *b, TkNode *call)
{
    TkNode *dst = call->list, *src = dst->next;
    if (dst->type->kind == TK_TY_ERROR || src->type->kind == TK_TY_ERROR) return &tk_type_void;
    char ds[160], ss[160];
    ts(dst->type, ds, sizeof ds);
    ts(src->type, ss, sizeof ss);
    if (!tk_is_tile(src->type->kind) && !tk_is_vec(src->type->kind)) {
        TkDiag *g = type_error(c, src, "store writes a tile or vector", "rt, st, rv or sv", src->type);
        if (tk_is_scalar(src->type->kind)) tk_diag_hint(g, "put scalars into a tile with fill(...) or t[i, j] = x");
        return &tk_type_void;
    }
    if (tk_is_mask(src->type)) {
        TkDiag *g = tk_error(c->diags, src->span, "a mask (%s) cannot be stored: tensors and shared tiles hold numbers", ss);
        tk_diag_hint(g, "store numbers: convert<f32>(mask) is 1.0 where it holds, or where(mask, a, b)");
        return &tk_type_void;
    }
    if (dst->type->kind == TK_TY_GL) {
        if (dst->type->elem != src->type->elem) {
            TkDiag *g = tk_error(c->diags, src->span, "cannot store %s into %s: element types differ", ss, ds);
            tk_diag_expected(g, "%s elements", tk_type_kind_name(dst->type->elem));
            tk_diag_found(g, "%s elements", tk_type_kind_name(src->type->elem));
            tk_diag_hint(g, "convert explicitly: store(%s, convert<%s>(...), ...)", dst->kind == TK_N_NAME ? dst->name : "dst",
                         tk_type_kind_name(dst->type->elem));
            return &tk_type_void;
        }
        if (check_gl_coords(c, b, call, src->next, dst->type, src->type))
            check_packed_access(c, b, call, src->next, dst->type, src->type);
        return &tk_type_void;
    }
    if (tk_is_shared(dst->type->kind)) {
        TkTypeKind need = dst->type->kind == TK_TY_ST ? TK_TY_RT : TK_TY_RV;
        if (src->type->kind != need) {
            TkDiag *g = tk_error(c->diags, src->span, "store into shared %s takes a register %s", ds, need == TK_TY_RT ? "tile" : "vector");
            tk_diag_found(g, "%s", ss);
            return &tk_type_void;
        }
        if (dst->type->elem != src->type->elem) {
            TkDiag *g = tk_error(c->diags, src->span, "cannot store %s into %s: element types differ", ss, ds);
            tk_diag_hint(g, "convert explicitly with convert<%s>(...)", tk_type_kind_name(dst->type->elem));
            return &tk_type_void;
        }
        if (!tk_is_lvalue(c, dst, false)) {
            tk_error(c->diags, dst->span, "store needs a shared tile variable as its destination");
            return &tk_type_void;
        }
        unsigned n = tk_list_length(src->next);
        if (n != 0 && n != dst->type->rank) {
            tk_error(c->diags, call->span, "store into %s takes 0 or %u sub-tile coordinates, not %u", ds, dst->type->rank, n);
            return &tk_type_void;
        }
        check_sub_coords(c, b, call, src->next, dst->type, src->type);
        return &tk_type_void;
    }
    TkDiag *g = type_error(c, dst, "store writes into a global tensor or a shared tile", "gl<...>, st<...> or sv<...>", dst->type);
    if (tk_is_register(dst->type->kind)) tk_diag_hint(g, "register values are assigned with =");
    return &tk_type_void;
}

static TkType *check_init(TkChecker *c, const TkBuiltin *b, TkNode *call, const TkType *want)
{
    const TkType *rt = result_type(c, b, call, want);
    if (!rt) return err();
    if (!tk_is_tile(rt->kind) && !tk_is_vec(rt->kind)) {
        char s[128];
        ts(rt, s, sizeof s);
        TkDiag *g = tk_error(c->diags, call->span, "%s produces a tile or vector, not %s", b->name, s);
        tk_diag_hint(g, "for a scalar, write the value itself");
        return err();
    }
    if (tk_is_mask(rt)) {
        char s[128];
        ts(rt, s, sizeof s);
        TkDiag *g = tk_error(c->diags, call->span, "%s makes tiles of numbers, not a mask (%s)", b->name, s);
        tk_diag_hint(g, "a mask declared without an initialiser is all false; or compare, e.g. `x > 0.0`");
        return err();
    }
    if (b->variant == 2) tk_coerce(c, call->list, tk_type_scalar(rt->elem), "fill value");
    return (TkType *)rt;
}

static TkType *check_mma(TkChecker *c, const TkBuiltin *b, TkNode *call)
{
    TkNode *acc = arg(call, 0), *a = arg(call, 1), *bb = arg(call, 2);
    const TkType *ta = want_rt(c, b, acc, "the accumulator");
    const TkType *tA = want_rt(c, b, a, "A");
    const TkType *tB = want_rt(c, b, bb, "B");
    if (!ta || !tA || !tB) return &tk_type_void;
    char s[160], e[160];
    if (ta->elem != TK_TY_F32 || ta->layout != TK_ROW) {
        ts(ta, s, sizeof s);
        TkDiag *g = tk_error(c->diags, acc->span, "the accumulator of %s must be an f32 tile in row layout", b->name);
        snprintf(e, sizeof e, "rt<f32, %lld, %lld, row>", (long long)ta->dims[0], (long long)ta->dims[1]);
        tk_diag_expected(g, "%s", e);
        tk_diag_found(g, "%s", s);
        if (ta->elem != TK_TY_F32)
            tk_diag_hint(g, "accumulate in f32 and convert<...>(...) the result afterwards");
        else   /* only the layout is wrong */
            tk_diag_hint(g, "declare the accumulator as rt<f32, %lld, %lld> (row layout, the default)", (long long)ta->dims[0],
                         (long long)ta->dims[1]);
        return &tk_type_void;
    }
    if (!tk_is_lvalue(c, acc, false)) {
        TkDiag *g = tk_error(c->diags, acc->span, "the accumulator of %s must be a mutable variable", b->name);
        tk_diag_hint(g, "%s adds into its first argument; declare it as `rt<f32, M, N> acc = zeros();`", b->name);
        return &tk_type_void;
    }
    if (tA->elem != tB->elem) {
        TkDiag *g = tk_error(c->diags, bb->span, "A and B of %s have different element types", b->name);
        tk_diag_expected(g, "B with %s elements, like A", tk_type_kind_name(tA->elem));
        tk_diag_found(g, "%s", tk_type_kind_name(tB->elem));
        tk_diag_hint(g, "convert one of them: convert<%s>(...)", tk_type_kind_name(tA->elem));
        return &tk_type_void;
    }
    /* Logical shapes: A is M×K (stored K×M when transposed), B is K×N (N×K). */
    bool at = b->variant == MMA_ATB || b->variant == MMA_ATBT;
    bool bt = b->variant == MMA_ABT || b->variant == MMA_ATBT;
    TkLayout want_a = at ? TK_COL : TK_ROW, want_b = bt ? TK_ROW : TK_COL;
    int64_t M = ta->dims[0], N = ta->dims[1];
    int64_t aM = at ? tA->dims[1] : tA->dims[0], aK = at ? tA->dims[0] : tA->dims[1];
    int64_t bK = bt ? tB->dims[1] : tB->dims[0], bN = bt ? tB->dims[0] : tB->dims[1];
    if (tA->layout != want_a) {
        ts(tA, s, sizeof s);
        TkDiag *g = tk_error(c->diags, a->span, "%s wants A in %s layout", b->name, want_a == TK_ROW ? "row" : "col");
        snprintf(e, sizeof e, "rt<%s, %lld, %lld, %s>", tk_type_kind_name(tA->elem), (long long)tA->dims[0], (long long)tA->dims[1],
                 want_a == TK_ROW ? "row" : "col");
        tk_diag_expected(g, "%s", e);
        tk_diag_found(g, "%s", s);
        /* The other form takes A in the layout it has, but stored transposed. */
        tk_diag_hint(g, "%s wants A in %s layout; load it as %s or use %s with A stored %s, as rt<%s, %lld, %lld, %s>", b->name,
                     want_a == TK_ROW ? "row" : "col", e,
                     b->variant == MMA_AB ? "mma_atb" : b->variant == MMA_ABT ? "mma_atbt" : b->variant == MMA_ATB ? "mma_ab" : "mma_abt",
                     at ? "M×K" : "K×M", tk_type_kind_name(tA->elem), (long long)tA->dims[1], (long long)tA->dims[0],
                     tA->layout == TK_ROW ? "row" : "col");
        return &tk_type_void;
    }
    if (tB->layout != want_b) {
        ts(tB, s, sizeof s);
        TkDiag *g = tk_error(c->diags, bb->span, "%s wants B in %s layout", b->name, want_b == TK_ROW ? "row" : "col");
        snprintf(e, sizeof e, "rt<%s, %lld, %lld, %s>", tk_type_kind_name(tB->elem), (long long)tB->dims[0], (long long)tB->dims[1],
                 want_b == TK_ROW ? "row" : "col");
        tk_diag_expected(g, "%s", e);
        tk_diag_found(g, "%s", s);
        /* The other form takes B in the layout it has, but stored transposed. */
        tk_diag_hint(g, "%s wants B in %s layout; load it as %s or use %s with B stored %s, as rt<%s, %lld, %lld, %s>", b->name,
                     want_b == TK_ROW ? "row" : "col", e,
                     b->variant == MMA_AB ? "mma_abt" : b->variant == MMA_ABT ? "mma_ab" : b->variant == MMA_ATB ? "mma_atbt" : "mma_atb",
                     bt ? "K×N" : "N×K", tk_type_kind_name(tB->elem), (long long)tB->dims[1], (long long)tB->dims[0],
                     tB->layout == TK_ROW ? "row" : "col");
        return &tk_type_void;
    }
    if (aM != M) {
        ts(tA, s, sizeof s);
        TkDiag *g = tk_error(c->diags, a->span, "A of %s has %lld %s, but the accumulator has %lld rows", b->name, (long long)aM,
                             at ? "columns (A is transposed)" : "rows", (long long)M);
        snprintf(e, sizeof e, "rt<%s, %lld, %lld, %s>", tk_type_kind_name(tA->elem), (long long)(at ? aK : M),
                 (long long)(at ? M : aK), at ? "col" : "row");
        tk_diag_expected(g, "%s", e);
        tk_diag_found(g, "%s", s);
        return &tk_type_void;
    }
    if (bN != N) {
        ts(tB, s, sizeof s);
        TkDiag *g = tk_error(c->diags, bb->span, "B of %s has %lld %s, but the accumulator has %lld columns", b->name, (long long)bN,
                             bt ? "rows (B is transposed)" : "columns", (long long)N);
        snprintf(e, sizeof e, "rt<%s, %lld, %lld, %s>", tk_type_kind_name(tB->elem), (long long)(bt ? N : bK), (long long)(bt ? bK : N),
                 want_b == TK_ROW ? "row" : "col");
        tk_diag_expected(g, "%s", e);
        tk_diag_found(g, "%s", s);
        return &tk_type_void;
    }
    if (aK != bK) {
        char sa[160];
        ts(tA, sa, sizeof sa);
        ts(tB, s, sizeof s);
        TkDiag *g = tk_error(c->diags, bb->span, "inner dimensions of %s do not match: A has K = %lld, B has K = %lld", b->name,
                             (long long)aK, (long long)bK);
        snprintf(e, sizeof e, "rt<%s, %lld, %lld, %s>", tk_type_kind_name(tB->elem), (long long)(bt ? N : aK), (long long)(bt ? aK : N),
                 want_b == TK_ROW ? "row" : "col");
        tk_diag_expected(g, "%s (K = %lld, from A: %s)", e, (long long)aK, sa);
        tk_diag_found(g, "%s", s);
        return &tk_type_void;
    }
    return &tk_type_void;
}

TkType *tk_check_unary_map(TkChecker *c, TkNode *e, const char *what, TkNode *a)
{
    TkType *t = a->type;
    (void)e;
    if (t->kind == TK_TY_ERROR) return err();
    if (tk_mask_refused(c, a, what)) return err();
    if (tk_is_register(t->kind)) return t;
    if (t->kind == TK_TY_UFLOAT) {
        tk_coerce(c, a, &tk_type_f32, "argument");
        return &tk_type_f32;
    }
    if (tk_is_float(t->kind)) return t;
    bool neg_or_abs = strcmp(what, "neg") == 0 || strcmp(what, "abs") == 0;
    if (neg_or_abs && tk_is_int(t->kind)) {
        if (t->kind == TK_TY_UINT) tk_coerce(c, a, &tk_type_i32, "argument");
        return t->kind == TK_TY_UINT ? &tk_type_i32 : t;
    }
    char msg[128];
    snprintf(msg, sizeof msg, "%s takes a float scalar, rt or rv", what);
    TkDiag *g = type_error(c, a, msg, neg_or_abs ? "a number, rt or rv" : "f32, f16, bf16, rt<...> or rv<...>", t);
    if (tk_is_shared(t->kind)) tk_diag_hint(g, "load the shared tile into registers first");
    else if (tk_is_int(t->kind)) tk_diag_hint(g, "convert<f32>(...) the integer first");
    return err();
}

TkType *tk_check_elementwise(TkChecker *c, TkNode *e, const char *what, TkNode *a, TkNode *b)
{
    TkType *x = a->type, *y = b->type;
    if (x->kind == TK_TY_ERROR || y->kind == TK_TY_ERROR) return err();
    char xs[160], ys[160];
    ts(x, xs, sizeof xs);
    ts(y, ys, sizeof ys);
    TkNode *ops[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        TkType *t = ops[i]->type;
        if (tk_is_shared(t->kind) || t->kind == TK_TY_GL || t->kind == TK_TY_VOID || t->kind == TK_TY_BOOL) {
            char msg[128];
            snprintf(msg, sizeof msg, "operand %d of %s must be a number, rt or rv", i + 1, what);
            TkDiag *g = type_error(c, ops[i], msg, "a scalar, rt<...> or rv<...>", t);
            if (tk_is_shared(t->kind)) tk_diag_hint(g, "load the shared tile into registers first");
            return err();
        }
        if (tk_mask_refused(c, ops[i], what)) return err();
    }
    if (tk_is_scalar(x->kind) && tk_is_scalar(y->kind)) {
        TkType *t = tk_common_scalar(c, e, a, b);
        return t ? t : err();
    }
    if (tk_is_register(x->kind) && tk_is_register(y->kind)) {
        if (tk_type_equal(x, y)) return x;
        TkDiag *g;
        if (x->kind != y->kind || x->dims[0] != y->dims[0] || (x->rank == 2 && x->dims[1] != y->dims[1]))
            g = tk_error(c->diags, e->span, "operands of %s have different shapes", what);
        else if (x->elem != y->elem)
            g = tk_error(c->diags, e->span, "operands of %s have different element types", what);
        else
            g = tk_error(c->diags, e->span, "operands of %s have different layouts", what);
        tk_diag_expected(g, "%s (like the first operand)", xs);
        tk_diag_found(g, "%s", ys);
        if (x->kind == y->kind && x->elem != y->elem) tk_diag_hint(g, "convert one side: convert<%s>(...)", tk_type_kind_name(x->elem));
        else if (x->kind == TK_TY_RT && y->kind == TK_TY_RV) tk_diag_hint(g, "to apply a vector to every row or column use add_row/add_col and friends");
        else if (x->kind == TK_TY_RT && x->layout != y->layout) tk_diag_hint(g, "use convert<%s>(...) to change the layout", xs);
        return err();
    }
    /* tile with scalar: the scalar must already be (or become) the element type */
    TkNode *tile = tk_is_register(x->kind) ? a : b, *sc = tile == a ? b : a;
    TkType *elem = tk_type_scalar(tile->type->elem);
    if (sc->type->kind != elem->kind) {
        if (tk_is_untyped(sc->type->kind)) {
            if (!tk_coerce(c, sc, elem, "scalar operand")) return err();
        } else {
            char ss[64];
            ts(sc->type, ss, sizeof ss);
            TkDiag *g = tk_error(c->diags, sc->span, "scalar operand of %s has type %s, but the tile holds %s", what, ss,
                                 tk_type_kind_name(elem->kind));
            tk_diag_expected(g, "%s", tk_type_kind_name(elem->kind));
            tk_diag_found(g, "%s", ss);
            tk_diag_hint(g, "convert<%s>(...) the scalar", tk_type_kind_name(elem->kind));
            return err();
        }
    }
    return tile->type;
}

/* fma(x, y, z): every pair must be a valid element-wise operand pair (so
 * tiles agree in shape, layout and element type, and scalars are of the
 * tiles' element type), and the elements are floats. */
static TkType *check_fma(TkChecker *c, TkNode *call)
{
    TkNode *x = call->list, *y = x->next, *z = y->next;
    TkType *t = tk_check_elementwise(c, call, "fma", x, y);
    if (t->kind == TK_TY_ERROR || tk_check_elementwise(c, call, "fma", x, z)->kind == TK_TY_ERROR ||
        tk_check_elementwise(c, call, "fma", y, z)->kind == TK_TY_ERROR)
        return err();
    if (tk_is_register(z->type->kind)) t = z->type;
    if (tk_is_untyped(t->kind) && t->kind == TK_TY_UFLOAT) {
        for (TkNode *a = x; a; a = a->next) tk_coerce(c, a, &tk_type_f32, "argument");
        return &tk_type_f32;
    }
    TkTypeKind k = tk_is_scalar(t->kind) ? t->kind : t->elem;
    if (!tk_is_float(k)) {
        TkDiag *g = type_error(c, call, "fma takes float operands", "f32, f16, bf16 or tiles of them", t);
        tk_diag_hint(g, "for integers write x * y + z");
        return err();
    }
    return t;
}

static TkType *check_reduce(TkChecker *c, const TkBuiltin *b, TkNode *call)
{
    TkNode *a = call->list;
    if (a->type->kind == TK_TY_RV && b->variant == ROWS) {   /* a vector is one row: its reduction is one value */
        if (tk_mask_refused(c, a, b->name)) return err();
        return tk_type_scalar(a->type->elem);
    }
    if (a->type->kind == TK_TY_RV) {
        char msg[96];
        snprintf(msg, sizeof msg, "the argument of %s must be a register tile", b->name);
        TkDiag *g = type_error(c, a, msg, "rt<T, rows, cols>", a->type);
        tk_diag_hint(g, "a vector is one row: row_%s(v) reduces its elements to one value", b->name + 4);
        return err();
    }
    const TkType *t = want_rt(c, b, a, "the argument");
    if (!t) return err();
    return tk_type_vec(c->arena, TK_TY_RV, t->elem, t->dims[b->variant == ROWS ? 0 : 1]);
}

static TkType *check_broadcast(TkChecker *c, const TkBuiltin *b, TkNode *call)
{
    TkNode *v = call->list->next;
    const TkType *t = want_rt(c, b, call->list, "the tile");
    if (!t || v->type->kind == TK_TY_ERROR) return err();
    int64_t n = t->dims[b->variant == ROWS ? 0 : 1];
    char e[128];
    snprintf(e, sizeof e, "rv<%s, %lld>", tk_type_kind_name(t->elem), (long long)n);
    if (v->type->kind != TK_TY_RV || v->type->dims[0] != n || v->type->elem != t->elem) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s needs one value per %s of the tile", b->name, b->variant == ROWS ? "row" : "column");
        TkDiag *g = type_error(c, v, msg, e, v->type);
        if (v->type->kind == TK_TY_RV && v->type->dims[0] == t->dims[b->variant == ROWS ? 1 : 0] && t->dims[0] != t->dims[1])
            tk_diag_hint(g, "this vector matches the %s; use the _%s form", b->variant == ROWS ? "columns" : "rows",
                         b->variant == ROWS ? "col" : "row");
        else if (tk_is_scalar(v->type->kind))
            tk_diag_hint(g, "for one value applied everywhere use %.3s(tile, x)", b->name);
        return err();
    }
    return (TkType *)t;
}

static TkType *check_convert(TkChecker *c, const TkBuiltin *b, TkNode *call)
{
    TkNode *x = call->list;
    if (!call->explicit_targs) {
        TkDiag *g = tk_error(c->diags, call->span, "convert needs the target type");
        tk_diag_expected(g, "convert<T>(x), e.g. convert<bf16>(x)");
        return err();
    }
    const TkType *to = result_type(c, b, call, NULL);
    if (!to || x->type->kind == TK_TY_ERROR) return err();
    const TkType *from = x->type;
    char fs[160], tos[160];
    ts(from, fs, sizeof fs);
    ts(to, tos, sizeof tos);
    if (tk_is_scalar(to->kind)) {
        if (to->kind == TK_TY_BOOL || from->kind == TK_TY_BOOL) {
            TkDiag *g = tk_error(c->diags, call->span, "convert does not take or produce bool");
            tk_diag_hint(g, "compare instead, e.g. `x != 0`");
            return err();
        }
        if (tk_is_scalar(from->kind)) {
            if (tk_is_untyped(from->kind)) tk_coerce(c, x, from->kind == TK_TY_UINT ? &tk_type_i64 : &tk_type_f32, "argument");
            return (TkType *)to;
        }
        if (tk_is_register(from->kind)) {
            if (!tk_is_float(to->kind)) {
                TkDiag *g = tk_error(c->diags, call->span, "tiles and vectors hold floats; cannot convert to %s", tos);
                tk_diag_expected(g, "f32, f16 or bf16");
                return err();
            }
            return tk_type_with_elem(c->arena, from, to->kind);
        }
        TkDiag *g = type_error(c, x, "convert takes a scalar, rt or rv", "a scalar, rt<...> or rv<...>", from);
        if (tk_is_shared(from->kind)) tk_diag_hint(g, "load the shared tile into registers first");
        return err();
    }
    if (tk_is_mask(to) && !tk_is_mask(from)) {
        TkDiag *g = tk_error(c->diags, call->span, "convert cannot make a mask (%s) from numbers (%s)", tos, fs);
        tk_diag_hint(g, "compare instead, e.g. `x != 0.0`");
        return err();
    }
    if (to->kind == TK_TY_RT && from->kind == TK_TY_RT) {
        if (from->dims[0] != to->dims[0] || from->dims[1] != to->dims[1]) {
            TkDiag *g = tk_error(c->diags, call->span, "convert cannot change a tile's shape");
            tk_diag_expected(g, "rt<..., %lld, %lld, ...>", (long long)from->dims[0], (long long)from->dims[1]);
            tk_diag_found(g, "%s", tos);
            tk_diag_hint(g, "use transpose(...) to swap rows and columns");
            return err();
        }
        return (TkType *)to;
    }
    if (to->kind == TK_TY_RV && from->kind == TK_TY_RV && to->dims[0] == from->dims[0]) return (TkType *)to;
    TkDiag *g = tk_error(c->diags, call->span, "cannot convert %s to %s", fs, tos);
    tk_diag_hint(g, "convert<T> takes an element type, or a register tile type of the same shape");
    return err();
}

static TkType *check_transpose(TkChecker *c, const TkBuiltin *b, TkNode *call)
{
    const TkType *t = want_rt(c, b, call->list, "the argument");
    if (!t) return err();
    return tk_type_tile(c->arena, TK_TY_RT, t->elem, t->dims[1], t->dims[0], t->layout);
}

static TkType *check_fill_value(TkChecker *c, TkNode *v, const TkType *t)
{
    if (v && v->type->kind != TK_TY_ERROR) tk_coerce(c, v, tk_type_scalar(t->elem), "fill value");
    return (TkType *)t;
}

static TkType *check_tri(TkChecker *c, const TkBuiltin *b, TkNode *call)
{
    const TkType *t = want_rt(c, b, call->list, "the tile");
    TkNode *k = arg(call, 1);
    bool ok = want_int(c, k, "the diagonal offset");
    if (!t || !ok) return err();
    return check_fill_value(c, arg(call, 2), t);
}

static TkType *check_mask(TkChecker *c, const TkBuiltin *b, TkNode *call)
{
    TkNode *a = call->list;
    const TkType *t;
    if (a->type->kind == TK_TY_RV && b->variant == COLS) {   /* a vector is one row: its elements are columns */
        t = tk_mask_refused(c, a, b->name) ? NULL : a->type;
    } else if (a->type->kind == TK_TY_RV) {
        TkDiag *g = type_error(c, a, "the tile of mask_rows must be a register tile", "rt<T, rows, cols>", a->type);
        tk_diag_hint(g, "a vector is one row: mask_cols(v, n, x) replaces its elements from index n on");
        t = NULL;
    } else {
        t = want_rt(c, b, a, "the tile");
    }
    bool ok = want_int(c, arg(call, 1), b->variant == ROWS ? "the row count" : "the column count");
    if (!t || !ok) return err();
    return check_fill_value(c, arg(call, 2), t);
}

static TkType *check_cdiv(TkChecker *c, TkNode *call)
{
    TkNode *a = arg(call, 0), *d = arg(call, 1);
    bool ok = want_int(c, a, "the dividend of cdiv");
    ok = want_int(c, d, "the divisor of cdiv") && ok;
    if (!ok) return err();
    TkType *t = tk_common_scalar(c, call, a, d);
    if (!t) return err();
    if (d->is_const && d->ival <= 0) {
        TkDiag *g = tk_error(c->diags, d->span, "cdiv by %lld", (long long)d->ival);
        tk_diag_expected(g, "a positive divisor");
        return err();
    }
    if (a->is_const && d->is_const) {
        call->is_const = true;
        int64_t q = a->ival / d->ival;
        if (a->ival % d->ival > 0) q++;
        call->ival = q;
        call->fval = (double)q;
    }
    return t;
}

/* ---------------------------------------------------------------- entry */

TkType *tk_check_builtin_call(TkChecker *c, const TkBuiltin *b, TkNode *call, const TkType *want)
{
    call->sym = (void *)b;
    int n = (int)tk_list_length(call->list);
    /* Arguments first, without context: only the built-in knows what it wants. */
    for (TkNode *a = call->list; a; a = a->next) tk_check_expr(c, a, NULL);
    if (call->explicit_targs && b->family != F_CONVERT && b->family != F_LOAD && b->family != F_INIT) {
        tk_error(c->diags, call->name_span, "%s takes no type arguments", b->name);
        return err();
    }
    if (n < b->min_args || n > b->max_args) {
        TkDiag *g;
        if (b->min_args == b->max_args)
            g = tk_error(c->diags, call->span, "%s takes %d argument%s, not %d", b->name, b->min_args, b->min_args == 1 ? "" : "s", n);
        else
            g = tk_error(c->diags, call->span, "%s takes %d to %d arguments, not %d", b->name, b->min_args, b->max_args, n);
        tk_diag_hint(g, "%s: %s", b->name, b->meaning);
        return b->family == F_STORE || b->family == F_MMA || b->family == F_SYNC ? &tk_type_void : err();
    }
    switch (b->family) {
    case F_LOAD: return check_load(c, b, call, want);
    case F_STORE: return check_store(c, b, call);
    case F_INIT: return check_init(c, b, call, want);
    case F_MMA: return check_mma(c, b, call);
    case F_UNARY: return tk_check_unary_map(c, call, b->name, call->list);
    case F_BINARY: return tk_check_elementwise(c, call, b->name, call->list, call->list->next);
    case F_REDUCE: return check_reduce(c, b, call);
    case F_BROADCAST: return check_broadcast(c, b, call);
    case F_CONVERT: return check_convert(c, b, call);
    case F_TRANSPOSE: return check_transpose(c, b, call);
    case F_TRI: return check_tri(c, b, call);
    case F_MASK: return check_mask(c, b, call);
    case F_CDIV: return check_cdiv(c, call);
    case F_SYNC: return &tk_type_void;
    case F_FMA: return check_fma(c, call);
    case F_WHERE: return tk_check_where(c, call);
    }
    return err();
}
