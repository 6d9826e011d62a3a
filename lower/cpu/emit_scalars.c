/* emit_scalars.c — scalar code: float constants, f16/bf16 conversions (RNE,
 * no libcalls), the math functions and binary operators on scalars, cdiv. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "emit.h"
#include "emit_math.h"

/* A float constant of kind k (bf16: its bit pattern, rounded to nearest even here). */
LLVMValueRef emit_const_float(Emit *E, TkTypeKind k, double value)
{
    if (k != TK_TY_BF16) return LLVMConstReal(emit_scalar_type(E, k), value);
    float f = (float)value;
    uint32_t u;
    memcpy(&u, &f, 4);
    uint16_t bits = (u & 0x7fffffffu) > 0x7f800000u ? (uint16_t)((u >> 16) | 0x40) : (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    return LLVMConstInt(E->i16, bits, 0);
}

/* The scalar type `scalar`, or a vector of it as long as v (element loops in lanes). */
LLVMTypeRef emit_type_like(LLVMValueRef v, LLVMTypeRef scalar)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMVectorType(scalar, LLVMGetVectorSize(t)) : scalar;
}

/* An integer constant of v's shape (a splat for a vector: LLVMConstInt takes
 * integer types only). */
LLVMValueRef emit_const_splat(LLVMValueRef c, unsigned n)
{
    LLVMValueRef small[64], *elems = n <= 64 ? small : malloc(sizeof *elems * n);
    if (!elems) return LLVMGetPoison(LLVMVectorType(LLVMTypeOf(c), n));   /* out of memory: the module will not verify */
    for (unsigned i = 0; i < n; i++) elems[i] = c;
    LLVMValueRef v = LLVMConstVector(elems, n);
    if (elems != small) free(elems);
    return v;
}

static LLVMValueRef int_like(LLVMValueRef v, LLVMTypeRef scalar, unsigned long long k)
{
    LLVMValueRef c = LLVMConstInt(scalar, k, 0);
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return c;
    return emit_const_splat(c, LLVMGetVectorSize(t));   /* any width: a GPU fragment vector may hold hundreds */
}

/* f16/bf16 value → f32 (bf16 is carried as its i16 bit pattern: widen by a
 * shift); scalars or vectors. */
LLVMValueRef emit_to_f32(Emit *E, LLVMValueRef v, TkTypeKind from)
{
    if (from == TK_TY_F32 || from == TK_TY_UFLOAT) return v;
    if (from == TK_TY_BF16) {
        LLVMValueRef wide = LLVMBuildShl(E->b, LLVMBuildZExt(E->b, v, emit_type_like(v, E->i32), ""), int_like(v, E->i32, 16), "");
        return LLVMBuildBitCast(E->b, wide, emit_type_like(v, E->f32), "");
    }
    return LLVMBuildFPExt(E->b, v, emit_type_like(v, E->f32), "");
}

/* f32 → f16/bf16, rounding to nearest even. bf16 is rounded with integer ops
 * on every target: LLVM turns an fptrunc to bfloat into a libcall
 * (__truncsfbf2, missing from Debian 12's libgcc) without hardware support,
 * and the hardware instruction (vcvtneps2bf16) flushes subnormals to zero. */
LLVMValueRef emit_fptrunc(Emit *E, LLVMValueRef v, LLVMTypeRef to)
{
    /* `to` is the element type; a vector v gives a vector of it */
    if (to != E->i16) return LLVMBuildFPTrunc(E->b, v, emit_type_like(v, to), "");
    LLVMValueRef bits = LLVMBuildBitCast(E->b, v, emit_type_like(v, E->i32), "");
    LLVMValueRef one = int_like(v, E->i32, 1), bias = int_like(v, E->i32, 0x7fff), sixteen = int_like(v, E->i32, 16);
    LLVMValueRef quiet = int_like(v, E->i32, 0x00400000);
    LLVMValueRef lsb = LLVMBuildAnd(E->b, LLVMBuildLShr(E->b, bits, sixteen, ""), one, "");
    LLVMValueRef rounded = LLVMBuildAdd(E->b, bits, LLVMBuildAdd(E->b, bias, lsb, ""), "");
    /* NaN stays a (quiet) NaN instead of rounding into infinity */
    LLVMValueRef is_nan = LLVMBuildFCmp(E->b, LLVMRealUNO, v, v, "");
    LLVMValueRef chosen = LLVMBuildSelect(E->b, is_nan, LLVMBuildOr(E->b, bits, quiet, ""), rounded, "");
    return LLVMBuildTrunc(E->b, LLVMBuildLShr(E->b, chosen, sixteen, ""), emit_type_like(v, E->i16), "");
}

bool emit_is_float_kind(TkTypeKind k) { return k == TK_TY_F32 || k == TK_TY_F16 || k == TK_TY_BF16 || k == TK_TY_UFLOAT; }

