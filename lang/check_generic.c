/* check_generic.c — calls of generic helpers. The compile-time parameters
 * are bound from an explicit list (`act<16, 64>(x)`), else from the tile
 * dimensions of the arguments (a parameter type's dim that is just the
 * parameter's name takes the argument's dim), else from defaults. Each
 * distinct binding is one instance (generic.c clones it), checked once. */
#include "checker.h"

#include <stdio.h>
#include <string.h>

#include "arrays.h"
#include "generic.h"

typedef struct TkInstance {
    TkGenericValue vals[TK_MAX_GENERIC_PARAMS];
    TkSymbol *sym;
    struct TkInstance *next;
} TkInstance;

static TkType *fail(TkChecker *c, TkNode *e, bool check_args)
{
    for (TkNode *a = e->list; a && check_args; a = a->next) tk_check_expr(c, a, &tk_type_error);
    e->type = &tk_type_error;
    return e->type;
}

static int param_index(const TkNode *tmpl, const char *name)
{
    int i = 0;
    for (const TkNode *p = tmpl->c; p; p = p->next, i++)
        if (strcmp(p->name, name) == 0) return i;
    return -1;
}

/* Binds parameters named by a whole dim of a tile/vector parameter type. */
static void infer(const TkNode *tmpl, const TkNode *ptype, const TkType *at, TkSpan where, TkGenericValue *vals, bool *bound,
                  TkSpan *at_span)
{
    if (!ptype || ptype->kind != TK_N_TYPE || !at) return;
    bool tile = ptype->tycon == TK_TC_RT || ptype->tycon == TK_TC_ST;
    bool vec = ptype->tycon == TK_TC_RV || ptype->tycon == TK_TC_SV;
    if (!(tile && tk_is_tile(at->kind)) && !(vec && tk_is_vec(at->kind))) return;
    unsigned d = 0;
    for (const TkNode *dim = ptype->list; dim && d < (tile ? 2u : 1u); dim = dim->next, d++) {
        if (dim->kind != TK_N_NAME) continue;
        int i = param_index(tmpl, dim->name);
        if (i < 0 || bound[i]) continue;
        vals[i] = (TkGenericValue){ at->dims[d], false };
        bound[i] = true;
        at_span[i] = where;
    }
}

