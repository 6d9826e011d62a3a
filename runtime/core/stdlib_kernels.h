/* stdlib_kernels.h — the stdlib .tk kernels as the ops call them. Their code
 * is compiled into libtk at build time for every CPU level (stdlib_aot.h):
 * on first use a stdlib file is only parsed and checked (for the kernels'
 * metadata) and its kernels bound to the code for this CPU. An instance the
 * build did not compile (runtime/core/stdlib_instances.txt), or any kernel
 * with TK_STDLIB_AOT=0, goes through the JIT and the disk cache instead.
 * Kernels and instances ("gemm_f32<64,64,64>") are looked up once and
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
/* tkr_launch for a launch the op expects to take est_ns of one thread's time:
 * under TKR_SMALL_LAUNCH_NS it runs on the calling thread alone, since waking
 * a sleeping worker costs 25-85 µs on these VMs (more than a small
 * attention's products or a 10-token softmax take). */
#define TKR_SMALL_LAUNCH_NS 100000.0
tk_status tkr_launch_est(tk_context *ctx, tk_kernel *k, const char *label, const tk_arg *args, unsigned nargs, double est_ns);
/* Rough single-thread costs for est_ns: FLOPs of a product at ~60 GFLOP/s,
 * bytes of a streaming op at ~10 GB/s (the caches' speed at these sizes). */
static inline double tkr_est_flops_ns(double flops) { return flops / 60.0; }
static inline double tkr_est_bytes_ns(double bytes) { return bytes / 10.0; }
void tkr_stdlib_free(tk_context *ctx);

#endif
