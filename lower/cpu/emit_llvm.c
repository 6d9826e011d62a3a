/* emit_llvm.c — TIR → LLVM IR: the two functions of each kernel, the warp
 * schedule around barriers, slots, values and control flow. Scalar arithmetic
 * and conversions are in emit_scalars.c, tile operations in emit_tiles.c and emit_fuse.c. See emit.h for the execution model. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "ast.h"
#include "source.h"
#include "emit.h"
#include "emit_math.h"
#include "llvm_emit.h"

static LLVMMetadataRef debug_at(Emit *E, const TirInstr *i);
static void debug_restore(Emit *E, LLVMMetadataRef old);

/* ---------------------------------------------------------------- basics */

LLVMValueRef emit_const_i64(Emit *E, int64_t v) { return LLVMConstInt(E->i64, (unsigned long long)v, 1); }
LLVMValueRef emit_const_i32(Emit *E, int64_t v) { return LLVMConstInt(E->i32, (unsigned long long)v, 1); }

LLVMTypeRef emit_scalar_type(Emit *E, TkTypeKind k)
{
    switch (k) {
    case TK_TY_BOOL: return E->i1;
    case TK_TY_I32: case TK_TY_UINT: return E->i32;
    case TK_TY_I64: return E->i64;
    case TK_TY_F32: case TK_TY_UFLOAT: return E->f32;
    case TK_TY_F16: return E->f16;
    case TK_TY_BF16: return E->i16;   /* bit pattern: bfloat values would be legalised through libcalls */
    default: return E->i32;
    }
}

int64_t emit_warp_stride(const TkType *t)
{
    int64_t esize = t->elem == TK_TY_F32 ? 4 : 2, bytes = emit_tile_elems(t) * esize;
    return (bytes + 63) / 64 * 64 / esize;
}

LLVMValueRef emit_alloca(Emit *E, LLVMTypeRef elem, int64_t count, const char *name)
{
    LLVMTypeRef arr = LLVMArrayType2(elem, (uint64_t)(count > 0 ? count : 1));
    unsigned long long bytes = 0;
    LLVMTypeKind k = LLVMGetTypeKind(elem);
    bytes = k == LLVMIntegerTypeKind ? (LLVMGetIntTypeWidth(elem) + 7) / 8 : k == LLVMHalfTypeKind || k == LLVMBFloatTypeKind ? 2
          : k == LLVMDoubleTypeKind ? 8 : 4;
    E->stack_bytes += bytes * (unsigned long long)(count > 0 ? count : 1) + 64;
    LLVMValueRef a = LLVMBuildAlloca(E->alloca_b, arr, name);
    LLVMSetAlignment(a, 64);   /* a cache line, and a full zmm */
    return a;
}

LLVMValueRef emit_intrinsic(Emit *E, const char *name, LLVMTypeRef *overloads, unsigned noverloads, LLVMValueRef *args,
                            unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(E->mod, id, overloads, noverloads);
    return LLVMBuildCall2(E->b, LLVMGlobalGetValueType(fn), fn, args, nargs, "");
}

void emit_loop_begin(Emit *E, EmitLoop *L, LLVMValueRef n, const char *name)
{
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(E->b);
    L->header = LLVMAppendBasicBlockInContext(E->ctx, E->fn, name);
    L->body = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "body");
    L->exit = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "done");
    LLVMBuildBr(E->b, L->header);
    LLVMPositionBuilderAtEnd(E->b, L->header);
    L->idx = LLVMBuildPhi(E->b, E->i64, "i");
    LLVMValueRef zero = emit_const_i64(E, 0);
    LLVMAddIncoming(L->idx, &zero, &pre, 1);
    LLVMValueRef more = LLVMBuildICmp(E->b, LLVMIntSLT, L->idx, n, "");
    LLVMBuildCondBr(E->b, more, L->body, L->exit);
    LLVMPositionBuilderAtEnd(E->b, L->body);
}

void emit_loop_end(Emit *E, EmitLoop *L)
{
    LLVMValueRef next = LLVMBuildAdd(E->b, L->idx, emit_const_i64(E, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(E->b);
    LLVMAddIncoming(L->idx, &next, &latch, 1);
    LLVMBuildBr(E->b, L->header);
    LLVMPositionBuilderAtEnd(E->b, L->exit);
}

/* Marks the loop whose latch is `br` with one property: `key` alone (value < 0)
 * or `key` with the i1 `value`. The loop ID must list itself first: a
 * temporary node stands in for it until the node exists. */
static void loop_property(Emit *E, LLVMValueRef br, const char *key, int value)
{
    LLVMMetadataRef temp = LLVMTemporaryMDNode(E->ctx, NULL, 0);
    LLVMMetadataRef opt[2] = { LLVMMDStringInContext2(E->ctx, key, strlen(key)),
                               LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(E->ctx), (unsigned long long)value, 0)) };
    LLVMMetadataRef ops[2] = { temp, LLVMMDNodeInContext2(E->ctx, opt, value < 0 ? 1 : 2) };
    LLVMMetadataRef id = LLVMMDNodeInContext2(E->ctx, ops, 2);
    LLVMMetadataReplaceAllUsesWith(temp, id);
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(E->ctx, "llvm.loop", 9), LLVMMetadataAsValue(E->ctx, id));
}

