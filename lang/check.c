/* check.c — program level: declares every item, checks constants in source
 * order, kernels (parameters, symbolic sizes, grid/warps) and helpers
 * (signature, body, every path returns). Helpers are checked on demand at
 * their first call, which is also where recursion is detected. */
#include "checker.h"

#include <stdlib.h>
#include <string.h>

#include "generic.h"
#include "shape.h"

static void add_size_name(TkChecker *c, TkSizeNames *names, const char *name)
{
    if (names->count == names->cap) {
        unsigned cap = names->cap ? names->cap * 2 : 8;
        const char **n = tk_arena_alloc(c->arena, sizeof *n * cap);
        if (!n) return;
        if (names->count) memcpy(n, names->names, sizeof *n * names->count);
        names->names = n;
        names->cap = cap;
    }
    names->names[names->count++] = name;
}

/* Called by tk_dim_poly when a kernel/helper parameter type names an unknown
 * identifier: it becomes a new symbolic size. */
TkSymbol *tk_new_size(TkChecker *c, const char *name, TkSpan span);
TkSymbol *tk_new_size(TkChecker *c, const char *name, TkSpan span)
{
    if (!c->sizes || !c->size_scope) return NULL;
    if (c->sizes->count >= 0xffff) return NULL;
    TkScope *saved = c->scope;
    c->scope = c->size_scope;
    TkSymbol *s = tk_declare(c, TK_SYM_SIZE, name, span, &tk_type_i32, NULL);
    c->scope = saved;
    if (!s) return NULL;
    s->size_index = (TkSizeVar)c->sizes->count;
    add_size_name(c, c->sizes, name);
    return s;
}

/* Every size must stand alone as some dimension, or launch cannot bind it. */
static void check_sizes_bindable(TkChecker *c, TkNode *params)
{
    for (TkSymbol *s = c->size_scope->syms; s; s = s->next) {
        if (s->kind != TK_SYM_SIZE) continue;
        bool alone = false;
        for (TkNode *p = params; p && !alone; p = p->next) {
            TkType *t = p->type;
            if (!t || t->kind != TK_TY_GL) continue;
            for (unsigned i = 0; i < t->rank; i++) {
                TkSizeVar v;
                if (tk_poly_is_var(&t->gdims[i], &v) && v == s->size_index) alone = true;
            }
        }
        if (!alone) {
            TkDiag *g = c->in_kernel ? tk_error(c->diags, s->span, "size '%s' cannot be bound at launch", s->name)
                                     : tk_error(c->diags, s->span, "size '%s' cannot be inferred from the arguments", s->name);
            tk_diag_hint(g, "every size must be a whole dimension of some tensor parameter; add one, e.g. gl<f32, %s>", s->name);
        }
    }
}

static void check_params(TkChecker *c, TkNode *params, bool kernel)
{
    for (TkNode *p = params; p; p = p->next) {
        TkType *t = tk_resolve_type(c, p->a, true);
        p->type = t;
        if (t->kind == TK_TY_ERROR) {
            tk_declare(c, TK_SYM_PARAM, p->name, p->name_span, t, p);
            continue;
        }
        if (kernel && !tk_is_scalar(t->kind) && t->kind != TK_TY_GL) {
            char ts[128];
            tk_type_str(t, ts, sizeof ts);
            TkDiag *g = tk_error(c->diags, p->a->span, "a kernel parameter cannot have type %s", ts);
            tk_diag_expected(g, "a global tensor gl<...> or a scalar");
            tk_diag_found(g, "%s", ts);
            tk_diag_hint(g, "%s", tk_is_register(t->kind)
                ? "register tiles belong to one warp; pass a gl tensor and load the tile inside the kernel"
                : "shared tiles belong to one block; declare it at the top of the kernel body");
            t = &tk_type_error;
        }
        /* Tiles hold per-warp data. Helper scalars are assumed uniform here;
         * calls that need uniformity check their arguments instead. */
        TkSymbol *s = tk_declare(c, TK_SYM_PARAM, p->name, p->name_span, t, p);
        p->sym = s;
        if (s && tk_is_register(t->kind)) s->varying = true;
    }
}

/* The first part of a grid expression that is not computable at launch. */
static const TkNode *grid_offender(const TkNode *e)
{
    if (!e) return NULL;
    switch (e->kind) {
    case TK_N_BUILTIN_VAR:
    case TK_N_INDEX:
        return e;
    case TK_N_CALL:
        if (strcmp(e->name, "cdiv") && strcmp(e->name, "min") && strcmp(e->name, "max")) return e;
        for (const TkNode *a = e->list; a; a = a->next)
            if (grid_offender(a)) return grid_offender(a);
        return NULL;
    case TK_N_UNARY: return grid_offender(e->a);
    case TK_N_BINARY: return grid_offender(e->a) ? grid_offender(e->a) : grid_offender(e->b);
    default: return NULL;
    }
}

