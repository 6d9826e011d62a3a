/* tir_specialise.c — see tir_specialise.h. A SIZE op turns into a CONST_INT in
 * place, so every use sees the constant without rewriting operands. */
#include "tir_specialise.h"

static void specialise_region(TirRegion *r, const int64_t *sizes, unsigned n)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_SIZE && (unsigned)i->aux < n) {
            i->op = TIR_CONST_INT;
            i->imm = sizes[i->aux];
        }
        specialise_region(&i->body[0], sizes, n);
        specialise_region(&i->body[1], sizes, n);
    }
}

void tir_specialise_sizes(TirFunc *f, const int64_t *sizes)
{
    unsigned n = f->sizes ? f->sizes->count : 0;
    specialise_region(&f->grid_region, sizes, n);
    specialise_region(&f->body, sizes, n);
}