void emit_loop_end_rows(Emit *E, EmitLoop *L)
{
    LLVMValueRef next = LLVMBuildAdd(E->b, L->idx, emit_const_i64(E, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(E->b);
    LLVMAddIncoming(L->idx, &next, &latch, 1);
    loop_property(E, LLVMBuildBr(E->b, L->header), "llvm.loop.vectorize.enable", 0);
    LLVMPositionBuilderAtEnd(E->b, L->exit);
}

/* Ends a loop over the elements of a row (or a vector) that the loop
 * vectoriser should take: marked llvm.loop.unroll.disable, because LLVM's
 * full unrolling runs first and unrolls a short constant-trip loop (a
 * 32-element rv) into straight scalar code that the SLP vectoriser then often
 * leaves scalar (bf16 conversions, values extracted from vectors): the
 * depthwise bf16 kernel ran 15x slower than the f32 one that way. The
 * vectorised loop is short anyway. */
void emit_loop_end_lanes(Emit *E, EmitLoop *L)
{
    LLVMValueRef next = LLVMBuildAdd(E->b, L->idx, emit_const_i64(E, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(E->b);
    LLVMAddIncoming(L->idx, &next, &latch, 1);
    loop_property(E, LLVMBuildBr(E->b, L->header), "llvm.loop.unroll.disable", -1);
    LLVMPositionBuilderAtEnd(E->b, L->exit);
}

/* ---------------------------------------------------------------- value scopes */

void emit_scope_push(Emit *E)
{
    if (E->depth + 1 >= (int)(sizeof E->scope_marks / sizeof E->scope_marks[0])) {
        E->failed = true;
        snprintf(E->err, sizeof E->err, "control flow nested too deeply");
        return;
    }
    E->scope_marks[++E->depth] = E->set_top;
}

void emit_scope_pop(Emit *E)
{
    if (E->depth <= 0) return;
    while (E->set_top > E->scope_marks[E->depth]) {
        uint32_t id = E->set_stack[--E->set_top];
        if (E->val_depth[id] == E->depth) E->val_depth[id] = -1;
    }
    E->depth--;
}

static void remember(Emit *E, const TirInstr *i, LLVMValueRef v, bool permanent)
{
    if (i->id >= E->count) return;
    E->vals[i->id] = v;
    E->val_depth[i->id] = permanent ? INT_MAX : E->depth;
    if (permanent) return;
    if (E->set_top == E->set_cap) {
        uint32_t cap = E->set_cap ? E->set_cap * 2 : 1024;
        uint32_t *n = realloc(E->set_stack, sizeof *n * cap);
        if (!n) {
            E->failed = true;
            return;
        }
        E->set_stack = n;
        E->set_cap = cap;
    }
    E->set_stack[E->set_top++] = i->id;
}

/* ---------------------------------------------------------------- slots */

static bool per_block(const TkType *t) { return tk_is_shared(t->kind); }

/* A slot's elements per warp (tiles padded: emit_warp_stride). */
static int64_t slot_elems(const TkType *t) { return tk_is_scalar(t->kind) ? 1 : emit_warp_stride(t); }

static LLVMTypeRef slot_elem_type(Emit *E, const TkType *t)
{
    return tk_is_scalar(t->kind) ? emit_scalar_type(E, t->kind) : emit_elem_type(E, t);
}

LLVMValueRef emit_slot_ptr(Emit *E, const TirInstr *v)
{
    if (emit_is_view(E, v)) return emit_view_ptr(E, v);
    v = emit_storage_of(E, v);   /* a coalesced variable lives in another's slot */
    LLVMValueRef base = E->slots[v->id];
    if (!base && per_block(v->type) && E->shared_arena) {
        /* shared tiles sit at their planned offsets in one arena (address computed in the entry block) */
        LLVMValueRef off = emit_const_i64(E, v->imm);
        base = LLVMBuildGEP2(E->alloca_b, E->i8, E->shared_arena, &off, 1, v->name ? v->name : "shared");
        E->slots[v->id] = base;
    }
    if (!base) {
        int64_t copies = per_block(v->type) ? 1 : E->f->warps;
        base = emit_alloca(E, slot_elem_type(E, v->type), copies * slot_elems(v->type), v->name ? v->name : "slot");
        E->slots[v->id] = base;
    }
    if (per_block(v->type) || E->f->warps == 1) return base;
    LLVMValueRef off = LLVMBuildMul(E->b, LLVMBuildZExt(E->b, E->warp, E->i64, ""), emit_const_i64(E, slot_elems(v->type)), "");
    return LLVMBuildGEP2(E->b, slot_elem_type(E, v->type), base, &off, 1, "");
}

LLVMValueRef emit_tensor_dim(Emit *E, const TkType *t, unsigned d)
{
    const TkPoly *p = &t->gdims[d];
    LLVMValueRef sum = emit_const_i64(E, 0);
    for (unsigned k = 0; k < p->nterms; k++) {
        const TkMono *m = &p->terms[k];
        LLVMValueRef term = emit_const_i64(E, m->coef);
        for (unsigned v = 0; v < m->nvars; v++) {
            LLVMValueRef idx = emit_const_i64(E, m->vars[v]);
            LLVMValueRef ptr = LLVMBuildGEP2(E->b, E->i64, E->sizes, &idx, 1, "");
            term = LLVMBuildMul(E->b, term, LLVMBuildLoad2(E->b, E->i64, ptr, ""), "");
        }
        sum = LLVMBuildAdd(E->b, sum, term, "");
    }
    return sum;
}

/* ---------------------------------------------------------------- values */

LLVMValueRef emit_value(Emit *E, const TirInstr *i)
{
    if (!i) return LLVMConstNull(E->i32);
    if (i->op == TIR_WARP_ID) return E->warp;
    if (i->id < E->count && E->val_depth[i->id] >= 0) return E->vals[i->id];
    LLVMValueRef v = NULL;
    bool permanent = false;
    LLVMMetadataRef old_loc = debug_at(E, i);
    switch (i->op) {
    case TIR_PARAM: {
        LLVMValueRef idx = emit_const_i64(E, i->aux);
        LLVMValueRef p = LLVMBuildLoad2(E->b, E->ptr, LLVMBuildGEP2(E->b, E->ptr, E->args, &idx, 1, ""), i->name ? i->name : "");
        if (i->type->kind == TK_TY_GL) {
            v = p;
        } else if (i->type->kind == TK_TY_BOOL) {
            v = LLVMBuildICmp(E->b, LLVMIntNE, LLVMBuildLoad2(E->b, E->i8, p, ""), LLVMConstInt(E->i8, 0, 0), "");
        } else {
            v = LLVMBuildLoad2(E->b, emit_scalar_type(E, i->type->kind), p, "");
        }
        permanent = true;
        break;
    }
    case TIR_SIZE: {
        LLVMValueRef idx = emit_const_i64(E, i->aux);
        v = LLVMBuildTrunc(E->b, LLVMBuildLoad2(E->b, E->i64, LLVMBuildGEP2(E->b, E->i64, E->sizes, &idx, 1, ""), ""), E->i32,
                           i->name ? i->name : "");
        permanent = true;
        break;
    }
    case TIR_BLOCK_ID: v = E->bid[i->aux % 3]; permanent = true; break;
    case TIR_CONST_INT: v = LLVMConstInt(emit_scalar_type(E, i->type->kind), (unsigned long long)i->imm, 1); break;
    case TIR_CONST_FLOAT: v = emit_const_float(E, i->type->kind, i->fimm); break;
    case TIR_BINARY: v = emit_scalar_binary(E, i); break;
    case TIR_UNARY: {
        v = emit_scalar_unop(E, (TkOp)i->aux, i->type->kind, emit_value(E, i->args[0]));
        break;
    }
    case TIR_CAST: v = emit_convert_scalar(E, emit_value(E, i->args[0]), i->args[0]->type->kind, i->type->kind); break;
    case TIR_CDIV: v = emit_scalar_cdiv(E, emit_value(E, i->args[0]), emit_value(E, i->args[1])); break;
    case TIR_GET:
        if (tk_is_scalar(i->type->kind)) v = LLVMBuildLoad2(E->b, emit_scalar_type(E, i->type->kind), emit_slot_ptr(E, i->args[0]), "");
        else v = emit_slot_ptr(E, i->args[0]);
        break;
    case TIR_LOOP_IV:
        /* set by the FOR that owns it */
        E->failed = true;
        snprintf(E->err, sizeof E->err, "loop variable used outside its loop");
        return LLVMConstNull(E->i32);
    case TIR_MAP1:
    case TIR_MAP2:
    case TIR_MAP3:
        if (tk_is_scalar(i->type->kind)) {
            LLVMValueRef x[3];
            for (unsigned a = 0; a < i->nargs && a < 3; a++) x[a] = emit_value(E, i->args[a]);
            v = emit_scalar_map(E, i, x);
            break;
        }
        v = emit_tile_value(E, i);
        break;
    case TIR_ELEM: v = emit_tile_elem(E, i); break;
    default:
        v = emit_tile_value(E, i);
        break;
    }
    remember(E, i, v, permanent);
    debug_restore(E, old_loc);
    return v;
}

/* ---------------------------------------------------------------- statements */

static void emit_region(Emit *E, const TirRegion *r);
static void emit_stmt(Emit *E, const TirInstr *s);

/* Block-collective statements run once per block (as warp 0). */
static bool is_collective(const TirInstr *i)
{
    switch (i->op) {
    case TIR_VAR: return per_block(i->type);
    case TIR_SET: return per_block(i->args[0]->type);
    case TIR_STORE: return i->args[0]->op == TIR_PARAM && tk_is_shared(i->args[1]->type->kind);
    default: return false;
    }
}

static void emit_if(Emit *E, const TirInstr *i, bool block_ctx)
{
    LLVMValueRef c = emit_value(E, i->args[0]);
    LLVMBasicBlockRef then_bb = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "then");
    LLVMBasicBlockRef else_bb = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "else");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "endif");
    LLVMBuildCondBr(E->b, c, then_bb, else_bb);
    for (int k = 0; k < 2; k++) {
        LLVMPositionBuilderAtEnd(E->b, k == 0 ? then_bb : else_bb);
        emit_scope_push(E);
        if (block_ctx) emit_region(E, &i->body[k]);
        else
            for (const TirInstr *s = i->body[k].first; s; s = s->next) emit_stmt(E, s);
        emit_scope_pop(E);
        LLVMBuildBr(E->b, join);
    }
    LLVMPositionBuilderAtEnd(E->b, join);
}

static void emit_for(Emit *E, const TirInstr *i, bool block_ctx)
{
    LLVMValueRef lo = emit_value(E, i->args[0]), hi = emit_value(E, i->args[1]);
    LLVMTypeRef t = LLVMTypeOf(lo);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(E->b);
    LLVMBasicBlockRef header = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "for");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "for.body");
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "for.end");
    LLVMBuildBr(E->b, header);
    LLVMPositionBuilderAtEnd(E->b, header);
    LLVMValueRef iv = LLVMBuildPhi(E->b, t, i->iv && i->iv->name ? i->iv->name : "iv");
    LLVMAddIncoming(iv, &lo, &pre, 1);
    LLVMBuildCondBr(E->b, LLVMBuildICmp(E->b, LLVMIntSLT, iv, hi, ""), body, exit);
    LLVMPositionBuilderAtEnd(E->b, body);
    if (i->iv) remember(E, i->iv, iv, true);
    emit_scope_push(E);
    if (block_ctx) emit_region(E, &i->body[0]);
    else
        for (const TirInstr *s = i->body[0].first; s; s = s->next) emit_stmt(E, s);
    emit_scope_pop(E);
    LLVMValueRef next = LLVMBuildAdd(E->b, iv, LLVMConstInt(t, 1, 0), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(E->b);
    LLVMAddIncoming(iv, &next, &latch, 1);
    LLVMBuildBr(E->b, header);
    LLVMPositionBuilderAtEnd(E->b, exit);
}