static void check_kernel_attrs(TkChecker *c, TkNode *k)
{
    TkNode *grid = NULL, *warps = NULL;
    c->warps = 1;
    c->warps_known = true;
    for (TkNode *a = k->list2; a; a = a->next) {
        bool is_grid = strcmp(a->name, "grid") == 0;
        TkNode **seen = is_grid ? &grid : &warps;
        if (*seen) {
            TkDiag *g = tk_error(c->diags, a->name_span, "'%s' is given twice", a->name);
            tk_diag_hint(g, "a kernel has one %s(...)", a->name);
            continue;
        }
        *seen = a;
        unsigned n = tk_list_length(a->list);
        if (is_grid) {
            if (n < 1 || n > 3) {
                TkDiag *g = tk_error(c->diags, a->span, "grid takes 1 to 3 dimensions, not %u", n);
                tk_diag_expected(g, "grid(x), grid(x, y) or grid(x, y, z)");
                continue;
            }
            unsigned i = 0;
            for (TkNode *e = a->list; e; e = e->next, i++) {
                TkType *t = tk_check_expr(c, e, NULL);
                const TkNode *bad = grid_offender(e);
                if (t->kind != TK_TY_ERROR && bad) {
                    TkDiag *g = tk_error(c->diags, bad->span, "grid dimensions are computed before any block runs");
                    tk_diag_expected(g, "constants, sizes, scalar parameters, arithmetic, cdiv, min and max");
                    tk_diag_hint(g, "block indices, warp.id, tiles and helpers do not exist yet when the grid is sized");
                    continue;
                }
                if (t->kind != TK_TY_ERROR && !tk_is_int(t->kind)) {
                    char ts[128];
                    tk_type_str(t, ts, sizeof ts);
                    TkDiag *g = tk_error(c->diags, e->span, "grid dimension %u must be an integer", i + 1);   /* 1-based, as in prose */
                    tk_diag_expected(g, "i32 or i64");
                    tk_diag_found(g, "%s", ts);
                }
            }
        } else {
            if (n != 1) {
                TkDiag *g = tk_error(c->diags, a->span, "warps takes one constant, not %u arguments", n);
                tk_diag_expected(g, "warps(N) with 1 <= N <= %d", TK_MAX_WARPS);
                continue;
            }
            int64_t w;
            tk_check_expr(c, a->list, NULL);
            if (!tk_const_int(c, a->list, "the warp count", &w)) {
                c->warps_known = false;
                continue;
            }
            if (w < 1 || w > TK_MAX_WARPS) {
                TkDiag *g = tk_error(c->diags, a->list->span, "warp count %lld is out of range", (long long)w);
                tk_diag_expected(g, "1 <= N <= %d", TK_MAX_WARPS);
                c->warps_known = false;
                continue;
            }
            c->warps = w;
        }
    }
}

/* An instance's compile-time parameters are consts in a scope around its
 * parameters, attributes and body (lang/generic.h). */
static void begin_function(TkChecker *c, TkNode *fn, TkScope *size_scope, TkScope *param_scope, TkSizeNames *sizes)
{
    c->fn = fn;
    c->sizes = sizes;
    c->size_scope = size_scope;
    c->loop_depth = c->if_depth = 0;
    if (fn->instance) {
        TkScope *generic_scope = tk_arena_alloc(c->arena, sizeof *generic_scope);
        if (generic_scope) tk_scope_push(c, generic_scope);
        for (TkNode *k = fn->c; generic_scope && k; k = k->next) tk_check_stmt(c, k);
    }
    tk_scope_push(c, size_scope);
    tk_scope_push(c, param_scope);
}

static void end_function(TkChecker *c, TkNode *fn)
{
    tk_scope_pop(c);
    tk_scope_pop(c);
    if (fn->instance) tk_scope_pop(c);
}

static void check_kernel(TkChecker *c, TkNode *k)
{
    TkScope *size_scope = tk_arena_alloc(c->arena, sizeof *size_scope);
    TkScope *param_scope = tk_arena_alloc(c->arena, sizeof *param_scope);
    TkSizeNames *sizes = tk_arena_alloc(c->arena, sizeof *sizes);
    if (!size_scope || !param_scope || !sizes) return;
    c->in_kernel = true;
    c->fn_sym = NULL;
    begin_function(c, k, size_scope, param_scope, sizes);
    check_params(c, k->list, true);
    check_sizes_bindable(c, k->list);
    check_kernel_attrs(c, k);
    tk_check_block(c, k->b, true);
    tk_check_uniformity(c, k);
    end_function(c, k);
}

