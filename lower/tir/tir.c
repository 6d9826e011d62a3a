/* tir.c — construction helpers and the op/function name tables. */
#include "tir.h"

#include "ast.h"

#include <string.h>

static const char *const op_names[] = {
#define X(name, meaning) #name,
#include "tir_ops.h"
#undef X
};

static const char *const op_meanings[] = {
#define X(name, meaning) meaning,
#include "tir_ops.h"
#undef X
};

static const char *const fn_names[] = {
    "neg", "abs", "exp", "exp2", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "gelu", "silu",
    "add", "sub", "mul", "div", "max", "min", "erf", "gelu_erf", "fma",
    "lt", "le", "gt", "ge", "eq", "ne", "and", "or", "not", "where",
};
_Static_assert(sizeof fn_names / sizeof fn_names[0] == TIR_NUM_FNS, "one name per TirFn");

unsigned tir_fn_arity(int fn)
{
    if (fn < 0 || fn >= TIR_NUM_FNS) return 0;
    if (fn == TIR_FN_FMA || fn == TIR_FN_SELECT) return 3;
    if (fn == TIR_FN_NOT) return 1;
    return (fn >= TIR_FN_ADD && fn <= TIR_FN_MIN) || (fn >= TIR_FN_LT && fn <= TIR_FN_OR) ? 2 : 1;
}

bool tir_fn_is_compare(int fn) { return fn >= TIR_FN_LT && fn <= TIR_FN_NE; }
bool tir_fn_is_logic(int fn) { return fn == TIR_FN_AND || fn == TIR_FN_OR || fn == TIR_FN_NOT; }

int tir_fn_of_compare_op(int op)
{
    switch (op) {
    case TK_OP_LT: return TIR_FN_LT;
    case TK_OP_LE: return TIR_FN_LE;
    case TK_OP_GT: return TIR_FN_GT;
    case TK_OP_GE: return TIR_FN_GE;
    case TK_OP_EQ: return TIR_FN_EQ;
    case TK_OP_NE: return TIR_FN_NE;
    default: return -1;
    }
}

int tir_fn_by_name(const char *name)
{
    for (int i = 0; i < TIR_NUM_FNS; i++)
        if (strcmp(fn_names[i], name) == 0) return i;
    return -1;
}

const char *tir_op_name(TirOp op) { return (unsigned)op < TIR_NUM_OPS ? op_names[op] : "?"; }
const char *tir_op_meaning(TirOp op) { return (unsigned)op < TIR_NUM_OPS ? op_meanings[op] + 3 : "?"; }
const char *tir_fn_name(TirFn fn) { return (unsigned)fn < TIR_NUM_FNS ? fn_names[fn] : "?"; }

bool tir_is_statement(TirOp op) { return (unsigned)op < TIR_NUM_OPS && op_meanings[op][0] == 'S'; }

TirInstr *tir_new(TkArena *a, TirOp op, const TkType *type, TkSpan loc)
{
    TirInstr *i = tk_arena_alloc(a, sizeof *i);
    if (!i) return NULL;
    i->op = op;
    i->type = type;
    i->loc = loc;
    return i;
}

void tir_append(TirRegion *r, TirInstr *i)
{
    if (!i) return;
    i->parent = r;
    i->prev = r->last;
    i->next = NULL;
    if (r->last) r->last->next = i;
    else r->first = i;
    r->last = i;
}

void tir_add_arg(TirInstr *i, TirInstr *arg)
{
    if (i && i->nargs < TIR_MAX_ARGS) i->args[i->nargs++] = arg;
}

static bool region_has_sync(const TirRegion *r)
{
    for (const TirInstr *i = r->first; i; i = i->next)
        if (tir_is_barrier(i)) return true;
    return false;
}

bool tir_is_barrier(const TirInstr *i)
{
    if (i->op == TIR_SYNC) return true;
    if (i->op == TIR_FOR || i->op == TIR_IF) return region_has_sync(&i->body[0]) || region_has_sync(&i->body[1]);
    return false;
}