/* Does i, or anything nested in it, refer to var? */
static bool mentions(const TirInstr *i, const TirInstr *var)
{
    for (unsigned a = 0; a < i->nargs; a++)
        if (i->args[a] == var) return true;
    for (int k = 0; k < 2; k++)
        for (const TirInstr *j = i->body[k].first; j; j = j->next)
            if (mentions(j, var)) return true;
    return false;
}

/* Is tile variable `var` given a value (SET) before anything reads it? Then
 * its declaration need not zero it. The first instruction of its region
 * after the declaration that mentions it must be a SET of it (one in a
 * nested if or loop may not run, so that counts as a read): an inlined
 * helper's result variable is declared, then assigned only at its return. */
static bool set_before_read(const TirInstr *var)
{
    for (const TirInstr *i = var->next; i; i = i->next)
        if (mentions(i, var)) return i->op == TIR_SET && i->args[0] == var && i->args[1] != var && !mentions(i->args[1], var);
    return false;
}

/* Can value `val` be produced directly in tile variable `slot`? For a load
 * or a fill that only this SET uses (so nobody sees the variable change
 * under them), of exactly the slot's type and physical packing, not yet
 * emitted. Neither reads the variable, so writing it early is safe. */
static bool writes_into_slot(Emit *E, const TirInstr *slot, const TirInstr *val)
{
    /* element-wise roots read their operands only at the element they write */
    bool elementwise = val->op == TIR_MAP1 || val->op == TIR_MAP2 || val->op == TIR_MAP3 || val->op == TIR_BROADCAST || val->op == TIR_CONVERT ||
                       val->op == TIR_TRI || val->op == TIR_MASK;
    if (val->op != TIR_LOAD && val->op != TIR_FILL && !elementwise) return false;
    if (elementwise && emit_subtile_in_tree(E, val)) return false;   /* reads other elements, maybe of slot */
    if (!E->uses || E->uses[val->id] != 1 || E->val_depth[val->id] >= 0) return false;
    return val->pack == slot->pack && tk_type_equal(val->type, slot->type);
}