LLVMValueRef emit_convert_scalar(Emit *E, LLVMValueRef v, TkTypeKind from, TkTypeKind to)
{
    if (from == to) return v;
    LLVMTypeRef tt = emit_scalar_type(E, to);
    bool ff = emit_is_float_kind(from), tf = emit_is_float_kind(to);
    if (ff && tf) {
        /* via f32: LLVM's fptrunc rounds to nearest even */
        if (from != TK_TY_F32) v = emit_to_f32(E, v, from);
        return to == TK_TY_F32 ? v : emit_fptrunc(E, v, tt);
    }
    if (!ff && !tf) {
        if (from == TK_TY_BOOL) return LLVMBuildZExt(E->b, v, tt, "");
        if (to == TK_TY_BOOL) return LLVMBuildICmp(E->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
        return LLVMGetIntTypeWidth(LLVMTypeOf(v)) < LLVMGetIntTypeWidth(tt) ? LLVMBuildSExt(E->b, v, tt, "")
                                                                            : LLVMBuildTrunc(E->b, v, tt, "");
    }
    if (!ff && tf) {
        LLVMValueRef x = LLVMBuildSIToFP(E->b, v, E->f32, "");
        return to == TK_TY_F32 ? x : emit_fptrunc(E, x, tt);
    }
    /* float → int: saturating, NaN → 0 (never undefined) */
    if (from != TK_TY_F32) v = emit_to_f32(E, v, from);
    LLVMTypeRef ov[2] = { tt, E->f32 };
    return emit_intrinsic(E, "llvm.fptosi.sat", ov, 2, &v, 1);
}

/* Integer division that never traps (x86 traps on /0 and INT_MIN/-1): /0 gives 0. */
static LLVMValueRef safe_div(Emit *E, LLVMValueRef a, LLVMValueRef b, bool rem)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(t), one = LLVMConstInt(t, 1, 0), minus1 = LLVMConstAllOnes(t);
    LLVMValueRef is0 = LLVMBuildICmp(E->b, LLVMIntEQ, b, zero, "");
    LLVMValueRef ism1 = LLVMBuildICmp(E->b, LLVMIntEQ, b, minus1, "");
    LLVMValueRef safe = LLVMBuildSelect(E->b, LLVMBuildOr(E->b, is0, ism1, ""), one, b, "");
    LLVMValueRef q = rem ? LLVMBuildSRem(E->b, a, safe, "") : LLVMBuildSDiv(E->b, a, safe, "");
    LLVMValueRef m1 = rem ? zero : LLVMBuildSub(E->b, zero, a, "");   /* a / -1 = -a (wrapping) */
    q = LLVMBuildSelect(E->b, ism1, m1, q, "");
    return LLVMBuildSelect(E->b, is0, zero, q, "");
}

