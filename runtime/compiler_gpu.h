/* compiler_gpu.h — internal to libtk: what the runtime's GPU devices need of
 * a compiled program beyond tk/compiler.h. A program compiled for a GPU
 * target (sm_80-emu, sm_80, sm_90, sm_90a) holds each kernel's code on its
 * own: the emulator's host code (launched like a CPU kernel, on host memory)
 * or PTX text, which the CUDA device loads into the driver once per kernel. */
#ifndef TK_RUNTIME_COMPILER_GPU_H
#define TK_RUNTIME_COMPILER_GPU_H

#include <stdint.h>

#include "target.h"
#include "tir.h"
#include "tk/compiler.h"

/* tk_compile_source for a GPU target whose kernels are compiled at their
 * first use (launch or tkr_kernel_ptx), not all at once: the stdlib's files
 * hold dozens of kernels and an op needs one or two. */
tk_status tkr_compile_gpu_lazy(const char *name, const char *text, size_t len, const char *target, tk_program **out,
                               char **diagnostics);

/* Compiles a lazy program's kernel now (a no-op once done): the stdlib does
 * it under its lock, so that two threads' first launches never race. */
tk_status tkr_kernel_compile(tk_kernel *k);

const TirFunc *tkr_kernel_tir(const tk_kernel *k);
/* The target the kernel was compiled for (NULL: the host) and its kind. */
const char *tkr_kernel_target(const tk_kernel *k);
TkTargetKind tkr_kernel_target_kind(const tk_kernel *k);

/* The PTX of an NVPTX kernel (compiled now if it was not yet; kept by the
 * program) and a number unique to that code in this process, for the
 * driver's module cache. TK_ERR_TARGET with the program's message otherwise. */
tk_status tkr_kernel_ptx(tk_kernel *k, const char **ptx, uint64_t *serial);

#endif