/* A load or fill whose only user is the next statement, a SET that can take
 * it in place (writes_into_slot): emitted there, into the variable. No
 * statement runs in between, so the source order is kept. */
static bool deferred_to_set(Emit *E, const TirInstr *val)
{
    const TirInstr *i = val->next;
    while (i && !tir_is_statement(i->op)) i = i->next;
    return i && i->op == TIR_SET && i->args[1] == val && writes_into_slot(E, i->args[0], val);
}

static void emit_stmt(Emit *E, const TirInstr *s)
{
    emit_lazy_zero_settle(E, s);   /* a lazily zero accumulator about to be read */
    if (!tir_is_statement(s->op)) {
        /* Values are computed where they stand, so that a helper's store
         * between two operands keeps the source's left-to-right order. A load
         * into a shared tile is left for its (once-per-block) assignment. */
        if (!(s->op == TIR_LOAD && tk_is_shared(s->type->kind)) && !deferred_to_set(E, s) && !emit_fused_into_user(E, s) &&
            !emit_is_dead_tile_value(E, s))   /* a let nobody reads costs nothing */
            emit_value(E, s);
        return;
    }
    LLVMMetadataRef old_loc = debug_at(E, s);
    LLVMBasicBlockRef join = NULL;
    if (E->f->warps > 1 && is_collective(s)) {
        LLVMBasicBlockRef once = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "collective");
        join = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "collective.end");
        LLVMBuildCondBr(E->b, LLVMBuildICmp(E->b, LLVMIntEQ, E->warp, emit_const_i32(E, 0), ""), once, join);
        LLVMPositionBuilderAtEnd(E->b, once);
        emit_scope_push(E);
    }
    switch (s->op) {
    case TIR_VAR: {
        if (emit_is_view(E, s)) {
            emit_view_declare(E, s, !set_before_read(s));
            break;
        }
        if (emit_is_outview(E, s)) {   /* C or a stack tile; its zero fill is left to the mmas */
            emit_outview_declare(E, s);
            break;
        }
        LLVMValueRef p = emit_slot_ptr(E, s);
        if (tk_is_scalar(s->type->kind)) LLVMBuildStore(E->b, LLVMConstNull(emit_scalar_type(E, s->type->kind)), p);
        else if (!set_before_read(s)) emit_tile_zero(E, p, s->type);
        break;
    }
    case TIR_SET: {
        const TirInstr *slot = s->args[0], *val = s->args[1];
        if (emit_is_view(E, slot)) {   /* emit_plan_views: val is a load from a packed tensor */
            emit_view_set(E, slot, val);
            break;
        }
        if (emit_set_is_zero_for_mma(E, s)) break;   /* zero fills the mma takes over (output views' among them) */
        LLVMValueRef p = emit_slot_ptr(E, slot), v;
        if (!tk_is_scalar(slot->type->kind) && writes_into_slot(E, slot, val)) {
            /* the load or fill writes straight into the variable: no temporary, no copy */
            LLVMValueRef saved = E->slots[val->id];
            E->slots[val->id] = p;
            v = emit_value(E, val);
            E->slots[val->id] = saved;
        } else {
            v = emit_value(E, val);
        }
        if (tk_is_scalar(slot->type->kind)) LLVMBuildStore(E->b, v, p);
        else if (v != p) emit_tile_copy(E, p, v, slot->type);
        break;
    }
    case TIR_SET_ELEM: emit_tile_set_elem(E, s); break;
    case TIR_SET_SLICE:
    case TIR_SET_LINE: emit_subtile_set(E, s); break;
    case TIR_STORE: emit_tile_store(E, s); break;
    case TIR_MMA: emit_tile_mma(E, s); break;
    case TIR_FOR: emit_for(E, s, false); break;
    case TIR_IF: emit_if(E, s, false); break;
    case TIR_SYNC: break;
    default: break;
    }
    if (join) {
        emit_scope_pop(E);
        LLVMBuildBr(E->b, join);
        LLVMPositionBuilderAtEnd(E->b, join);
    }
    debug_restore(E, old_loc);
}

