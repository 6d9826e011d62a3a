/* emit_math.h — vectorisable f32 exp, exp2, log, tanh, sigmoid, erf and gelu_erf (emit_math.c). Each
 * takes an f32 scalar or vector value and returns one of the same type. */
#ifndef TK_LOWER_EMIT_MATH_H
#define TK_LOWER_EMIT_MATH_H

#include "emit.h"

LLVMValueRef emit_exp_f32(Emit *E, LLVMValueRef x);
LLVMValueRef emit_exp2_f32(Emit *E, LLVMValueRef x);
LLVMValueRef emit_tanh_f32(Emit *E, LLVMValueRef x);
LLVMValueRef emit_sigmoid_f32(Emit *E, LLVMValueRef x);
LLVMValueRef emit_log_f32(Emit *E, LLVMValueRef x);
LLVMValueRef emit_erf_f32(Emit *E, LLVMValueRef x);
LLVMValueRef emit_gelu_erf_f32(Emit *E, LLVMValueRef x);

#endif
