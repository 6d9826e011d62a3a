/* tir_verify.c — checks the TIR invariants listed in tir.h after each pass:
 * operands defined before use in the same or an enclosing region, values
 * never used across a barrier statement, and the typing of the ops whose
 * operands are easy to get wrong (slots, mma, control flow). */
#include <stdlib.h>
#include <string.h>

#include "tir.h"

enum { UNSEEN, LIVE, CLOSED };

typedef struct {
    FILE *out;
    const TirFunc *fn;
    unsigned problems;
    uint8_t *state;             /* by instruction id */
    uint32_t count;
    const TirRegion *stack[256];
    int depth;
} Verifier;

static void problem(Verifier *v, const TirInstr *i, const char *what)
{
    v->problems++;
    if (v->out) fprintf(v->out, "tir: %s: %%%u (%s): %s\n", v->fn->name, i ? i->id : 0, i ? tir_op_name(i->op) : "-", what);
}

static void number(const TirRegion *r, uint32_t *next)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->iv) i->iv->id = (*next)++;
        i->id = (*next)++;
        number(&i->body[0], next);
        number(&i->body[1], next);
    }
}

static bool in_scope(const Verifier *v, const TirRegion *r)
{
    for (int d = 0; d < v->depth; d++)
        if (v->stack[d] == r) return true;
    return false;
}

/* Values any statement may use: computed once per block, or constants
 * (which a backend can rematerialise anywhere, e.g. specialised sizes). */
static bool is_function_level(TirOp op)
{
    return op == TIR_PARAM || op == TIR_SIZE || op == TIR_BLOCK_ID || op == TIR_WARP_ID || op == TIR_CONST_INT ||
           op == TIR_CONST_FLOAT;
}

/* Sub-tiles, rows and columns (§5.13): the region read or written lies
 * inside the tile, element types agree, and writes go to a register slot. */
static void check_slice(Verifier *v, const TirInstr *i)
{
    bool set = i->op == TIR_SET_SLICE || i->op == TIR_SET_LINE;
    bool line = i->op == TIR_LINE || i->op == TIR_SET_LINE;
    unsigned want = line ? (set ? 3u : 2u) : (set ? 2u : 1u);
    if (i->nargs != want) {
        problem(v, i, "wrong number of operands");
        return;
    }
    const TirInstr *whole = i->args[0], *part = set ? i->args[1] : i;
    const TkType *w = whole->type, *p = part->type;
    if (set && whole->op != TIR_VAR) problem(v, i, "operand 0 must be a slot (VAR)");
    if (!w || !p || !tk_is_register(w->kind) || !tk_is_register(p->kind) || w->elem != p->elem) {
        problem(v, i, "tile and part must be register values of one element type");
        return;
    }
    if (line) {
        const TkType *it = i->args[set ? 2 : 1]->type;
        if (w->kind != TK_TY_RT || p->kind != TK_TY_RV || !it || !tk_is_int(it->kind) ||
            i->aux < 0 || i->aux + p->dims[0] > w->dims[i->imm ? 0 : 1])
            problem(v, i, "a line is an rv inside a row or column of an rt, at an integer index");
        return;
    }
    if (w->kind != p->kind || w->rank != p->rank || (w->kind == TK_TY_RT && w->layout != p->layout)) {
        problem(v, i, "a sub-tile has the kind and layout of its tile");
        return;
    }
    int64_t r0 = w->rank == 2 ? i->aux : 0, c0 = i->imm;
    int64_t rows = w->rank == 2 ? w->dims[0] : 1, cols = w->rank == 2 ? w->dims[1] : w->dims[0];
    int64_t pr = p->rank == 2 ? p->dims[0] : 1, pc = p->rank == 2 ? p->dims[1] : p->dims[0];
    if (r0 < 0 || c0 < 0 || r0 + pr > rows || c0 + pc > cols) problem(v, i, "the sub-tile lies outside its tile");
}