/* A run of statements without barriers, once per warp. */
static void emit_segment(Emit *E, const TirInstr *first, const TirInstr *end)
{
    if (E->f->warps == 1) {
        E->warp = emit_const_i32(E, 0);
        emit_scope_push(E);
        for (const TirInstr *s = first; s != end; s = s->next) emit_stmt(E, s);
        emit_scope_pop(E);
        return;
    }
    EmitLoop L;
    emit_loop_begin(E, &L, emit_const_i64(E, E->f->warps), "warp");
    LLVMValueRef saved = E->warp;
    E->warp = LLVMBuildTrunc(E->b, L.idx, E->i32, "warp");
    emit_scope_push(E);
    for (const TirInstr *s = first; s != end; s = s->next) emit_stmt(E, s);
    emit_scope_pop(E);
    E->warp = saved;
    emit_loop_end(E, &L);
}

static void emit_region(Emit *E, const TirRegion *r)
{
    const TirInstr *i = r->first;
    while (i) {
        if (tir_is_barrier(i)) {
            /* once per block; bounds and conditions are uniform, read as warp 0 */
            LLVMValueRef saved = E->warp;
            E->warp = emit_const_i32(E, 0);
            emit_scope_push(E);
            if (i->op == TIR_FOR) emit_for(E, i, true);
            else if (i->op == TIR_IF) emit_if(E, i, true);
            emit_scope_pop(E);
            E->warp = saved;
            i = i->next;
            continue;
        }
        const TirInstr *end = i;
        bool has_stmt = false;
        while (end && !tir_is_barrier(end)) {
            if (tir_is_statement(end->op)) has_stmt = true;
            end = end->next;
        }
        if (has_stmt) emit_segment(E, i, end);
        i = end;
    }
}

