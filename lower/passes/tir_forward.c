/* tir_forward.c — the forward pass: a register tile variable that is set
 * once, to an element-wise value, and only read after that (a `let`, or a
 * variable used like one) is replaced by the value itself.
 *
 * ast_to_tir gives every `let` and variable a slot (VAR, SET, GET). For a
 * tile that is an element-wise expression, the SET made the emitter write a
 * whole tile, and each GET read it back: six `let`s in an epilogue were six
 * passes over the tile, where one expression was one fused loop. With the
 * reads forwarded, the value has the reads' users as its own, and element-wise
 * fusion (lower/cpu/emit_tiles.c) treats both spellings alike.
 *
 * A variable qualifies when its only writer is one SET in the VAR's own
 * region, of a MAP/BROADCAST/CONVERT/TRI/MASK value of exactly its type, and
 * every GET comes after that SET — in the same region or one nested in a
 * later instruction — with no barrier before it (TIR's values never cross a
 * barrier). One never read loses its slot too, and its value, read by
 * nothing, is not emitted (emit_is_dead_tile_value). A variable set once to a
 * load from a row-major global tensor qualifies too when every read of it is
 * element-wise (an element-wise op, a reduction, a store's value): the
 * emitter then reads the tensor inside the fused loops instead of copying
 * the tile. Other variables (loads read whole, accumulators, anything written
 * twice or element by element) keep their slots: the emitter has better
 * plans for those (views, output views, lazy zeros). */
#include "tir_passes.h"

#include <stdlib.h>

typedef struct {
    uint32_t n;
    TirInstr **instr;      /* by id */
    uint32_t *sets, *gets; /* per VAR id: SETs of it, GETs of it */
    bool *other;           /* per VAR id: used otherwise (SET_ELEM, MMA, ...) */
    bool *whole;           /* per VAR id: some GET of it has a user that is not element-wise */
    TirInstr **repl;       /* per GET id: the value it is replaced by */
} Fwd;

static void number(TirRegion *r, uint32_t *n)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        i->id = (*n)++;
        number(&i->body[0], n);
        number(&i->body[1], n);
    }
}

static bool forwardable_value(const TirInstr *x);

/* Does user u read operand a element by element (an element-wise op, a
 * reduction, the value of a store)? */
static bool reads_elements(const TirInstr *u, unsigned a)
{
    return forwardable_value(u) || (u->op == TIR_REDUCE && a == 0) || (u->op == TIR_STORE && a == 1);
}

static void census(Fwd *F, TirRegion *r)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        F->instr[i->id] = i;
        for (unsigned a = 0; a < i->nargs; a++) {
            const TirInstr *g = i->args[a];
            if (g && g->op == TIR_GET && g->args[0]->op == TIR_VAR && !reads_elements(i, a)) F->whole[g->args[0]->id] = true;
        }
        for (unsigned a = 0; a < i->nargs; a++) {
            const TirInstr *v = i->args[a];
            if (!v || v->op != TIR_VAR) continue;
            if (a == 0 && i->op == TIR_SET) F->sets[v->id]++;
            else if (a == 0 && i->op == TIR_GET) F->gets[v->id]++;
            else F->other[v->id] = true;
        }
        census(F, &i->body[0]);
        census(F, &i->body[1]);
    }
}

static bool forwardable_value(const TirInstr *x)
{
    switch (x->op) {
    case TIR_MAP1: case TIR_MAP2: case TIR_MAP3: case TIR_BROADCAST: case TIR_CONVERT: case TIR_TRI: case TIR_MASK:
    case TIR_SLICE: case TIR_LINE: return true;
    default: return false;
    }
}

/* A register tile loaded from a global tensor, read only element by element:
 * forwarded, the CPU emitter reads it in place inside the fused loops. Loads
 * read whole (by an mma, a transpose, ...) keep their slot, which the emitter
 * may make a view into the tensor (emit_rowview.c). */
static bool forwardable_load(const Fwd *F, const TirInstr *v, const TirInstr *x)
{
    return x->op == TIR_LOAD && x->nargs >= 1 && x->args[0]->op == TIR_PARAM && x->args[0]->type->kind == TK_TY_GL &&
           x->args[0]->type->layout == TK_ROW && !F->whole[v->id];
}