LLVMValueRef emit_fn(Emit *E, TirFn fn, LLVMValueRef x, LLVMValueRef y, bool is_int)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    if (is_int) {
        switch (fn) {
        case TIR_FN_ADD: return LLVMBuildAdd(E->b, x, y, "");
        case TIR_FN_SUB: return LLVMBuildSub(E->b, x, y, "");
        case TIR_FN_MUL: return LLVMBuildMul(E->b, x, y, "");
        case TIR_FN_DIV: return safe_div(E, x, y, false);
        case TIR_FN_MAX: return LLVMBuildSelect(E->b, LLVMBuildICmp(E->b, LLVMIntSGT, x, y, ""), x, y, "");
        case TIR_FN_MIN: return LLVMBuildSelect(E->b, LLVMBuildICmp(E->b, LLVMIntSLT, x, y, ""), x, y, "");
        case TIR_FN_NEG: return LLVMBuildNeg(E->b, x, "");
        case TIR_FN_ABS: {
            LLVMValueRef args[2] = { x, LLVMConstInt(E->i1, 0, 0) };
            return emit_intrinsic(E, "llvm.abs", &t, 1, args, 2);
        }
        default: return x;
        }
    }
    switch (fn) {   /* masks: bool elements (i1) */
    case TIR_FN_AND: return LLVMBuildAnd(E->b, x, y, "");
    case TIR_FN_OR: return LLVMBuildOr(E->b, x, y, "");
    case TIR_FN_NOT: return LLVMBuildNot(E->b, x, "");
    case TIR_FN_LT: return LLVMBuildFCmp(E->b, LLVMRealOLT, x, y, "");
    case TIR_FN_LE: return LLVMBuildFCmp(E->b, LLVMRealOLE, x, y, "");
    case TIR_FN_GT: return LLVMBuildFCmp(E->b, LLVMRealOGT, x, y, "");
    case TIR_FN_GE: return LLVMBuildFCmp(E->b, LLVMRealOGE, x, y, "");
    case TIR_FN_EQ: return LLVMBuildFCmp(E->b, LLVMRealOEQ, x, y, "");
    case TIR_FN_NE: return LLVMBuildFCmp(E->b, LLVMRealUNE, x, y, "");   /* IEEE: NaN != anything */
    default: break;
    }
    LLVMValueRef one = LLVMConstReal(t, 1.0), zero = LLVMConstReal(t, 0.0);
    switch (fn) {
    case TIR_FN_NEG: return LLVMBuildFNeg(E->b, x, "");
    case TIR_FN_ABS: return emit_intrinsic(E, "llvm.fabs", &t, 1, &x, 1);
    case TIR_FN_EXP: return emit_exp_f32(E, x);
    case TIR_FN_EXP2: return emit_exp2_f32(E, x);
    case TIR_FN_LOG: return emit_log_f32(E, x);
    case TIR_FN_ERF: return emit_erf_f32(E, x);
    case TIR_FN_GELU_ERF: return emit_gelu_erf_f32(E, x);
    case TIR_FN_SQRT: return emit_intrinsic(E, "llvm.sqrt", &t, 1, &x, 1);
    case TIR_FN_RSQRT: return LLVMBuildFDiv(E->b, one, emit_intrinsic(E, "llvm.sqrt", &t, 1, &x, 1), "");
    case TIR_FN_TANH: return emit_tanh_f32(E, x);
    case TIR_FN_SIGMOID: return emit_sigmoid_f32(E, x);
    case TIR_FN_RELU: {
        LLVMValueRef args[2] = { x, zero };
        return emit_intrinsic(E, "llvm.maxnum", &t, 1, args, 2);
    }
    case TIR_FN_GELU: {
        /* x/2 · (1 + tanh(√(2/π) · (x + 0.044715 x³))) */
        LLVMValueRef x3 = LLVMBuildFMul(E->b, LLVMBuildFMul(E->b, x, x, ""), x, "");
        LLVMValueRef inner = LLVMBuildFAdd(E->b, x, LLVMBuildFMul(E->b, LLVMConstReal(t, 0.044715), x3, ""), "");
        inner = LLVMBuildFMul(E->b, LLVMConstReal(t, 0.7978845608028654), inner, "");
        LLVMValueRef th = emit_tanh_f32(E, inner);
        LLVMValueRef half_x = LLVMBuildFMul(E->b, LLVMConstReal(t, 0.5), x, "");
        return LLVMBuildFMul(E->b, half_x, LLVMBuildFAdd(E->b, one, th, ""), "");
    }
    case TIR_FN_SILU: return LLVMBuildFMul(E->b, x, emit_sigmoid_f32(E, x), "");
    case TIR_FN_ADD: return LLVMBuildFAdd(E->b, x, y, "");
    case TIR_FN_SUB: return LLVMBuildFSub(E->b, x, y, "");
    case TIR_FN_MUL: return LLVMBuildFMul(E->b, x, y, "");
    case TIR_FN_DIV: return LLVMBuildFDiv(E->b, x, y, "");
    case TIR_FN_MAX: {
        LLVMValueRef args[2] = { x, y };
        return emit_intrinsic(E, "llvm.maxnum", &t, 1, args, 2);
    }
    case TIR_FN_MIN: {
        LLVMValueRef args[2] = { x, y };
        return emit_intrinsic(E, "llvm.minnum", &t, 1, args, 2);
    }
    default: return x;
    }
}

LLVMValueRef emit_fma(Emit *E, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef args[3] = { x, y, z };
    return emit_intrinsic(E, "llvm.fma", &t, 1, args, 3);
}

LLVMValueRef emit_scalar_map(Emit *E, const TirInstr *i, const LLVMValueRef *opnds)
{
    TkTypeKind k = i->type->kind;
    if (i->op == TIR_MAP3 && i->aux == TIR_FN_SELECT) return LLVMBuildSelect(E->b, opnds[0], opnds[1], opnds[2], "");   /* operands have the result's type */
    bool is_int = !emit_is_float_kind(k);
    bool narrow = !is_int && k != TK_TY_F32 && k != TK_TY_UFLOAT;   /* bf16/f16: in f32, rounded once */
    LLVMValueRef x[3] = { NULL, NULL, NULL };
    for (unsigned a = 0; a < i->nargs && a < 3; a++) x[a] = narrow ? emit_to_f32(E, opnds[a], k) : opnds[a];
    LLVMValueRef v = i->op == TIR_MAP3 ? emit_fma(E, x[0], x[1], x[2]) : emit_fn(E, (TirFn)i->aux, x[0], x[1], is_int);
    return narrow ? emit_fptrunc(E, v, emit_scalar_type(E, k)) : v;
}

