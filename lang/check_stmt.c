/* check_stmt.c — scopes, type expressions, and statements: declarations and
 * their placement rules, assignments, if/for/return. */
#include "checker.h"

#include <string.h>

/* ---------------------------------------------------------------- scopes */

void tk_scope_push(TkChecker *c, TkScope *s)
{
    s->parent = c->scope;
    c->scope = s;
}

void tk_scope_pop(TkChecker *c)
{
    if (c->scope) c->scope = c->scope->parent;
}

TkSymbol *tk_scope_lookup_local(TkScope *s, const char *name)
{
    for (TkSymbol *sym = s ? s->syms : NULL; sym; sym = sym->next)
        if (strcmp(sym->name, name) == 0) return sym;
    return NULL;
}

TkSymbol *tk_scope_lookup(TkChecker *c, const char *name)
{
    for (TkScope *s = c->scope; s; s = s->parent) {
        TkSymbol *sym = tk_scope_lookup_local(s, name);
        if (sym) return sym;
    }
    return NULL;
}

static const char *sym_kind_name(TkSymKind k)
{
    switch (k) {
    case TK_SYM_CONST: return "constant";
    case TK_SYM_VAR: return "variable";
    case TK_SYM_LET: return "binding";
    case TK_SYM_LOOP: return "loop variable";
    case TK_SYM_PARAM: return "parameter";
    case TK_SYM_SIZE: return "size";
    case TK_SYM_FN: return "helper";
    case TK_SYM_KERNEL: return "kernel";
    }
    return "name";
}

TkSymbol *tk_declare(TkChecker *c, TkSymKind kind, const char *name, TkSpan span, TkType *type, TkNode *decl)
{
    if (tk_is_builtin_name(name)) {
        TkDiag *g = tk_error(c->diags, span, "'%s' is the name of a built-in", name);
        tk_diag_hint(g, "choose another name; built-in names are reserved");
    } else {
        TkSymbol *old = tk_scope_lookup(c, name);
        if (old && !old->placeholder) {
            uint32_t line, col;
            tk_source_position(c->diags->src, old->span.begin, &line, &col);
            bool same_scope = tk_scope_lookup_local(c->scope, name) == old;
            TkDiag *g = same_scope
                ? tk_error(c->diags, span, "'%s' is already declared in this scope", name)
                : tk_error(c->diags, span, "'%s' shadows the %s declared at line %u", name, sym_kind_name(old->kind), line);
            tk_diag_hint(g, same_scope ? "rename one of them" : "shadowing is not allowed; choose another name");
            if (same_scope) return old;
        }
    }
    TkSymbol *s = tk_arena_alloc(c->arena, sizeof *s);
    if (!s) return NULL;
    s->kind = kind;
    s->name = name;
    s->span = span;
    s->type = type;
    s->decl = decl;
    s->next = c->scope->syms;
    c->scope->syms = s;
    return s;
}

/* ---------------------------------------------------------------- types */

static TkTypeKind scalar_kind(TkTypeCon tc)
{
    switch (tc) {
    case TK_TC_BOOL: return TK_TY_BOOL;
    case TK_TC_I32: return TK_TY_I32;
    case TK_TC_I64: return TK_TY_I64;
    case TK_TC_F32: return TK_TY_F32;
    case TK_TC_F16: return TK_TY_F16;
    case TK_TC_BF16: return TK_TY_BF16;
    default: return TK_TY_ERROR;
    }
}

/* A packed gl moves whole planes' rows (tk_packed_offset): it needs a plane
 * (rank ≥ 2) whose width is a compile-time constant, so that every tile that
 * enters or leaves it spans that width. */