/* GETs of v inside region r (all depths). */
static uint32_t gets_in(const TirRegion *r, const TirInstr *v)
{
    uint32_t n = 0;
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_GET && i->args[0] == v) n++;
        n += gets_in(&i->body[0], v) + gets_in(&i->body[1], v);
    }
    return n;
}

static void mark_gets(Fwd *F, const TirRegion *r, const TirInstr *v, TirInstr *x)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_GET && i->args[0] == v) F->repl[i->id] = x;
        mark_gets(F, &i->body[0], v, x);
        mark_gets(F, &i->body[1], v, x);
    }
}

/* Every GET of v after its SET s, before the first barrier, in s's region. */
static bool all_gets_after(const TirInstr *s, const TirInstr *v, uint32_t total)
{
    uint32_t n = 0;
    for (const TirInstr *i = s->next; i && n < total; i = i->next) {
        if (tir_is_barrier(i)) break;
        if (i->op == TIR_GET && i->args[0] == v) n++;
        n += gets_in(&i->body[0], v) + gets_in(&i->body[1], v);
    }
    return n == total;
}

static void unlink_instr(TirInstr *i)
{
    TirRegion *r = i->parent;
    if (i->prev) i->prev->next = i->next;
    else r->first = i->next;
    if (i->next) i->next->prev = i->prev;
    else r->last = i->prev;
    i->next = i->prev = NULL;
}

/* Replaces forwarded GETs in every operand, and drops them with their SET and VAR. */
static void rewrite(Fwd *F, TirRegion *r)
{
    for (TirInstr *i = r->first, *next; i; i = next) {
        next = i->next;
        for (unsigned a = 0; a < i->nargs; a++)
            if (i->args[a] && i->args[a]->op == TIR_GET && F->repl[i->args[a]->id]) i->args[a] = F->repl[i->args[a]->id];
        rewrite(F, &i->body[0]);
        rewrite(F, &i->body[1]);
    }
}

static void drop(Fwd *F, TirRegion *r)
{
    for (TirInstr *i = r->first, *next; i; i = next) {
        next = i->next;
        drop(F, &i->body[0]);
        drop(F, &i->body[1]);
        bool gone = (i->op == TIR_GET && F->repl[i->id]) ||
                    (i->op == TIR_SET && i->args[0]->op == TIR_VAR && F->repl[i->args[0]->id]) ||
                    (i->op == TIR_VAR && F->repl[i->id]);
        if (gone) unlink_instr(i);
    }
}

int tir_forward_lets(TirFunc *f)
{
    uint32_t n = 0;
    number(&f->grid_region, &n);
    number(&f->body, &n);
    Fwd F = { .n = n };
    size_t c = n ? n : 1;
    F.instr = calloc(c, sizeof *F.instr);
    F.sets = calloc(c, sizeof *F.sets);
    F.gets = calloc(c, sizeof *F.gets);
    F.other = calloc(c, sizeof *F.other);
    F.repl = calloc(c, sizeof *F.repl);
    F.whole = calloc(c, sizeof *F.whole);
    int rc = -1;
    if (!F.instr || !F.sets || !F.gets || !F.other || !F.repl || !F.whole) goto out;
    census(&F, &f->body);
    bool any = false;
    for (uint32_t id = 0; id < n; id++) {
        TirInstr *s = F.instr[id];
        if (!s || s->op != TIR_SET) continue;
        TirInstr *v = s->args[0], *x = s->args[1];
        if (v->op != TIR_VAR || (v->type->kind != TK_TY_RT && v->type->kind != TK_TY_RV) || F.sets[v->id] != 1 ||
            F.other[v->id] || s->parent != v->parent || v->pack != TIR_PACK_NONE)
            continue;
        if ((!forwardable_value(x) && !forwardable_load(&F, v, x)) || x->pack != TIR_PACK_NONE || !tk_type_equal(x->type, v->type))
            continue;
        if (!all_gets_after(s, v, F.gets[v->id])) continue;
        mark_gets(&F, &f->body, v, x);
        F.repl[v->id] = x;   /* marks the VAR (and so its SET) for dropping */
        any = true;
    }
    if (any) {
        rewrite(&F, &f->body);
        drop(&F, &f->body);
    }
    rc = 0;
out:
    free(F.instr);
    free(F.sets);
    free(F.gets);
    free(F.other);
    free(F.repl);
    free(F.whole);
    return rc;
}