/* ---------------------------------------------------------------- debug info */

static void debug_begin(Emit *E, LLVMModuleRef mod)
{
    const char *path = E->src->name;
    const char *slash = strrchr(path, '/');
    const char *file = slash ? slash + 1 : path;
    size_t dirlen = slash ? (size_t)(slash - path) : 1;
    const char *dir = slash ? path : ".";
    E->dib = LLVMCreateDIBuilder(mod);
    E->di_file = LLVMDIBuilderCreateFile(E->dib, file, strlen(file), dir, dirlen);
    E->di_unit = LLVMDIBuilderCreateCompileUnit(E->dib, LLVMDWARFSourceLanguageC, E->di_file, "tkc (TileKit)", 13, 1, "", 0, 0,
                                                "", 0, LLVMDWARFEmissionLineTablesOnly, 0, 0, 0, "", 0, "", 0);
    LLVMAddModuleFlag(mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(E->ctx), 3, 0)));
    LLVMAddModuleFlag(mod, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(E->ctx), 5, 0)));
}

static void debug_function(Emit *E, const char *name, TkSpan loc)
{
    if (!E->dib) return;
    uint32_t line, col;
    tk_source_position(E->src, loc.begin, &line, &col);
    LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(E->dib, E->di_file, NULL, 0, LLVMDIFlagZero);
    E->di_sub = LLVMDIBuilderCreateFunction(E->dib, E->di_file, name, strlen(name), name, strlen(name), E->di_file, line, ty, 0, 1,
                                            line, LLVMDIFlagZero, 1);
    LLVMSetSubprogram(E->fn, E->di_sub);
}

/* Instructions built from now on belong to `i`'s .tk line; returns the previous location. */
static LLVMMetadataRef debug_at(Emit *E, const TirInstr *i)
{
    if (!E->dib || !E->di_sub) return NULL;
    LLVMMetadataRef old = LLVMGetCurrentDebugLocation2(E->b);
    if (i->loc.end > 0) {
        uint32_t line, col;
        tk_source_position(E->src, i->loc.begin, &line, &col);
        LLVMSetCurrentDebugLocation2(E->b, LLVMDIBuilderCreateDebugLocation(E->ctx, line, col, E->di_sub, NULL));
    }
    return old;
}

static void debug_restore(Emit *E, LLVMMetadataRef old)
{
    if (E->dib && E->di_sub) LLVMSetCurrentDebugLocation2(E->b, old);
}

/* ---------------------------------------------------------------- functions */

static void number(const TirRegion *r, uint32_t *next)
{
    for (TirInstr *i = r->first; i; i = i->next) {
        if (i->iv) i->iv->id = (*next)++;
        i->id = (*next)++;
        number(&i->body[0], next);
        number(&i->body[1], next);
    }
}

static LLVMValueRef add_function(Emit *E, const char *name, LLVMTypeRef fty)
{
    LLVMValueRef fn = LLVMAddFunction(E->mod, name, fty);
    LLVMSetLinkage(fn, LLVMExternalLinkage);
    if (E->features && strstr(E->features, "+avx512f")) {
        /* LLVM tunes Intel's AVX-512 cores to vectorise loops 256 bits wide
         * (prefer-256-bit, for the clock drop of 512-bit code in mixed
         * programs); a kernel is all vector work on whole tiles, where 512-bit
         * loops halve the instructions of every element-wise loop */
        static const char key[] = "prefer-vector-width", value[] = "512";
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                   LLVMCreateStringAttribute(E->ctx, key, sizeof key - 1, value, sizeof value - 1));
    }
    return fn;
}