static bool check_packed_gl(TkChecker *c, const TkNode *n, const TkType *t)
{
    int64_t width;
    if (t->rank < 2) {
        TkDiag *g = tk_error(c->diags, n->name_span, "a packed tensor needs at least 2 dimensions");
        tk_diag_hint(g, "packing interleaves pairs of rows of its last two dimensions");
        return false;
    }
    if (!tk_poly_is_const(&t->gdims[t->rank - 1], &width)) {
        TkDiag *g = tk_error(c->diags, n->name_span, "the last dimension of a packed tensor must be a constant");
        tk_diag_hint(g, "tiles move in and out of a packed tensor as whole rows; give the row width as a constant, e.g. gl<bf16, NB, KP, 256, packed>");
        return false;
    }
    return true;
}

static bool tile_dim(TkChecker *c, TkNode *e, const char *con, int64_t max, int64_t *out)
{
    tk_check_expr(c, e, NULL);
    if (!tk_const_int(c, e, "a tile dimension", out)) return false;
    if (*out <= 0 || *out % TK_TILE_DIM_MULTIPLE != 0 || *out > max) {
        TkDiag *g = tk_error(c->diags, e->span, "%s dimension %lld is not a positive multiple of %d up to %lld", con,
                             (long long)*out, TK_TILE_DIM_MULTIPLE, (long long)max);
        tk_diag_expected(g, "16, 32, 48, ..., %lld", (long long)max);
        tk_diag_found(g, "%lld", (long long)*out);
        tk_diag_hint(g, "16 is the base tile of every target; tensors of any size are handled by masked loads");
        return false;
    }
    return true;
}

