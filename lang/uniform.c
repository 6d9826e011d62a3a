/* uniform.c — block-uniform control flow. A value is *varying* when warps of
 * one block may see different values: warp.id, tile elements, results of
 * helpers that read those, and variables ever assigned a varying value or
 * assigned under varying control flow. Mutable variables make this a
 * fixpoint (a later assignment can make an earlier use varying), so the
 * body is walked until nothing changes, then walked once more to report
 * sync() and block-collective operations under varying control flow. */
#include "checker.h"

#include <string.h>

typedef struct {
    TkChecker *c;
    bool report;
    bool changed;
    bool needs_uniform;     /* body contains sync/collectives (directly or via helpers) */
    bool reads_varying;     /* body touches warp.id or tile elements */
    const TkNode *diverged; /* a helper's return taken under varying flow: what follows is varying */
} Walk;

static bool expr_varying(Walk *w, TkNode *e);

static bool args_varying(Walk *w, TkNode *list)
{
    bool v = false;
    for (TkNode *a = list; a; a = a->next) v = expr_varying(w, a) || v;
    return v;
}

static bool expr_varying(Walk *w, TkNode *e)
{
    bool v = false;
    switch (e->kind) {
    case TK_N_NAME: {
        TkSymbol *s = e->sym;
        v = s && s->varying;
        break;
    }
    case TK_N_BUILTIN_VAR:
        v = strcmp(e->name, "warp") == 0;
        if (v) w->reads_varying = true;
        break;
    case TK_N_UNARY: v = expr_varying(w, e->a); break;
    case TK_N_BINARY: {
        bool left = expr_varying(w, e->a);   /* both sides are visited: each marks its nodes */
        bool right = expr_varying(w, e->b);
        v = left || right;
        break;
    }
    case TK_N_RANGE:
        if (e->a) expr_varying(w, e->a);
        if (e->b) expr_varying(w, e->b);
        break;
    case TK_N_INDEX:
        args_varying(w, e->list);
        expr_varying(w, e->a);
        w->reads_varying = true;
        v = true;   /* tile elements are per-warp data */
        break;
    case TK_N_CALL: {
        v = args_varying(w, e->list);
        const TkBuiltin *b = tk_builtin_find(e->name);
        if (!b) {
            TkSymbol *fs = e->sym;
            if (fs && fs->kind == TK_SYM_FN && fs->fn_reads_varying) {
                v = true;
                w->reads_varying = true;
            }
        }
        break;
    }
    default: break;
    }
    e->varying = v;
    return v;
}

static void mark(Walk *w, TkSymbol *s, bool varying)
{
    if (s && varying && !s->varying) {
        s->varying = true;
        w->changed = true;
    }
}

static void describe(TkDiag *g, const TkNode *why, const TkSource *src)
{
    uint32_t line, col;
    tk_source_position(src, why->span.begin, &line, &col);
    tk_diag_expected(g, "block-uniform control flow (every warp of the block gets here)");
    if (why->kind == TK_N_FOR)
        tk_diag_found(g, "a loop at line %u whose bounds may differ between warps", line);
    else if (why->kind == TK_N_RETURN)
        tk_diag_found(g, "code after a return at line %u that only some warps may take", line);
    else
        tk_diag_found(g, "a condition at line %u that may differ between warps", line);
}

static void check_call_site(Walk *w, TkNode *call, const TkNode *why)
{
    const TkBuiltin *b = tk_builtin_find(call->name);
    TkSymbol *fs = b ? NULL : call->sym;
    bool collective = b ? tk_builtin_is_collective(b, call) : (fs && fs->kind == TK_SYM_FN && fs->fn_needs_uniform);
    if (!collective) return;
    w->needs_uniform = true;
    if (!w->report) return;
    if (why) {
        TkDiag *g;
        /* After a return that only some warps take there is no if/loop to
         * move out of: the code has to be restructured instead. */
        bool after_return = why->kind == TK_N_RETURN;
        if (b && tk_builtin_is_sync(b)) {
            g = tk_error(w->c->diags, call->span, "sync() must be reached by every warp of the block");
            if (after_return)
                tk_diag_hint(g, "restructure the helper so that every warp reaches sync(): return only after it, or make the "
                                "return's condition depend only on block.x/y/z, sizes, constants and scalar parameters");
            else
                tk_diag_hint(g, "move sync() out of this if/loop, or make the condition depend only on block.x/y/z, sizes, "
                                "constants and scalar parameters");
        } else if (b) {
            g = tk_error(w->c->diags, call->span, "%s on shared memory is block-collective and must be reached by every warp",
                         tk_builtin_name(b));
            tk_diag_hint(g, "%s; per-warp data goes through rt tiles",
                         after_return ? "restructure the helper so that every warp reaches it: return only after it"
                                      : "move it out of the warp-dependent if/loop");
        } else {
            g = tk_error(w->c->diags, call->span, "helper '%s' uses sync() or shared memory collectively, so every warp must call it",
                         call->name);
            tk_diag_hint(g, "%s", after_return ? "restructure the caller so that every warp reaches the call: return only after it"
                                               : "call it outside the warp-dependent if/loop");
        }
        describe(g, why, w->c->diags->src);
        return;
    }
    if (fs) {
        int i = 1;
        for (TkNode *a = call->list; a; a = a->next, i++) {
            if (a->varying && a->type && tk_is_scalar(a->type->kind)) {
                TkDiag *g = tk_error(w->c->diags, a->span,
                                     "argument %d of '%s' may differ between warps, but '%s' synchronises the block", i,
                                     call->name, call->name);
                tk_diag_hint(g, "pass a value that depends only on block.x/y/z, sizes, constants and scalar parameters");
            }
        }
    }
}