LLVMValueRef emit_scalar_binary(Emit *E, const TirInstr *i)
{
    LLVMValueRef x = emit_value(E, i->args[0]), y = emit_value(E, i->args[1]);
    return emit_scalar_binop(E, (TkOp)i->aux, i->args[0]->type->kind, x, y);
}

LLVMValueRef emit_scalar_binop(Emit *E, TkOp op, TkTypeKind k, LLVMValueRef x, LLVMValueRef y)
{
    if (k == TK_TY_BOOL) {
        switch (op) {
        case TK_OP_AND: return LLVMBuildAnd(E->b, x, y, "");
        case TK_OP_OR: return LLVMBuildOr(E->b, x, y, "");
        case TK_OP_EQ: return LLVMBuildICmp(E->b, LLVMIntEQ, x, y, "");
        default: return LLVMBuildICmp(E->b, LLVMIntNE, x, y, "");
        }
    }
    if (emit_is_float_kind(k)) {
        bool narrow = k != TK_TY_F32 && k != TK_TY_UFLOAT;
        if (narrow) {   /* bf16 and f16 compute in f32 and round once */
            x = emit_to_f32(E, x, k);
            y = emit_to_f32(E, y, k);
        }
        LLVMRealPredicate p;
        switch (op) {
        case TK_OP_LT: p = LLVMRealOLT; break;
        case TK_OP_LE: p = LLVMRealOLE; break;
        case TK_OP_GT: p = LLVMRealOGT; break;
        case TK_OP_GE: p = LLVMRealOGE; break;
        case TK_OP_EQ: p = LLVMRealOEQ; break;
        case TK_OP_NE: p = LLVMRealUNE; break;
        default: {
            TirFn fn = op == TK_OP_ADD ? TIR_FN_ADD : op == TK_OP_SUB ? TIR_FN_SUB : op == TK_OP_MUL ? TIR_FN_MUL : TIR_FN_DIV;
            LLVMValueRef r = emit_fn(E, fn, x, y, false);
            return narrow ? emit_fptrunc(E, r, emit_scalar_type(E, k)) : r;
        }
        }
        return LLVMBuildFCmp(E->b, p, x, y, "");
    }
    switch (op) {
    case TK_OP_ADD: return LLVMBuildAdd(E->b, x, y, "");
    case TK_OP_SUB: return LLVMBuildSub(E->b, x, y, "");
    case TK_OP_MUL: return LLVMBuildMul(E->b, x, y, "");
    case TK_OP_DIV: return safe_div(E, x, y, false);
    case TK_OP_MOD: return safe_div(E, x, y, true);
    case TK_OP_LT: return LLVMBuildICmp(E->b, LLVMIntSLT, x, y, "");
    case TK_OP_LE: return LLVMBuildICmp(E->b, LLVMIntSLE, x, y, "");
    case TK_OP_GT: return LLVMBuildICmp(E->b, LLVMIntSGT, x, y, "");
    case TK_OP_GE: return LLVMBuildICmp(E->b, LLVMIntSGE, x, y, "");
    case TK_OP_EQ: return LLVMBuildICmp(E->b, LLVMIntEQ, x, y, "");
    case TK_OP_NE: return LLVMBuildICmp(E->b, LLVMIntNE, x, y, "");
    default: return x;
    }
}

/* ! and unary - on a scalar of kind k. A bf16 is carried as its bit pattern
 * (i16): negating it flips the sign bit, as fneg does for the other floats. */
LLVMValueRef emit_scalar_unop(Emit *E, TkOp op, TkTypeKind k, LLVMValueRef x)
{
    if (op == TK_OP_NOT) return LLVMBuildNot(E->b, x, "");
    if (k == TK_TY_BF16) return LLVMBuildXor(E->b, x, LLVMConstInt(E->i16, 0x8000, 0), "");
    if (emit_is_float_kind(k)) return LLVMBuildFNeg(E->b, x, "");
    return LLVMBuildNeg(E->b, x, "");
}

/* ceil(a / b) for b > 0, 0 otherwise. */
LLVMValueRef emit_scalar_cdiv(Emit *E, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(t), one = LLVMConstInt(t, 1, 0);
    LLVMValueRef pos = LLVMBuildICmp(E->b, LLVMIntSGT, b, zero, "");
    LLVMValueRef sb = LLVMBuildSelect(E->b, pos, b, one, "");
    LLVMValueRef q = LLVMBuildSDiv(E->b, a, sb, "");
    LLVMValueRef r = LLVMBuildSRem(E->b, a, sb, "");
    LLVMValueRef up = LLVMBuildAnd(E->b, LLVMBuildICmp(E->b, LLVMIntNE, r, zero, ""), LLVMBuildICmp(E->b, LLVMIntSGT, a, zero, ""), "");
    q = LLVMBuildAdd(E->b, q, LLVMBuildZExt(E->b, up, t, ""), "");
    return LLVMBuildSelect(E->b, pos, q, zero, "");
}