static void check_types(Verifier *v, const TirInstr *i)
{
    const TirInstr *a0 = i->nargs > 0 ? i->args[0] : NULL;
    const TirInstr *a1 = i->nargs > 1 ? i->args[1] : NULL;
    switch (i->op) {
    case TIR_GET:
    case TIR_SET:
    case TIR_SET_ELEM:
        if (!a0 || a0->op != TIR_VAR) problem(v, i, "operand 0 must be a slot (VAR)");
        if (i->op == TIR_SET && a0 && a1 && a1->type && !tk_type_equal(a0->type, a1->type))
            problem(v, i, "stored value's type differs from the slot's");
        break;
    case TIR_MMA:
        if (!a0 || a0->op != TIR_VAR || a0->type->kind != TK_TY_RT) problem(v, i, "accumulator must be an rt slot");
        if (i->nargs != 3 || !i->args[1]->type || i->args[1]->type->kind != TK_TY_RT || !i->args[2]->type ||
            i->args[2]->type->kind != TK_TY_RT)
            problem(v, i, "A and B must be rt values");
        break;
    case TIR_FOR:
        if (i->nargs != 2 || !i->iv) problem(v, i, "FOR needs two bounds and an induction value");
        else if (!tk_is_int(i->args[0]->type->kind) || i->args[0]->type->kind != i->args[1]->type->kind)
            problem(v, i, "FOR bounds must be integers of one type");
        break;
    case TIR_IF:
        if (i->nargs != 1 || !a0->type || a0->type->kind != TK_TY_BOOL) problem(v, i, "IF condition must be bool");
        break;
    case TIR_LOAD:
    case TIR_STORE:
        if (!a0 || !(a0->op == TIR_PARAM || (a0->op == TIR_VAR && tk_is_shared(a0->type->kind))))
            problem(v, i, "operand 0 must be a tensor parameter or a shared slot");
        break;
    case TIR_SLICE:
    case TIR_LINE:
    case TIR_SET_SLICE:
    case TIR_SET_LINE:
        check_slice(v, i);
        break;
    case TIR_BINARY:
        if (i->nargs != 2 || !a0->type || !a1->type || a0->type->kind != a1->type->kind)
            problem(v, i, "BINARY operands must have one type");
        break;
    default:
        break;
    }
}

static void walk(Verifier *v, const TirRegion *r)
{
    if (v->depth >= 256) {
        problem(v, NULL, "regions nested too deeply");
        return;
    }
    v->stack[v->depth++] = r;
    const TirInstr *stmt_start = r->first;   /* first instruction of the current statement */
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->parent != r) problem(v, i, "parent link does not match its region");
        for (unsigned k = 0; k < i->nargs; k++) {
            const TirInstr *a = i->args[k];
            if (!a) {
                problem(v, i, "missing operand");
                continue;
            }
            if (a->id >= v->count || v->state[a->id] == UNSEEN) problem(v, i, "operand used before its definition");
            else if (v->state[a->id] == CLOSED) problem(v, i, "value used outside the statement that computes it");
            else if (!in_scope(v, a->parent)) problem(v, i, "operand defined in a region that does not enclose this use");
        }
        check_types(v, i);
        if (i->id < v->count) v->state[i->id] = LIVE;
        if (i->iv && i->iv->id < v->count) v->state[i->iv->id] = LIVE;
        if (i->op == TIR_FOR || i->op == TIR_IF) {
            walk(v, &i->body[0]);
            walk(v, &i->body[1]);
        }
        if (tir_is_barrier(i)) {
            /* close the values computed so far (slots and function-level values stay) */
            for (const TirInstr *x = stmt_start; x && x != i->next; x = x->next)
                if (!tir_is_statement(x->op) && !is_function_level(x->op) && x->id < v->count) v->state[x->id] = CLOSED;
            stmt_start = i->next;
        }
    }
    v->depth--;
}

unsigned tir_verify(const TirModule *m, FILE *out)
{
    unsigned total = 0;
    for (const TirFunc *f = m->funcs; f; f = f->next) {
        Verifier v = { .out = out, .fn = f };
        uint32_t n = 0;
        number(&f->grid_region, &n);
        number(&f->body, &n);
        v.count = n;
        v.state = calloc(n ? n : 1, 1);
        if (!v.state) return total + 1;
        walk(&v, &f->grid_region);
        for (unsigned k = 0; k < f->grid_rank; k++)
            if (!f->grid[k] || f->grid[k]->parent != &f->grid_region) problem(&v, f->grid[k], "grid value outside the grid region");
        memset(v.state, 0, n);
        walk(&v, &f->body);
        free(v.state);
        total += v.problems;
    }
    return total;
}