/* Checks a helper's signature and body once; safe to call re-entrantly
 * from a call site (the checker's per-function state is saved). */
void tk_check_helper(TkChecker *c, TkSymbol *fs);
void tk_check_helper(TkChecker *c, TkSymbol *fs)
{
    if (fs->fn_checked || fs->fn_checking) return;
    TkNode *fn = fs->decl;
    if (fn->broken) {   /* a syntax error (reported) left it without a usable body */
        fs->fn_checked = true;
        fn->type = &tk_type_error;
        return;
    }
    TkChecker saved = *c;
    fs->fn_checking = true;
    c->scope = c->globals;
    TkScope *size_scope = tk_arena_alloc(c->arena, sizeof *size_scope);
    TkScope *param_scope = tk_arena_alloc(c->arena, sizeof *param_scope);
    TkSizeNames *sizes = tk_arena_alloc(c->arena, sizeof *sizes);
    if (size_scope && param_scope && sizes) {
        c->in_kernel = false;
        c->fn_sym = fs;
        c->warps = 1;
        c->warps_known = false;   /* a helper may run in any kernel */
        begin_function(c, fn, size_scope, param_scope, sizes);
        check_params(c, fn->list, false);
        check_sizes_bindable(c, fn->list);
        if (fn->a) {
            TkType *rt = tk_resolve_type(c, fn->a, false);
            if (rt->kind != TK_TY_ERROR && !tk_is_scalar(rt->kind) && !tk_is_register(rt->kind)) {
                char ts[128];
                tk_type_str(rt, ts, sizeof ts);
                TkDiag *g = tk_error(c->diags, fn->a->span, "a helper cannot return %s", ts);
                tk_diag_expected(g, "a scalar, rt<...> or rv<...>");
                tk_diag_hint(g, "shared tiles and tensors are passed by reference; store into a parameter instead");
                rt = &tk_type_error;
            }
            fn->type = rt;
        } else {
            fn->type = &tk_type_void;
        }
        tk_check_block(c, fn->b, true);
        if (fn->a && fn->type->kind != TK_TY_ERROR && !tk_block_returns(fn->b)) {
            TkSpan end = { fn->b->span.end - 1, fn->b->span.end };
            TkDiag *g = tk_error(c->diags, end, "helper '%s' can reach its end without returning a value", fn->name);
            tk_diag_hint(g, "end every path with `return ...;`");
        }
        tk_check_uniformity(c, fn);
        end_function(c, fn);
    }
    TkScope *globals = c->globals;
    *c = saved;
    c->globals = globals;
    fs->fn_checking = false;
    fs->fn_checked = true;
}

int tk_check_program(TkArena *arena, TkDiags *diags, TkNode *items)
{
    TkChecker c;
    memset(&c, 0, sizeof c);
    c.arena = arena;
    c.diags = diags;
    c.globals = tk_arena_alloc(arena, sizeof *c.globals);
    if (!c.globals) return -1;
    c.scope = c.globals;
    c.items = items;

    /* Functions are visible everywhere; constants only after their declaration. */
    for (TkNode *it = items; it; it = it->next) {
        /* instances are reached through their template (kernels have no uses) */
        if ((it->kind == TK_N_FN || it->kind == TK_N_KERNEL) && !it->instance) {
            TkSymbol *s = tk_declare(&c, it->kind == TK_N_FN ? TK_SYM_FN : TK_SYM_KERNEL, it->name, it->name_span,
                                     &tk_type_void, it);
            it->sym = s;
        }
    }
    for (TkNode *it = items; it; it = it->next) {
        if (it->broken) {
            /* A syntax error was reported here; checking the rest would only
             * produce follow-on errors. Keep the name, poisoned. */
            if (it->kind == TK_N_CONST) {
                TkSymbol *s = tk_declare(&c, TK_SYM_CONST, it->name, it->name_span, &tk_type_error, it);
                if (s) s->span.begin = 0;   /* never "used before declaration" */
            } else if (it->sym) {
                TkSymbol *s = it->sym;
                s->fn_checked = true;
                it->type = &tk_type_error;
            }
            continue;
        }
        if (it->generic) continue;   /* a template: its instances are checked */
        switch (it->kind) {
        case TK_N_CONST: tk_check_stmt(&c, it); break;
        case TK_N_FN:
            if (it->sym && ((TkSymbol *)it->sym)->decl == it) tk_check_helper(&c, it->sym);
            break;
        case TK_N_KERNEL: {
            unsigned from = diags->count;
            check_kernel(&c, it);
            if (it->instance) tk_generic_note(diags, from, it);
            break;
        }
        default: break;
        }
    }
    return diags->errors ? 1 : 0;
}
