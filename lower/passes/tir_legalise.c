/* tir_legalise.c — see tir_legalise.h. */
#include "tir_legalise.h"

#include <stdio.h>

static int legalise_region(TirRegion *r, TirMmaSelector select, void *ctx, char *err, size_t errlen)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_MMA) {
            i->base_op = NULL;
            i->base_name = NULL;
            if (select && select(ctx, i, &i->base_op, &i->base_name, err, errlen) != 0) return -1;
        }
        if (legalise_region(&i->body[0], select, ctx, err, errlen) != 0) return -1;
        if (legalise_region(&i->body[1], select, ctx, err, errlen) != 0) return -1;
    }
    return 0;
}

int tir_legalise(TirFunc *f, TirMmaSelector select, void *ctx, char *err, size_t errlen)
{
    return legalise_region(&f->body, select, ctx, err, errlen);
}