TkType *tk_check_generic_call(TkChecker *c, TkNode *e, TkSymbol *ts)
{
    TkNode *t = ts->decl;
    if (t->broken) return fail(c, e, true);   /* reported already */
    if (ts->fn_checking) {
        TkDiag *g = tk_error(c->diags, e->name_span, "generic helper '%s' calls itself (directly or through other helpers)",
                             e->name);
        tk_diag_hint(g, "helpers are inlined, so recursion is not allowed, through any instance; use a loop");
        return fail(c, e, true);
    }
    unsigned np = tk_list_length(t->c);
    TkGenericValue vals[TK_MAX_GENERIC_PARAMS];
    bool bound[TK_MAX_GENERIC_PARAMS] = { false };
    TkSpan at[TK_MAX_GENERIC_PARAMS];
    char sig[256];
    size_t len = (size_t)snprintf(sig, sizeof sig, "%s<", t->name);
    for (const TkNode *p = t->c; p && len < sizeof sig; p = p->next)
        len += (size_t)snprintf(sig + len, sizeof sig - len, "%s%s", p == t->c ? "" : ", ", p->name);
    if (len < sizeof sig) snprintf(sig + len, sizeof sig - len, ">");

    bool explicit_args = e->explicit_targs;
    if (explicit_args) {
        unsigned n = tk_list_length(e->list2);
        /* trailing parameters with a default may be left out (filled below) */
        bool defaults_rest = n < np;
        unsigned k = 0;
        for (const TkNode *p = t->c; p && defaults_rest; p = p->next, k++)
            if (k >= n && !p->b) defaults_rest = false;
        if (n != np && !defaults_rest) {
            TkDiag *g = tk_error(c->diags, e->name_span, "'%s' takes %u compile-time argument%s, not %u", e->name, np,
                                 np == 1 ? "" : "s", n);
            tk_diag_expected(g, "%s", sig);
            tk_diag_found(g, "%u value%s in <...>", n, n == 1 ? "" : "s");
            return fail(c, e, true);
        }
        unsigned i = 0;
        bool ok = true;
        for (TkNode *v = e->list2; v; v = v->next, i++) {
            TkType *vt = tk_check_expr(c, v, NULL);
            if (vt->kind == TK_TY_ERROR) {
                ok = false;
                continue;
            }
            at[i] = v->span;
            bound[i] = true;
            if (vt->kind == TK_TY_BOOL && v->is_const) {
                vals[i] = (TkGenericValue){ v->ival, true };
                continue;
            }
            char what[96];
            snprintf(what, sizeof what, "compile-time argument %u of '%s'", i + 1, e->name);
            if (!tk_const_int(c, v, what, &vals[i].v)) ok = false;
            vals[i].is_bool = false;
        }
        if (!ok) return fail(c, e, true);
    } else {
        unsigned want = tk_list_length(t->list), got = tk_list_length(e->list);
        if (want != got) {
            tk_error(c->diags, e->span, "'%s' takes %u argument%s, not %u", e->name, want, want == 1 ? "" : "s", got);
            return fail(c, e, true);
        }
        /* the arguments first: their types bind the parameters */
        bool ok = true;
        for (TkNode *a = e->list; a; a = a->next) ok &= tk_check_expr(c, a, NULL)->kind != TK_TY_ERROR;
        if (!ok) return fail(c, e, false);
        for (TkNode *a = e->list, *p = t->list; a && p; a = a->next, p = p->next) infer(t, p->a, a->type, a->span, vals, bound, at);
    }
    unsigned i = 0;
    for (TkNode *p = t->c; p; p = p->next, i++) {
        if (bound[i]) continue;
        if (tk_generic_default(p, c->items, t, vals, &vals[i])) {
            bound[i] = true;
            at[i] = p->span;
            continue;
        }
        TkDiag *g = tk_error(c->diags, e->name_span, "cannot infer compile-time parameter '%s' of '%s'", p->name, e->name);
        tk_diag_hint(g, "no argument's tile dimension is '%s' and it has no default; give every value: %s(...)", p->name, sig);
        return fail(c, e, explicit_args);
    }

    TkInstance *inst = ts->instances;
    for (; inst; inst = inst->next) {
        bool same = true;
        for (unsigned k = 0; k < np && same; k++) same = inst->vals[k].v == vals[k].v && inst->vals[k].is_bool == vals[k].is_bool;
        if (same) break;
    }
    if (!inst) {
        if (ts->ninstances >= TK_MAX_INSTANCES) {
            TkDiag *g = tk_error(c->diags, e->name_span, "too many instances of '%s'", e->name);
            tk_diag_hint(g, "the limit is %d instances of one generic item per compilation", TK_MAX_INSTANCES);
            return fail(c, e, explicit_args);
        }
        inst = tk_arena_alloc(c->arena, sizeof *inst);
        TkNode *node = inst ? tk_generic_instantiate(c->arena, t, vals, NULL, false) : NULL;
        TkSymbol *sym = node ? tk_arena_alloc(c->arena, sizeof *sym) : NULL;
        if (!sym) {
            tk_error(c->diags, e->span, "out of memory");
            return fail(c, e, explicit_args);
        }
        if (tk_arrays_expand(c->arena, c->diags, c->items, node) < 0) {   /* its arrays, now that lengths are known */
            tk_error(c->diags, e->span, "out of memory");
            return fail(c, e, explicit_args);
        }
        memcpy(inst->vals, vals, sizeof *vals * np);
        sym->kind = TK_SYM_FN;
        sym->name = node->name;
        sym->span = t->name_span;
        sym->type = &tk_type_void;
        sym->decl = node;
        node->sym = sym;
        inst->sym = sym;
        inst->next = ts->instances;
        ts->instances = inst;
        ts->ninstances++;
        /* the template counts as being checked while an instance is: a call
         * back into it, at any values, is recursion */
        unsigned from = c->diags->count;
        ts->fn_checking = true;
        tk_check_helper(c, sym);
        ts->fn_checking = false;
        tk_generic_note(c->diags, from, node);
    }
    return tk_check_helper_call(c, e, inst->sym, !explicit_args);
}
