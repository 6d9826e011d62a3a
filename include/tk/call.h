/* tk/call.h — a user's own .tk kernel called on tensors. Compile once with
 * tk_compile_file/tk_compile_source (tk/compiler.h), look the kernel up with
 * tk_program_kernel, then call it as often as you like:
 *
 *   tk_kernel *k = tk_program_kernel(prog, "scale");
 *   tk_call_arg args[] = { TK_CALL_TENSOR(x), TK_CALL_TENSOR(y), TK_CALL_F32(0.5f) };
 *   if (tk_call(ctx, k, args, 3) != TK_OK) puts(tk_last_error(ctx));
 *
 * Tensors bind by position to the kernel's gl parameters: the rank and dtype
 * must match, and the sizes (M, K, ...) are taken from the shapes (a size
 * used twice must agree). A tensor that is not contiguous is copied to a
 * contiguous one for the call and copied back afterwards (unless it is
 * read-only caller memory or has broadcast dims, which the kernel may only
 * read). Scalars bind to scalar parameters of the same type. The kernel runs
 * on the context's threads. Ownership and errors as in tk/tensor.h. */
#ifndef TK_CALL_H
#define TK_CALL_H

#include "tk/compiler.h"
#include "tk/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TK_CALL_ARG_TENSOR, TK_CALL_ARG_F32, TK_CALL_ARG_I32, TK_CALL_ARG_I64, TK_CALL_ARG_BOOL } tk_call_arg_kind;

typedef struct {
    tk_call_arg_kind kind;
    tk_tensor *tensor;
    double f;
    int64_t i;
} tk_call_arg;

#define TK_CALL_TENSOR(t) ((tk_call_arg){ .kind = TK_CALL_ARG_TENSOR, .tensor = (t) })
#define TK_CALL_F32(v) ((tk_call_arg){ .kind = TK_CALL_ARG_F32, .f = (v) })
#define TK_CALL_I32(v) ((tk_call_arg){ .kind = TK_CALL_ARG_I32, .i = (v) })
#define TK_CALL_I64(v) ((tk_call_arg){ .kind = TK_CALL_ARG_I64, .i = (v) })
#define TK_CALL_BOOL(v) ((tk_call_arg){ .kind = TK_CALL_ARG_BOOL, .i = (v) })

tk_status tk_call(tk_context *ctx, tk_kernel *kernel, const tk_call_arg *args, unsigned nargs);

#ifdef __cplusplus
}
#endif

#endif