TkType *tk_resolve_type(TkChecker *c, TkNode *n, bool allow_new_sizes)
{
    if (n->tycon <= TK_TC_BF16) return n->type = tk_type_scalar(scalar_kind(n->tycon));
    const char *con = tk_typecon_spelling(n->tycon);
    TkType *elem = tk_resolve_type(c, n->a, false);
    if (elem->kind == TK_TY_ERROR) return n->type = &tk_type_error;
    bool mask = elem->kind == TK_TY_BOOL && (n->tycon == TK_TC_RT || n->tycon == TK_TC_RV);   /* check_mask.c */
    if (!tk_is_float(elem->kind) && !mask) {
        char ts[64];
        tk_type_str(elem, ts, sizeof ts);
        TkDiag *g = tk_error(c->diags, n->a->span, "%s element type must be a float type", con);
        tk_diag_expected(g, "f32, f16 or bf16");
        tk_diag_found(g, "%s", ts);
        if (elem->kind == TK_TY_BOOL) tk_diag_hint(g, "only register tiles and vectors hold bool (masks): rt<bool, R, C>, rv<bool, N>");
        return n->type = &tk_type_error;
    }
    unsigned want_lo, want_hi;
    switch (n->tycon) {
    case TK_TC_RT: case TK_TC_ST: want_lo = want_hi = 2; break;
    case TK_TC_RV: case TK_TC_SV: want_lo = want_hi = 1; break;
    default: want_lo = 1; want_hi = TK_GL_MAX_RANK; break;
    }
    unsigned ndims = tk_list_length(n->list);
    if (ndims < want_lo || ndims > want_hi) {
        TkDiag *g = tk_error(c->diags, n->span, "%s takes %s, not %u", con,
                             n->tycon == TK_TC_GL ? "1 to 4 dimensions" : want_lo == 2 ? "2 dimensions" : "1 dimension", ndims);
        tk_diag_expected(g, "%s", n->tycon == TK_TC_RT ? "rt<T, rows, cols> or rt<T, rows, cols, row|col>"
                              : n->tycon == TK_TC_ST ? "st<T, rows, cols>"
                              : n->tycon == TK_TC_RV ? "rv<T, n>"
                              : n->tycon == TK_TC_SV ? "sv<T, n>" : "gl<T, d0, d1, ...>");
        return n->type = &tk_type_error;
    }
    if (n->layout == TK_LAYOUT_PACKED && n->tycon != TK_TC_GL) {
        TkDiag *g = tk_error(c->diags, n->name_span, "only global tensors (gl) can be packed");
        tk_diag_hint(g, "%s", n->tycon == TK_TC_RT ? "a register tile's layout is row or col; the compiler packs mma operands itself"
                                                   : "remove 'packed'");
        return n->type = &tk_type_error;
    }
    if (n->layout != TK_LAYOUT_DEFAULT && n->layout != TK_LAYOUT_PACKED && n->tycon != TK_TC_RT) {
        TkDiag *g = tk_error(c->diags, n->name_span, "only register tiles have a layout");
        tk_diag_hint(g, "%s", n->tycon == TK_TC_ST ? "the compiler picks the shared-memory layout; choose the layout when loading into an rt"
                                                   : "remove the layout");
        return n->type = &tk_type_error;
    }
    if (n->tycon == TK_TC_GL) {
        TkType *t = tk_arena_alloc(c->arena, sizeof *t);
        if (!t) return n->type = &tk_type_error;
        t->kind = TK_TY_GL;
        t->elem = elem->kind;
        t->rank = (uint8_t)ndims;
        t->size_names = c->sizes;
        unsigned i = 0;
        bool ok = true;
        for (TkNode *d = n->list; d; d = d->next, i++) ok = tk_dim_poly(c, d, allow_new_sizes, &t->gdims[i]) && ok;
        /* a bad 'packed' is reported and dropped: the tensor still binds its sizes */
        if (ok && n->layout == TK_LAYOUT_PACKED && check_packed_gl(c, n, t)) t->layout = TK_PACKED;
        return n->type = ok ? t : &tk_type_error;
    }
    int64_t max = n->tycon == TK_TC_RT || n->tycon == TK_TC_RV ? TK_RT_MAX_DIM : TK_ST_MAX_DIM;
    int64_t d0 = 0, d1 = 0;
    bool ok = tile_dim(c, n->list, con, max, &d0);
    if (ndims == 2) ok = tile_dim(c, n->list->next, con, max, &d1) && ok;
    if (!ok) return n->type = &tk_type_error;
    TkTypeKind k = n->tycon == TK_TC_RT ? TK_TY_RT : n->tycon == TK_TC_ST ? TK_TY_ST
                 : n->tycon == TK_TC_RV ? TK_TY_RV : TK_TY_SV;
    if (ndims == 2) return n->type = tk_type_tile(c->arena, k, elem->kind, d0, d1, n->layout == TK_LAYOUT_COL ? TK_COL : TK_ROW);
    return n->type = tk_type_vec(c->arena, k, elem->kind, d0);
}

/* ---------------------------------------------------------------- statements */

bool tk_block_returns(const TkNode *s)
{
    if (!s) return false;
    switch (s->kind) {
    case TK_N_RETURN: return true;
    case TK_N_BLOCK: {
        const TkNode *last = s->list;
        while (last && last->next) last = last->next;
        return tk_block_returns(last);
    }
    case TK_N_IF: return s->c && tk_block_returns(s->b) && tk_block_returns(s->c);
    default: return false;
    }
}

static bool at_kernel_top(const TkChecker *c)
{
    return c->in_kernel && c->block_depth == 1 && c->loop_depth == 0 && c->if_depth == 0;
}

static void check_placement(TkChecker *c, TkNode *s, TkType *t)
{
    if (tk_is_shared(t->kind) && !at_kernel_top(c)) {
        TkDiag *g = tk_error(c->diags, s->a->span, "shared %s '%s' must be declared at the top level of a kernel body",
                             t->kind == TK_TY_ST ? "tile" : "vector", s->name);
        tk_diag_found(g, "%s", c->in_kernel ? (c->loop_depth ? "inside a loop" : c->if_depth ? "inside an if" : "inside a nested block")
                                            : "inside a helper");
        tk_diag_hint(g, "%s", c->in_kernel ? "shared memory belongs to the whole block; move the declaration to the start of the kernel"
                                           : "pass the shared tile to the helper as a parameter");
    }
}