/* Starts the body of fn (made by add_function). */
static LLVMValueRef begin_function(Emit *E, LLVMValueRef fn)
{
    E->fn = fn;
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(E->ctx, fn, "entry");
    LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(E->ctx, fn, "start");
    LLVMPositionBuilderAtEnd(E->alloca_b, entry);
    LLVMPositionBuilderAtEnd(E->b, start);
    return fn;
}

static void end_function(Emit *E)
{
    if (E->di_sub) LLVMSetCurrentDebugLocation2(E->b, NULL);
    LLVMBuildRetVoid(E->b);
    /* the entry block holds the stack buffers, then falls into the code */
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(E->fn);
    LLVMPositionBuilderAtEnd(E->alloca_b, entry);
    LLVMBuildBr(E->alloca_b, LLVMGetNextBasicBlock(entry));
}

static void reset_values(Emit *E)
{
    for (uint32_t k = 0; k < E->count; k++) E->val_depth[k] = -1;
    memset(E->slots, 0, sizeof *E->slots * E->count);
    E->set_top = 0;
    E->depth = 0;
}

/* uses[id]: how many operands refer to instruction id, in r and its nested regions. */
static void count_uses(const TirRegion *r, uint32_t *uses, const TirInstr **user)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        for (unsigned a = 0; a < i->nargs; a++)
            if (i->args[a]) {
                uses[i->args[a]->id]++;
                user[i->args[a]->id] = i;
            }
        if (i->op == TIR_FOR || i->op == TIR_IF) {
            count_uses(&i->body[0], uses, user);
            count_uses(&i->body[1], uses, user);
        }
    }
}

static int emit_kernel(Emit *E, const TirFunc *f)
{
    E->f = f;
    uint32_t n = 0;
    number(&f->grid_region, &n);
    number(&f->body, &n);
    E->count = n;
    E->vals = calloc(n ? n : 1, sizeof *E->vals);
    E->val_depth = calloc(n ? n : 1, sizeof *E->val_depth);
    E->slots = calloc(n ? n : 1, sizeof *E->slots);
    E->uses = calloc(n ? n : 1, sizeof *E->uses);
    E->user = calloc(n ? n : 1, sizeof *E->user);
    if (!E->vals || !E->val_depth || !E->slots || !E->uses || !E->user) {
        snprintf(E->err, sizeof E->err, "out of memory");
        return -1;
    }
    char name[512];

    /* void NAME__grid(void **args, const int64_t *sizes, int64_t grid[4]): the block
     * counts, then the stack one block needs, so a launcher can run blocks on a
     * thread whose stack is smaller than a worker's. Declared first (it comes
     * first in the module), filled in once the block function is emitted. */
    LLVMTypeRef gp[3] = { E->ptr, E->ptr, E->ptr };
    snprintf(name, sizeof name, "%s__grid", f->name);
    LLVMValueRef grid_fn = add_function(E, name, LLVMFunctionType(E->vd, gp, 3, 0));

    /* void NAME__block(void **args, const int64_t *sizes, i32 bx, i32 by, i32 bz) */
    E->stack_bytes = 0;
    LLVMTypeRef bp[5] = { E->ptr, E->ptr, E->i32, E->i32, E->i32 };
    snprintf(name, sizeof name, "%s__block", f->name);
    begin_function(E, add_function(E, name, LLVMFunctionType(E->vd, bp, 5, 0)));
    /* args and sizes are the launcher's own arrays, never a tensor: noalias
     * lets LLVM keep a tensor's extents in registers across the kernel's stores
     * (every bounds check reloaded them after each store to Y) */
    static const char noalias[] = "noalias";
    for (unsigned k = 1; k <= 2; k++)
        LLVMAddAttributeAtIndex(E->fn, k, LLVMCreateEnumAttribute(E->ctx, LLVMGetEnumAttributeKindForName(noalias, sizeof noalias - 1), 0));
    debug_function(E, name, f->loc);
    E->args = LLVMGetParam(E->fn, 0);
    E->sizes = LLVMGetParam(E->fn, 1);
    for (int k = 0; k < 3; k++) E->bid[k] = LLVMGetParam(E->fn, 2 + k);
    E->warp = emit_const_i32(E, 0);
    reset_values(E);
    count_uses(&f->body, E->uses, E->user);
    if (emit_plan_views(E, &f->body) != 0 || emit_plan_lazy_zero(E, &f->body) != 0 || emit_plan_outviews(E, &f->body) != 0 ||
        emit_plan_coalesce(E, &f->body) != 0 || emit_plan_streams(E, &f->body) != 0) {
        snprintf(E->err, sizeof E->err, "out of memory");
        emit_free_streams(E);
        emit_free_views(E);
        emit_free_outviews(E);
        emit_free_lazy_zero(E);
        emit_free_coalesce(E);
        return -1;
    }
    E->shared_arena = f->shared_bytes > 0 ? emit_alloca(E, E->i8, f->shared_bytes, "shared") : NULL;
    /* function-level values first, so they dominate every use */
    for (const TirInstr *i = f->body.first; i; i = i->next)
        if (i->op == TIR_PARAM || i->op == TIR_SIZE || i->op == TIR_BLOCK_ID) emit_value(E, i);
    emit_region(E, &f->body);
    emit_stream_fence(E);
    end_function(E);
    if (E->stack_bytes > TK_CPU_STACK_LIMIT && !E->failed) {
        E->failed = true;
        snprintf(E->err, sizeof E->err,
                 "kernel %s needs %.1f MiB of stack for its tiles (× %lld warps); the CPU backend allows %d MiB: use smaller tiles or fewer warps",
                 f->name, (double)E->stack_bytes / (1 << 20), (long long)f->warps, TK_CPU_STACK_LIMIT >> 20);
    }
    unsigned long long block_stack = E->stack_bytes;

    snprintf(name, sizeof name, "%s__grid", f->name);
    begin_function(E, grid_fn);
    debug_function(E, name, f->loc);
    E->args = LLVMGetParam(E->fn, 0);
    E->sizes = LLVMGetParam(E->fn, 1);
    LLVMValueRef out = LLVMGetParam(E->fn, 2);
    E->warp = emit_const_i32(E, 0);
    E->bid[0] = E->bid[1] = E->bid[2] = emit_const_i32(E, 0);
    reset_values(E);
    for (const TirInstr *i = f->grid_region.first; i; i = i->next)
        if (i->op == TIR_PARAM || i->op == TIR_SIZE) emit_value(E, i);
    for (unsigned k = 0; k < 3; k++) {
        LLVMValueRef v = k < f->grid_rank ? emit_value(E, f->grid[k]) : emit_const_i64(E, 1);
        if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) < 64) v = LLVMBuildSExt(E->b, v, E->i64, "");
        LLVMValueRef idx = emit_const_i64(E, k);
        LLVMBuildStore(E->b, v, LLVMBuildGEP2(E->b, E->i64, out, &idx, 1, ""));
    }
    LLVMValueRef stack_idx = emit_const_i64(E, 3);
    LLVMBuildStore(E->b, emit_const_i64(E, (int64_t)(block_stack + TK_CPU_FRAME_SLACK)),
                   LLVMBuildGEP2(E->b, E->i64, out, &stack_idx, 1, ""));
    end_function(E);

    emit_free_views(E);
    emit_free_streams(E);
    emit_free_outviews(E);
    emit_free_lazy_zero(E);
    emit_free_coalesce(E);
    emit_free_fusion(E);
    free(E->vals);
    free(E->val_depth);
    free(E->slots);
    free(E->uses);
    free(E->user);
    E->uses = NULL;
    E->user = NULL;
    E->vals = NULL;
    E->val_depth = NULL;
    E->slots = NULL;
    return E->failed ? -1 : 0;
}

