/* tk/io.h — tensors to and from files. Ownership and errors as in tk/tensor.h.
 *
 * .npy: every runtime dtype; bf16 is written as <u2 (its bit patterns, as
 * NumPy has no bf16) and a <u2 file is read as bf16. Format versions 1.0-3.0,
 * C order, little-endian. */
#ifndef TK_IO_H
#define TK_IO_H

#include "tk/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

tk_status tk_load_npy(tk_context *ctx, const char *path, tk_tensor **out);
tk_status tk_save_npy(tk_context *ctx, const tk_tensor *t, const char *path);

#ifdef __cplusplus
}
#endif

#endif
