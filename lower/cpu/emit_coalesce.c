/* emit_coalesce.c — tile variables that share storage, so that `v = w;`
 * copies nothing (CPU).
 *
 * Inlining a helper that returns a tile leaves two copies behind:
 *     VAR ret; VAR s; ... s computed ...; SET ret, GET s;    (return s)
 *     SET x, GET ret;                                       (let x = helper(...))
 * 64 KiB per step of attention's masked_scores (3–4% of the kernel). When the
 * source variable w of `SET v, GET w` dies there and v is not touched while w
 * is alive, w can simply live in v's storage: the SET then finds both
 * pointers equal and emits nothing (emit_llvm.c), and w's computations write
 * v directly. Conditions, for w's declaration d and the SET s:
 *  - v and w are register tiles or vectors of one type and packing, neither
 *    a view (emit_packed.c), an output view (emit_outview.c) nor lazily zero
 *    (emit_lazyzero.c);
 *  - the GET is used by s alone;
 *  - nothing after s in its region refers to w (a loop re-declares it);
 *  - nothing from d up to s refers to v (v's old value is neither read nor
 *    written while w occupies its storage; w's zero fill at d, if any, lands
 *    there too). The scan runs along d's region, so an s nested deeper (an
 *    `if` that may not assign v) is never reached and the if holding it
 *    refers to v: refused.
 * Chains (ret → x, s → ret) resolve through emit_slot_ptr. */
#include <stdlib.h>

#include "emit.h"

/* The variable whose storage v uses (itself if not coalesced). */
static const TirInstr *root_of(const Emit *E, const TirInstr *v)
{
    while (v->op == TIR_VAR && v->id < E->count && E->alias[v->id]) v = E->alias[v->id];
    return v;
}

/* Does i refer to a variable stored where `root` is? */
static bool refers(const Emit *E, const TirInstr *i, const TirInstr *root)
{
    for (unsigned a = 0; a < i->nargs; a++)
        if (i->args[a] && i->args[a]->op == TIR_VAR && root_of(E, i->args[a]) == root) return true;
    return false;
}

/* Does any instruction of [from, to) (to NULL: the region's end), nested
 * regions included, refer to a variable stored where `root` is? */
static bool refers_between(const Emit *E, const TirInstr *from, const TirInstr *to, const TirInstr *root)
{
    for (const TirInstr *i = from; i && i != to; i = i->next) {
        if (refers(E, i, root)) return true;
        if (refers_between(E, i->body[0].first, NULL, root) || refers_between(E, i->body[1].first, NULL, root)) return true;
    }
    return false;
}

static bool coalescable_slot(const Emit *E, const TirInstr *v)
{
    return v->op == TIR_VAR && tk_is_register(v->type->kind) && !emit_is_view(E, v) && !emit_is_outview(E, v) &&
           !emit_is_lazy_zero(E, v) && !E->alias[v->id];
}

static void plan_region(Emit *E, const TirRegion *r)
{
    for (const TirInstr *s = r->first; s; s = s->next) {
        plan_region(E, &s->body[0]);
        plan_region(E, &s->body[1]);
        if (s->op != TIR_SET) continue;
        const TirInstr *v = s->args[0], *g = s->args[1];
        if (g->op != TIR_GET || E->uses[g->id] != 1) continue;
        const TirInstr *w = g->args[0];
        if (w == v || !coalescable_slot(E, w) || v->op != TIR_VAR || !tk_is_register(v->type->kind) || emit_is_view(E, v) ||
            emit_is_outview(E, v) || emit_is_lazy_zero(E, v) || !tk_type_equal(v->type, w->type) || v->pack != w->pack)
            continue;
        /* v must not already live in w (a cycle); what lives in v (itself, or
         * variables coalesced into it) must stay out of w's life, and what
         * lives in w must be dead after s */
        const TirInstr *vroot = root_of(E, v);
        if (vroot == w) continue;
        if (refers_between(E, s->next, NULL, w) || refers_between(E, w->next, s, vroot)) continue;
        E->alias[w->id] = v;
    }
}

int emit_plan_coalesce(Emit *E, const TirRegion *body)
{
    E->alias = calloc(E->count ? E->count : 1, sizeof *E->alias);
    if (!E->alias) return -1;
    plan_region(E, body);
    return 0;
}

void emit_free_coalesce(Emit *E)
{
    free(E->alias);
    E->alias = NULL;
}

const TirInstr *emit_storage_of(const Emit *E, const TirInstr *v)
{
    return E->alias ? root_of(E, v) : v;
}
