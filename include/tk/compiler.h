/* tk/compiler.h — the TileKit compiler as a library: compile .tk source at
 * run time for the host CPU (JIT through ORC LLJIT, with the disk cache of
 * compiled objects), look kernels up, inspect their parameters, launch them.
 *
 * Nothing here aborts or exits. Every call returns a tk_status; a failed
 * compile hands back the diagnostics as text (the same text `tkc check`
 * prints), and other failures leave a one-line message in tk_program_error().
 *
 *   tk_program *p;
 *   char *diags;
 *   if (tk_compile_file("gemm.tk", NULL, &p, &diags) != TK_OK) { fputs(diags, stderr); tk_free(diags); }
 *   tk_kernel *k = tk_program_kernel(p, "gemm");
 *   tk_arg args[3] = { TK_TENSOR2(A, M, K), TK_TENSOR2(B, K, N), TK_TENSOR2(C, M, N) };
 *   tk_kernel_launch(k, args, 3, 0);
 *   tk_program_free(p);
 */
#ifndef TK_COMPILER_H
#define TK_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#include "tk/types.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef struct {
    const char *target;   /* NULL or "host"; see `tkc --list-targets` */
    int opt_level;        /* 0 means the default (3) */
    int no_cache;         /* 1: do not read or write the disk cache */
} tk_compile_options;

typedef struct tk_program tk_program;
typedef struct tk_kernel tk_kernel;

/* One launch argument. A tensor: its data (contiguous, row-major, of the
 * parameter's dtype; bf16/f16 as 16-bit patterns) and shape. A scalar: data
 * points to a value of the parameter's type (bool: one byte), rank 0. */
typedef struct {
    void *data;
    int64_t shape[4];
    unsigned rank;
} tk_arg;

#define TK_SCALAR(ptr) ((tk_arg){ (void *)(ptr), { 0, 0, 0, 0 }, 0 })
#define TK_TENSOR1(ptr, d0) ((tk_arg){ (void *)(ptr), { (d0), 0, 0, 0 }, 1 })
#define TK_TENSOR2(ptr, d0, d1) ((tk_arg){ (void *)(ptr), { (d0), (d1), 0, 0 }, 2 })
#define TK_TENSOR3(ptr, d0, d1, d2) ((tk_arg){ (void *)(ptr), { (d0), (d1), (d2), 0 }, 3 })
#define TK_TENSOR4(ptr, d0, d1, d2, d3) ((tk_arg){ (void *)(ptr), { (d0), (d1), (d2), (d3) }, 4 })

typedef struct {
    const char *name;
    int is_tensor;
    tk_dtype dtype;       /* element type of a tensor, or the scalar's type */
    unsigned rank;        /* tensors */
    const char *type;     /* as written in .tk, e.g. "gl<bf16, M, K>" */
} tk_param_info;

/* Compile source text (name is used in diagnostics) or a file. On TK_ERR_SOURCE
 * *diagnostics receives the messages (free with tk_free); on success *out is
 * the program. diagnostics may be NULL if you do not want them. */
tk_status tk_compile_source(const char *name, const char *text, size_t len, const tk_compile_options *opts, tk_program **out,
                            char **diagnostics);
tk_status tk_compile_file(const char *path, const tk_compile_options *opts, tk_program **out, char **diagnostics);
void tk_program_free(tk_program *p);
void tk_free(void *p);

/* Milliseconds spent compiling, and whether the object came from the disk cache. */
double tk_program_compile_ms(const tk_program *p);
int tk_program_cache_hit(const tk_program *p);

/* The kernels compiled with the program: every plain kernel and the default
 * instance of each generic kernel (named plainly, "gemm"). */
unsigned tk_program_num_kernels(const tk_program *p);
const char *tk_program_kernel_name(const tk_program *p, unsigned i);
/* NULL if there is no such kernel (and tk_program_error() says so). A name
 * "gemm<64,64,128>" (spaces allowed) is an instance of generic kernel gemm:
 * the first request compiles it (the front end and JIT run again for that
 * instance, through the disk cache) and the program keeps it; its source
 * errors (a tile dim that is not a multiple of 16 at these values, ...) are
 * in tk_program_error(). Not thread-safe: look kernels up from one thread. */
tk_kernel *tk_program_kernel(tk_program *p, const char *name);

/* A compile-time parameter of a generic kernel, for choosing an instance by
 * problem size. The default is the one for the program's target (target(...)
 * defaults resolved). */
typedef struct {
    const char *name;          /* "BM" */
    int has_default;
    int64_t default_value;     /* a bool's is 0 or 1 */
    int is_bool;               /* the default is true/false */
} tk_generic_param;

/* The compile-time parameters of kernel `kernel` (a generic kernel's plain
 * name): returns how many it has (0 for a kernel that is not generic), filling
 * up to max entries of params (NULL to count), or -1 if there is no such kernel. */
int tk_program_generic_params(const tk_program *p, const char *kernel, tk_generic_param *params, unsigned max);

unsigned tk_kernel_num_params(const tk_kernel *k);
tk_status tk_kernel_param(const tk_kernel *k, unsigned i, tk_param_info *info);
unsigned tk_kernel_num_sizes(const tk_kernel *k);
const char *tk_kernel_size_name(const tk_kernel *k, unsigned i);
unsigned tk_kernel_warps(const tk_kernel *k);
/* The kernel's name as written ("gemm", "gemm_f32<64,64,64>"). */
const char *tk_kernel_name(const tk_kernel *k);
/* The message of the last failure on the kernel's program (a failed launch's). */
const char *tk_kernel_error(const tk_kernel *k);

/* Binds the sizes from the tensor shapes (every dimension must agree with the
 * parameter's type), then runs every block of the grid on `threads` threads
 * (0: $TK_NUM_THREADS or one per core). */
tk_status tk_kernel_launch(tk_kernel *k, const tk_arg *args, unsigned nargs, int threads);

/* The message of the last failure on this program ("" if none). */
const char *tk_program_error(const tk_program *p);

#ifdef __cplusplus
}
#endif

#endif
