/* emit_subtile.c — sub-tiles, rows and columns on the CPU (docs/LANGUAGE.md
 * §5.13). A read (SLICE, LINE) is an element-wise node of the fusion in
 * emit_fuse.c whose element (i, j) is an element of its source at shifted
 * coordinates, so `exp(x[0 .. 16, 16 .. 32])` is one loop over the 16×16
 * elements reading x in place; a write (SET_SLICE, SET_LINE) copies its
 * (materialised) value into the region of the variable's storage. Layouts
 * need no special case: every element address goes through
 * emit_tile_index, which knows col tiles are column-major. */
#include "emit.h"

#include <stdlib.h>

bool emit_is_subtile_read(const TirInstr *x) { return x->op == TIR_SLICE || x->op == TIR_LINE; }

static LLVMValueRef i64_of(Emit *E, LLVMValueRef v)
{
    return LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64 ? v : LLVMBuildSExt(E->b, v, E->i64, "");
}

static LLVMValueRef plus(Emit *E, LLVMValueRef v, int64_t k) { return k ? LLVMBuildAdd(E->b, v, emit_const_i64(E, k), "") : v; }

LLVMValueRef emit_subtile_elem(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j, EmitElemFn elem)
{
    const TirInstr *src = x->args[0];
    if (x->op == TIR_SLICE)
        return src->type->rank == 1 ? elem(E, src, i, plus(E, j, x->imm)) : elem(E, src, plus(E, i, x->aux), plus(E, j, x->imm));
    LLVMValueRef k = i64_of(E, emit_value(E, x->args[1]));   /* LINE: vectors are indexed by j */
    return x->imm ? elem(E, src, j, k) : elem(E, src, k, j);
}

/* Does the fused tree rooted at x read a sub-tile or line (an element other
 * than the one it computes)? memo by id: 0 unknown, 1 no, 2 yes — a DAG
 * whose nodes are shared (x*x chained) is visited once per node, not once
 * per path. Conservative past a depth of 32, or without memory. */
static bool reads_shifted(Emit *E, const TirInstr *x, int depth, uint8_t *memo)
{
    if (emit_is_subtile_read(x)) return true;
    if (depth > 32) return true;
    if (memo[x->id]) return memo[x->id] == 2;
    bool r = false;
    for (unsigned a = 0; a < x->nargs && !r; a++) {
        const TirInstr *op = x->args[a];
        r = !tk_is_scalar(op->type->kind) &&
            (emit_is_subtile_read(op) || (emit_fused_into_user(E, op) && reads_shifted(E, op, depth + 1, memo)));
    }
    memo[x->id] = r ? 2 : 1;
    return r;
}

bool emit_subtile_in_tree(Emit *E, const TirInstr *x)
{
    uint8_t *memo = calloc(E->count ? E->count : 1, 1);
    bool r = !memo || reads_shifted(E, x, 0, memo);
    free(memo);
    return r;
}

void emit_subtile_set(Emit *E, const TirInstr *s)
{
    const TirInstr *slot = s->args[0], *v = s->args[1];
    const TkType *st = slot->type, *vt = v->type;
    LLVMValueRef dst = emit_slot_ptr(E, slot), src = emit_value(E, v);
    LLVMValueRef k = s->op == TIR_SET_LINE ? i64_of(E, emit_value(E, s->args[2])) : NULL;
    int64_t rows = vt->rank == 2 ? vt->dims[0] : 1, cols = vt->rank == 2 ? vt->dims[1] : vt->dims[0];
    EmitLoop Li, Lj;
    emit_loop_begin(E, &Li, emit_const_i64(E, rows), "sub.row");
    emit_loop_begin(E, &Lj, emit_const_i64(E, cols), "sub.col");
    LLVMValueRef i = Li.idx, j = Lj.idx;
    LLVMValueRef si = vt->rank == 2 ? emit_tile_index(E, vt, i, j) : j, di;
    if (s->op == TIR_SET_SLICE) {
        di = st->rank == 2 ? emit_tile_index(E, st, plus(E, i, s->aux), plus(E, j, s->imm)) : plus(E, j, s->imm);
    } else {
        LLVMValueRef p = plus(E, j, s->aux);
        di = s->imm ? emit_tile_index(E, st, p, k) : emit_tile_index(E, st, k, p);
    }
    emit_copy_elem(E, st, dst, di, src, si);
    emit_loop_end(E, &Lj);
    emit_loop_end(E, &Li);
}
