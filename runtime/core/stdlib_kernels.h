/* stdlib_kernels.h — the stdlib .tk kernels as the ops call them. Each
 * stdlib file is compiled once per process on first use (through the disk
 * cache, so a later process skips LLVM) from the sources embedded in libtk;
 * kernels and instances ("gemm_f32<256,128,256>") are looked up once and
 * remembered. Launches go through the device and are profiled. */
#ifndef TK_RUNTIME_CORE_STDLIB_KERNELS_H
#define TK_RUNTIME_CORE_STDLIB_KERNELS_H

#include "tk/compiler.h"
#include "tk/tensor.h"

/* Kernel `name` of stdlib file `file` ("gemm.tk"); an error on ctx if the
 * file does not compile here or has no such kernel. Thread-safe. */
tk_status tkr_stdlib_kernel(tk_context *ctx, const char *file, const char *name, tk_kernel **out);
/* Runs k on ctx's threads; `label` names it in the profile (NULL: the kernel's name). */
tk_status tkr_launch(tk_context *ctx, tk_kernel *k, const char *label, const tk_arg *args, unsigned nargs);
void tkr_stdlib_free(tk_context *ctx);

#endif