static void check_var(TkChecker *c, TkNode *s)
{
    TkType *t;
    if (s->a->tycon == TK_TC_GL) {
        /* Wrong whatever its dims say: report that, not an unknown size in them. */
        TkDiag *g = tk_error(c->diags, s->a->span, "a global tensor cannot be declared inside a function");
        tk_diag_hint(g, "tensors come in as kernel parameters");
        t = &tk_type_error;
    } else {
        t = tk_resolve_type(c, s->a, false);
        if (t->kind != TK_TY_ERROR) check_placement(c, s, t);
    }
    if (s->b) {
        /* an error type (already reported) silences zeros()/load() there */
        tk_check_expr(c, s->b, t);
        if (t->kind != TK_TY_ERROR) tk_coerce(c, s->b, t, "initialiser");
    }
    s->type = t;
    s->sym = tk_declare(c, TK_SYM_VAR, s->name, s->name_span, t, s);
}

static TkType *default_type(TkType *t)
{
    if (t->kind == TK_TY_UINT) return &tk_type_i32;
    if (t->kind == TK_TY_UFLOAT) return &tk_type_f32;
    return t;
}

static void check_let(TkChecker *c, TkNode *s)
{
    TkType *t = tk_check_expr(c, s->b, NULL);
    if (t->kind == TK_TY_VOID) {
        tk_error(c->diags, s->b->span, "this expression has no value to bind");
        t = &tk_type_error;
    } else if (t->kind == TK_TY_GL || tk_is_shared(t->kind)) {
        TkDiag *g = tk_error(c->diags, s->b->span, "let cannot bind a %s", t->kind == TK_TY_GL ? "global tensor" : "shared tile or vector");
        tk_diag_hint(g, "use the original name; tensors and shared memory are not copied");
        t = &tk_type_error;
    } else if (t->kind == TK_TY_UINT) {
        tk_coerce(c, s->b, &tk_type_i32, "let initialiser");
    } else if (t->kind == TK_TY_UFLOAT) {
        tk_coerce(c, s->b, &tk_type_f32, "let initialiser");
    }
    t = default_type(t);
    s->type = t;
    TkSymbol *sym = tk_declare(c, TK_SYM_LET, s->name, s->name_span, t, s);
    s->sym = sym;
    if (sym && tk_is_int(t->kind)) sym->has_range = tk_interval(c, s->b, &sym->lo, &sym->hi);
}

static void check_const(TkChecker *c, TkNode *s)
{
    if (!s->a) {   /* const X = target(...); inside a body: only file-level ones are resolved */
        TkDiag *g = tk_error(c->diags, s->name_span, "per-target constant '%s' is declared inside a function", s->name);
        tk_diag_hint(g, "declare it at file level, beside the kernels");
        TkSymbol *sym = tk_declare(c, TK_SYM_CONST, s->name, s->name_span, &tk_type_error, s);
        s->sym = sym;
        s->type = &tk_type_error;
        return;
    }
    TkType *t = tk_check_expr(c, s->a, NULL);
    TkSymbol *sym = tk_declare(c, TK_SYM_CONST, s->name, s->name_span, t, s);
    s->sym = sym;
    s->type = t;
    if (!sym || t->kind == TK_TY_ERROR) return;
    TkConstVal v = tk_const_value(s->a);
    if (!v.known || !(tk_is_scalar(t->kind))) {
        TkDiag *g = tk_error(c->diags, s->a->span, "the value of constant '%s' is not known at compile time", s->name);
        tk_diag_hint(g, "a const is built from literals and other consts; use `let` for run-time values");
        sym->type = &tk_type_error;
        return;
    }
    sym->value = s->a;
    sym->has_value = true;
    if (!v.is_float && t->kind != TK_TY_BOOL) {
        sym->has_range = true;
        sym->lo = sym->hi = v.i;
    }
}

