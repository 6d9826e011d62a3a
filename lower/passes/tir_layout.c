/* tir_layout.c — see tir_layout.h. One walk counts the uses of every value;
 * then each rt slot qualifies if every touch of it is a declaration, an
 * assignment of a load used nowhere else, or a GET used only as B of mma ops
 * that agree on the packing. Loads straight into an mma's B qualify too. */
#include "tir_layout.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t count;
    uint32_t *uses;          /* by id */
    TirInstr **user;         /* the last user */
    uint8_t *user_arg;       /* which operand of it */
} Uses;

static void number(const TirRegion *r, uint32_t *next)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->iv) i->iv->id = (*next)++;
        i->id = (*next)++;
        i->pack = TIR_PACK_NONE;
        number(&i->body[0], next);
        number(&i->body[1], next);
    }
}

static void count_uses(Uses *U, const TirRegion *r)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        for (unsigned k = 0; k < i->nargs; k++) {
            const TirInstr *a = i->args[k];
            if (!a || a->id >= U->count) continue;
            U->uses[a->id]++;
            U->user[a->id] = i;
            U->user_arg[a->id] = (uint8_t)k;
        }
        count_uses(U, &i->body[0]);
        count_uses(U, &i->body[1]);
    }
}

/* The packing an mma wants for its B, per form: KN for ab/atb, NK for abt/atbt. */
static TirPack pack_for(const TirInstr *mma, TirPack base)
{
    bool bt = mma->aux == 1 || mma->aux == 3;
    if (base == TIR_PACK_VNNI_KN) return bt ? TIR_PACK_VNNI_NK : TIR_PACK_VNNI_KN;
    if (base == TIR_PACK_ROWS_KN) return bt ? TIR_PACK_ROWS_NK : TIR_PACK_ROWS_KN;
    return TIR_PACK_NONE;
}

typedef struct {
    Uses *U;
    TirPackChooser choose;
    void *ctx;
    TirPack *slot_pack;      /* by slot id: chosen packing, or NONE */
    bool *slot_bad;
} Pass;

static TirPack wanted(Pass *P, const TirInstr *mma)
{
    const TkType *a = mma->args[1]->type, *b = mma->args[2]->type;
    if (!a || !b || a->elem != b->elem) return TIR_PACK_NONE;
    /* legalise sent it to the portable loop, which reads B as a plain tile */
    if (mma->base_name && !mma->base_op) return TIR_PACK_NONE;
    return pack_for(mma, P->choose(P->ctx, b->elem));
}

static void note_slot(Pass *P, const TirInstr *slot, TirPack pack)
{
    if (pack == TIR_PACK_NONE) {
        P->slot_bad[slot->id] = true;
    } else if (P->slot_pack[slot->id] == TIR_PACK_NONE) {
        P->slot_pack[slot->id] = pack;
    } else if (P->slot_pack[slot->id] != pack) {
        P->slot_bad[slot->id] = true;
    }
}

/* Judge every touch of an rt slot. */
static void judge(Pass *P, const TirRegion *r)
{
    Uses *U = P->U;
    for (TirInstr *i = r->first; i; i = i->next) {
        for (unsigned k = 0; k < i->nargs; k++) {
            const TirInstr *s = i->args[k];
            if (!s || s->op != TIR_VAR || !s->type || s->type->kind != TK_TY_RT) continue;
            if (i->op == TIR_GET) {
                const TirInstr *u = U->user[i->id];
                if (U->uses[i->id] == 1 && u->op == TIR_MMA && U->user_arg[i->id] == 2) note_slot(P, s, wanted(P, u));
                else if (U->uses[i->id] != 0) P->slot_bad[s->id] = true;
            } else if (i->op == TIR_SET && k == 0) {
                const TirInstr *v = i->args[1];
                if (!(v->op == TIR_LOAD && U->uses[v->id] == 1)) P->slot_bad[s->id] = true;
            } else {
                P->slot_bad[s->id] = true;   /* mma accumulator, element access, ... */
            }
        }
        judge(P, &i->body[0]);
        judge(P, &i->body[1]);
    }
}

/* Give the slots and their loads the packing; loads straight into an mma too. */
static void apply(Pass *P, TirRegion *r)
{
    Uses *U = P->U;
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_VAR && i->type && i->type->kind == TK_TY_RT && !P->slot_bad[i->id]) i->pack = (uint8_t)P->slot_pack[i->id];
        if (i->op == TIR_SET && i->args[0]->op == TIR_VAR && !P->slot_bad[i->args[0]->id] && P->slot_pack[i->args[0]->id])
            i->args[1]->pack = (uint8_t)P->slot_pack[i->args[0]->id];
        if (i->op == TIR_MMA) {
            TirInstr *b = i->args[2];
            if (b->op == TIR_LOAD && U->uses[b->id] == 1) b->pack = (uint8_t)wanted(P, i);
        }
        apply(P, &i->body[0]);
        apply(P, &i->body[1]);
    }
}

void tir_assign_layouts(TirFunc *f, TirPackChooser choose, void *ctx)
{
    uint32_t n = 0;
    number(&f->grid_region, &n);
    number(&f->body, &n);
    Uses U = { .count = n };
    U.uses = calloc(n ? n : 1, sizeof *U.uses);
    U.user = calloc(n ? n : 1, sizeof *U.user);
    U.user_arg = calloc(n ? n : 1, 1);
    Pass P = { .U = &U, .choose = choose, .ctx = ctx };
    P.slot_pack = calloc(n ? n : 1, sizeof *P.slot_pack);
    P.slot_bad = calloc(n ? n : 1, sizeof *P.slot_bad);
    if (choose && U.uses && U.user && U.user_arg && P.slot_pack && P.slot_bad) {   /* else: no packing, which is always correct */
        count_uses(&U, &f->body);
        judge(&P, &f->body);
        apply(&P, &f->body);
    }
    free(U.uses);
    free(U.user);
    free(U.user_arg);
    free(P.slot_pack);
    free(P.slot_bad);
}

int64_t tir_pack_index(TirPack pack, const TkType *t, int64_t i, int64_t j)
{
    switch (pack) {
    case TIR_PACK_VNNI_KN: return ((i / 2) * t->dims[1] + j) * 2 + (i & 1);   /* k = i, n = j */
    case TIR_PACK_VNNI_NK: return ((j / 2) * t->dims[0] + i) * 2 + (j & 1);   /* k = j, n = i */
    case TIR_PACK_ROWS_KN: return i * t->dims[1] + j;
    case TIR_PACK_ROWS_NK: return j * t->dims[0] + i;
    default: return -1;
    }
}
