/* tir_flops.c — see tir_flops.h. A tiny evaluator over the scalar ops. */
#include "tir_flops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

typedef struct {
    const TirFunc *f;
    const double *scalars;
    const int64_t *sizes;
    double *vals;          /* by instruction id */
    bool *known;
    int32_t bid[3], warp;
    double flops;
    bool ok;
    uint32_t count;
} Eval;

static void number(const TirRegion *r, uint32_t *next)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->iv) i->iv->id = (*next)++;
        i->id = (*next)++;
        number(&i->body[0], next);
        number(&i->body[1], next);
    }
}

static double val(Eval *E, const TirInstr *i, bool *ok);

static double wrap(const TkType *t, double v)
{
    if (t && t->kind == TK_TY_I32) return (double)(int32_t)(int64_t)v;
    return v;
}

static double val(Eval *E, const TirInstr *i, bool *ok)
{
    if (i->id < E->count && E->known[i->id]) return E->vals[i->id];
    double a, b;
    switch (i->op) {
    case TIR_CONST_INT: return (double)i->imm;
    case TIR_CONST_FLOAT: return i->fimm;
    case TIR_SIZE: return (double)E->sizes[i->aux];
    case TIR_BLOCK_ID: return E->bid[i->aux % 3];
    case TIR_WARP_ID: return E->warp;
    case TIR_PARAM: return i->type->kind == TK_TY_GL ? 0 : E->scalars[i->aux];
    case TIR_CAST: return tk_is_int(i->type->kind) ? wrap(i->type, trunc(val(E, i->args[0], ok))) : val(E, i->args[0], ok);
    case TIR_CDIV:
        a = val(E, i->args[0], ok);
        b = val(E, i->args[1], ok);
        return b > 0 ? ceil(a / b) : 0;
    case TIR_UNARY:
        a = val(E, i->args[0], ok);
        return i->aux == TK_OP_NOT ? !a : -a;
    case TIR_MAP2:
        if (!tk_is_scalar(i->type->kind)) break;
        a = val(E, i->args[0], ok);
        b = val(E, i->args[1], ok);
        switch ((TirFn)i->aux) {
        case TIR_FN_MAX: return a > b ? a : b;
        case TIR_FN_MIN: return a < b ? a : b;
        case TIR_FN_ADD: return a + b;
        case TIR_FN_SUB: return a - b;
        case TIR_FN_MUL: return a * b;
        default: return b != 0 ? a / b : 0;
        }
    case TIR_BINARY: {
        a = val(E, i->args[0], ok);
        b = val(E, i->args[1], ok);
        bool integer = tk_is_int(i->args[0]->type->kind);
        switch ((TkOp)i->aux) {
        case TK_OP_ADD: return wrap(i->type, a + b);
        case TK_OP_SUB: return wrap(i->type, a - b);
        case TK_OP_MUL: return wrap(i->type, a * b);
        case TK_OP_DIV: return b == 0 ? 0 : integer ? trunc(a / b) : a / b;
        case TK_OP_MOD: return b == 0 ? 0 : fmod(a, b);
        case TK_OP_LT: return a < b;
        case TK_OP_LE: return a <= b;
        case TK_OP_GT: return a > b;
        case TK_OP_GE: return a >= b;
        case TK_OP_EQ: return a == b;
        case TK_OP_NE: return a != b;
        case TK_OP_AND: return a && b;
        case TK_OP_OR: return a || b;
        default: return 0;
        }
    }
    case TIR_GET:
        if (tk_is_scalar(i->type->kind) && i->args[0]->id < E->count && E->known[i->args[0]->id]) return E->vals[i->args[0]->id];
        break;
    default: break;
    }
    *ok = false;   /* depends on tile data or an unknown slot */
    return 0;
}

static void run_region(Eval *E, const TirRegion *r)
{
    for (const TirInstr *i = r->first; i && E->ok; i = i->next) {
        bool ok = true;
        switch (i->op) {
        case TIR_VAR:
            if (tk_is_scalar(i->type->kind)) {
                E->vals[i->id] = 0;
                E->known[i->id] = true;
            }
            break;
        case TIR_SET:
            if (tk_is_scalar(i->args[0]->type->kind)) {
                double v = val(E, i->args[1], &ok);
                E->vals[i->args[0]->id] = v;
                E->known[i->args[0]->id] = ok;   /* unknown values poison only what reads them */
            }
            break;
        case TIR_MMA: {
            const TkType *acc = i->args[0]->type, *a = i->args[1]->type;
            double k = (i->aux == 2 || i->aux == 3) ? (double)a->dims[0] : (double)a->dims[1];
            E->flops += 2.0 * (double)acc->dims[0] * (double)acc->dims[1] * k;
            break;
        }
        case TIR_FOR: {
            double lo = val(E, i->args[0], &ok), hi = val(E, i->args[1], &ok);
            if (!ok) {
                E->ok = false;
                return;
            }
            for (double v = lo; v < hi && E->ok; v++) {
                E->vals[i->iv->id] = v;
                E->known[i->iv->id] = true;
                run_region(E, &i->body[0]);
            }
            break;
        }
        case TIR_IF: {
            double c = val(E, i->args[0], &ok);
            if (!ok) {
                E->ok = false;
                return;
            }
            run_region(E, &i->body[c != 0 ? 0 : 1]);
            break;
        }
        default: break;
        }
    }
}

bool tir_count_flops(const TirFunc *f, const double *scalars, const int64_t *sizes, double *flops)
{
    Eval E = { .f = f, .scalars = scalars, .sizes = sizes, .ok = true };
    uint32_t n = 0;
    number(&f->grid_region, &n);
    number(&f->body, &n);
    E.count = n;
    E.vals = calloc(n ? n : 1, sizeof *E.vals);
    E.known = calloc(n ? n : 1, sizeof *E.known);
    if (!E.vals || !E.known) {
        free(E.vals);
        free(E.known);
        return false;
    }
    double g[3] = { 1, 1, 1 };
    for (unsigned k = 0; k < f->grid_rank; k++) {
        bool ok = true;
        g[k] = val(&E, f->grid[k], &ok);
        if (!ok) E.ok = false;
    }
    for (int32_t z = 0; z < g[2] && E.ok; z++)
        for (int32_t y = 0; y < g[1] && E.ok; y++)
            for (int32_t x = 0; x < g[0] && E.ok; x++)
                for (int32_t w = 0; w < f->warps && E.ok; w++) {
                    E.bid[0] = x;
                    E.bid[1] = y;
                    E.bid[2] = z;
                    E.warp = w;
                    memset(E.known, 0, n);
                    run_region(&E, &f->body);
                }
    *flops = E.flops;
    free(E.vals);
    free(E.known);
    return E.ok;
}