static void check_assign(TkChecker *c, TkNode *s)
{
    TkType *lt = tk_check_expr(c, s->a, NULL);
    if (lt->kind == TK_TY_ERROR) {
        tk_check_expr(c, s->b, lt);   /* quietly, for errors of its own */
        return;
    }
    if (!tk_is_lvalue(c, s->a, true)) {
        tk_check_expr(c, s->b, lt);   /* the target's type is known, if not assignable */
        return;
    }
    if (s->op == TK_OP_NONE) {
        TkType *rt = tk_check_expr(c, s->b, lt);
        if (rt->kind != TK_TY_ERROR) tk_coerce(c, s->b, lt, "assigned value");
        return;
    }
    /* x op= y checks as x = x op y, without evaluating x twice */
    TkNode tmp = { .kind = TK_N_BINARY, .span = s->span, .op = s->op, .a = s->a, .b = s->b };
    TkType *rt = tk_check_expr(c, &tmp, NULL);
    if (rt->kind != TK_TY_ERROR && !tk_type_equal(default_type(rt), lt)) {
        char a[128], b[128];
        tk_type_str(lt, a, sizeof a);
        tk_type_str(rt, b, sizeof b);
        TkDiag *g = tk_error(c->diags, s->name_span, "'%s=' would change the type of its target", tk_op_spelling(s->op));
        tk_diag_expected(g, "%s", a);
        tk_diag_found(g, "%s", b);
        tk_diag_hint(g, "narrowing needs an explicit convert<...>(...)");
    }
}

static void check_expr_stmt(TkChecker *c, TkNode *s)
{
    TkNode *e = s->a;
    TkType *t = tk_check_expr(c, e, NULL);
    if (e->kind != TK_N_CALL) {
        TkDiag *g = tk_error(c->diags, e->span, "this expression does nothing");
        tk_diag_hint(g, "an expression statement must be a call such as store(...), mma_ab(...) or sync()");
        return;
    }
    if (t->kind != TK_TY_VOID && t->kind != TK_TY_ERROR) {
        char ts[128];
        tk_type_str(t, ts, sizeof ts);
        TkDiag *g = tk_error(c->diags, e->span, "the result of '%s' is discarded", e->name);
        tk_diag_found(g, "a value of type %s", ts);
        tk_diag_hint(g, "assign it, e.g. `x = %s(...);`", e->name);
    }
}

static void check_condition(TkChecker *c, TkNode *e, const char *what)
{
    TkType *t = tk_check_expr(c, e, &tk_type_bool);
    if (t->kind == TK_TY_ERROR || t->kind == TK_TY_BOOL) return;
    char ts[128];
    tk_type_str(t, ts, sizeof ts);
    TkDiag *g = tk_error(c->diags, e->span, "the condition of %s must be bool", what);
    tk_diag_expected(g, "bool");
    tk_diag_found(g, "%s", ts);
    if (tk_is_int(t->kind)) tk_diag_hint(g, "compare explicitly, e.g. `x != 0`");
    else if (tk_is_mask(t)) tk_diag_hint(g, "comparing tiles gives a mask, one bool per element; choose per element with where(mask, a, b)");
}