static void walk_expr_calls(Walk *w, TkNode *e, const TkNode *why)
{
    if (!e) return;
    switch (e->kind) {
    case TK_N_UNARY: walk_expr_calls(w, e->a, why); break;
    case TK_N_RANGE:
    case TK_N_BINARY:
        walk_expr_calls(w, e->a, why);
        walk_expr_calls(w, e->b, why);
        break;
    case TK_N_INDEX:
        walk_expr_calls(w, e->a, why);
        for (TkNode *a = e->list; a; a = a->next) walk_expr_calls(w, a, why);
        break;
    case TK_N_CALL:
        for (TkNode *a = e->list; a; a = a->next) walk_expr_calls(w, a, why);
        check_call_site(w, e, why);
        break;
    default: break;
    }
}

static void walk_stmt(Walk *w, TkNode *s, const TkNode *why);

static void walk_list(Walk *w, TkNode *list, const TkNode *why)
{
    for (TkNode *s = list; s; s = s->next) walk_stmt(w, s, why ? why : w->diverged);
}

static void walk_stmt(Walk *w, TkNode *s, const TkNode *why)
{
    switch (s->kind) {
    case TK_N_VAR:
    case TK_N_LET:
        if (s->b) {
            bool v = expr_varying(w, s->b);
            walk_expr_calls(w, s->b, why);
            mark(w, s->sym, v || why);
        } else {
            mark(w, s->sym, why != NULL);
        }
        break;
    case TK_N_ASSIGN: {
        bool vb = expr_varying(w, s->b);
        bool va = expr_varying(w, s->a);
        bool v = va || vb;
        walk_expr_calls(w, s->a, why);
        walk_expr_calls(w, s->b, why);
        mark(w, tk_root_symbol(s->a), v || why);
        break;
    }
    case TK_N_EXPR_STMT:
        expr_varying(w, s->a);
        walk_expr_calls(w, s->a, why);
        break;
    case TK_N_RETURN:
        if (s->a) {
            expr_varying(w, s->a);
            walk_expr_calls(w, s->a, why);
        }
        if (why && !w->diverged) w->diverged = s;   /* some warps leave here, others go on */
        break;
    case TK_N_IF: {
        bool v = expr_varying(w, s->a);
        walk_expr_calls(w, s->a, why);
        const TkNode *inner = why ? why : v ? s : NULL;
        walk_list(w, s->b->list, inner);
        if (s->c) {
            if (s->c->kind == TK_N_IF) walk_stmt(w, s->c, inner);
            else walk_list(w, s->c->list, inner);
        }
        break;
    }
    case TK_N_FOR: {
        bool lo = expr_varying(w, s->a);
        bool hi = expr_varying(w, s->b);
        bool v = lo || hi;
        walk_expr_calls(w, s->a, why);
        walk_expr_calls(w, s->b, why);
        mark(w, s->sym, v);
        const TkNode *inner = why ? why : v ? s : NULL;
        walk_list(w, s->c->list, inner);
        break;
    }
    case TK_N_BLOCK: walk_list(w, s->list, why); break;
    default: break;
    }
}

void tk_check_uniformity(TkChecker *c, TkNode *fn)
{
    Walk w = { .c = c };
    for (int round = 0; round < 1000; round++) {   /* each round marks at least one more symbol */
        w.changed = false;
        w.diverged = NULL;
        walk_list(&w, fn->b->list, NULL);
        if (!w.changed) break;
    }
    w.report = true;
    w.diverged = NULL;
    walk_list(&w, fn->b->list, NULL);
    if (c->fn_sym && fn->kind == TK_N_FN) {
        c->fn_sym->fn_needs_uniform = w.needs_uniform;
        c->fn_sym->fn_reads_varying = w.reads_varying;
    }
}