int tk_emit_llvm(const TirModule *m, LLVMContextRef ctx, LLVMModuleRef mod, const TkEmitOptions *opts, char *err, size_t errlen)
{
    Emit E;
    memset(&E, 0, sizeof E);
    E.features = opts ? opts->features : NULL;
    E.src = m->src;
    E.ctx = ctx;
    E.mod = mod;
    E.b = LLVMCreateBuilderInContext(ctx);
    E.alloca_b = LLVMCreateBuilderInContext(ctx);
    E.i1 = LLVMInt1TypeInContext(ctx);
    E.i8 = LLVMInt8TypeInContext(ctx);
    E.i16 = LLVMInt16TypeInContext(ctx);
    E.i32 = LLVMInt32TypeInContext(ctx);
    E.i64 = LLVMInt64TypeInContext(ctx);
    E.f32 = LLVMFloatTypeInContext(ctx);
    E.f16 = LLVMHalfTypeInContext(ctx);
    E.bf16 = LLVMBFloatTypeInContext(ctx);
    E.ptr = LLVMPointerTypeInContext(ctx, 0);
    E.vd = LLVMVoidTypeInContext(ctx);
    if (opts && opts->debug_info && m->src) debug_begin(&E, mod);
    int rc = 0;
    for (const TirFunc *f = m->funcs; f && rc == 0; f = f->next) rc = emit_kernel(&E, f);
    if (E.dib) {
        LLVMDIBuilderFinalize(E.dib);
        LLVMDisposeDIBuilder(E.dib);
    }
    if (rc != 0) snprintf(err, errlen, "%s", E.err[0] ? E.err : "code generation failed");
    free(E.set_stack);
    emit_free_fusion(&E);   /* a kernel that failed half-way leaves them */
    free(E.vals);
    free(E.val_depth);
    free(E.slots);
    LLVMDisposeBuilder(E.b);
    LLVMDisposeBuilder(E.alloca_b);
    return rc;
}