static void check_for(TkChecker *c, TkNode *s)
{
    TkType *lo = tk_check_expr(c, s->a, NULL);
    TkType *hi = tk_check_expr(c, s->b, NULL);
    TkType *vt = &tk_type_i32;
    bool ok = true;
    TkNode *bounds[2] = { s->a, s->b };
    TkType *bt[2] = { lo, hi };
    for (int i = 0; i < 2; i++) {
        if (bt[i]->kind == TK_TY_ERROR) {
            ok = false;
        } else if (!tk_is_int(bt[i]->kind)) {
            char ts[128];
            tk_type_str(bt[i], ts, sizeof ts);
            TkDiag *g = tk_error(c->diags, bounds[i]->span, "loop bound must be an integer");
            tk_diag_expected(g, "i32 or i64");
            tk_diag_found(g, "%s", ts);
            ok = false;
        } else if (bt[i]->kind == TK_TY_I64) {
            vt = &tk_type_i64;
        }
    }
    if (ok) {
        tk_coerce(c, s->a, vt, "loop bound");
        tk_coerce(c, s->b, vt, "loop bound");
    }
    TkScope scope = { 0 };
    tk_scope_push(c, &scope);
    TkSymbol *v = tk_declare(c, TK_SYM_LOOP, s->name, s->name_span, vt, s);
    s->sym = v;
    s->type = vt;
    int64_t llo, lhi, hlo, hhi;
    if (v && ok && tk_interval(c, s->a, &llo, &lhi) && tk_interval(c, s->b, &hlo, &hhi) && hhi > llo) {
        v->has_range = true;
        v->lo = llo;
        v->hi = hhi - 1;
    }
    c->loop_depth++;
    tk_check_block(c, s->c, true);
    c->loop_depth--;
    tk_scope_pop(c);
}

static void check_return(TkChecker *c, TkNode *s)
{
    if (c->in_kernel) {
        TkDiag *g = tk_error(c->diags, s->span, "a kernel cannot return");
        tk_diag_hint(g, "write results with store(...); every warp runs the kernel body to its end");
        if (s->a) tk_check_expr(c, s->a, &tk_type_error);   /* errors of its own only */
        return;
    }
    TkType *want = c->fn->type ? c->fn->type : &tk_type_void;
    if (!s->a) {
        if (want->kind != TK_TY_VOID && want->kind != TK_TY_ERROR) {
            char ts[128];
            tk_type_str(want, ts, sizeof ts);
            TkDiag *g = tk_error(c->diags, s->span, "helper '%s' must return a value", c->fn->name);
            tk_diag_expected(g, "%s", ts);
        }
        return;
    }
    /* a void or broken result type: nothing to type zeros()/load() by, and
     * that is reported (or reported below) already */
    TkType *t = tk_check_expr(c, s->a, want->kind == TK_TY_VOID ? &tk_type_error : want);
    if (want->kind == TK_TY_VOID) {
        TkDiag *g = tk_error(c->diags, s->a->span, "helper '%s' has no result type but returns a value", c->fn->name);
        tk_diag_hint(g, "declare the result: fn %s(...) -> TYPE", c->fn->name);
        return;
    }
    if (t->kind != TK_TY_ERROR && want->kind != TK_TY_ERROR) tk_coerce(c, s->a, want, "returned value");
}

void tk_check_stmt(TkChecker *c, TkNode *s)
{
    switch (s->kind) {
    case TK_N_VAR: check_var(c, s); break;
    case TK_N_LET: check_let(c, s); break;
    case TK_N_CONST: check_const(c, s); break;
    case TK_N_ASSIGN: check_assign(c, s); break;
    case TK_N_EXPR_STMT: check_expr_stmt(c, s); break;
    case TK_N_IF:
        check_condition(c, s->a, "if");
        c->if_depth++;
        tk_check_block(c, s->b, true);
        if (s->c) {
            if (s->c->kind == TK_N_IF) tk_check_stmt(c, s->c);
            else tk_check_block(c, s->c, true);
        }
        c->if_depth--;
        break;
    case TK_N_FOR: check_for(c, s); break;
    case TK_N_RETURN: check_return(c, s); break;
    case TK_N_BLOCK: tk_check_block(c, s, true); break;
    default: break;
    }
}

void tk_check_block(TkChecker *c, TkNode *block, bool new_scope)
{
    TkScope scope = { 0 };
    if (new_scope) tk_scope_push(c, &scope);
    c->block_depth++;
    for (TkNode *s = block->list; s; s = s->next) tk_check_stmt(c, s);
    c->block_depth--;
    if (new_scope) tk_scope_pop(c);
}
