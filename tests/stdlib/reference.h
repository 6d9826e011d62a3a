/* reference.h — independent double-precision references for the stdlib kernels.
 *
 * The stdlib numeric test (tests/stdlib) makes seeded random inputs for every
 * tensor of a case (rounded to the tensor's element type), hands them to the
 * C reference registered under the kernel's name, and records what the
 * reference leaves in each tensor as the expected final contents. The runner,
 * built for every CPU target (natively, or for AArch64 under qemu), launches
 * the compiled stdlib kernel on the same inputs and compares.
 *
 * A reference is plain C loops in double precision written from the
 * mathematical definition — never a translation of the .tk kernel — so that a
 * wrong algorithm in the kernel is caught, not only a wrong code generator.
 * It reads its inputs and overwrites its outputs in place (tensor data are
 * doubles here, row-major, in the kernel's parameter shapes). It must not
 * round intermediates to bf16: the tolerance of the case says how far the
 * kernel's bf16/f32 arithmetic may drift from the exact answer.
 *
 * Each family file (ref_gemm.c, ref_attention.c, ...) defines one table
 *   const TkRefKernel tk_ref_FAMILY[] = { { "kernel_name", fn }, ..., { 0 } };
 * and ref_table.c lists the tables. */
#ifndef TK_STDLIB_REFERENCE_H
#define TK_STDLIB_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>   /* NULL: a reference returns NULL on success */
#include <stdint.h>

#define TK_REF_MAX_RANK 8

typedef struct {
    const char *name;                 /* the kernel parameter's name */
    unsigned rank;
    int64_t shape[TK_REF_MAX_RANK];   /* the bound extents, outermost first */
    int64_t count;                    /* product of shape */
    double *data;                     /* row-major contents; outputs are overwritten */
} TkRefTensor;

typedef struct {
    const char *name;
    double value;                     /* integers and bools (0/1) exactly */
} TkRefValue;

typedef struct {
    const char *kernel;
    TkRefTensor *tensors;  unsigned ntensors;   /* in parameter order */
    TkRefValue *scalars;   unsigned nscalars;   /* scalar parameters */
    TkRefValue *sizes;     unsigned nsizes;     /* size variables (M, N, K, ...) */
} TkRefCall;

/* Returns NULL on success, else a message (static string) saying why the
 * reference cannot compute this case; the generator then fails loudly. */
typedef const char *(*tk_ref_fn)(TkRefCall *call);

typedef struct {
    const char *kernel;
    tk_ref_fn fn;
} TkRefKernel;

/* Lookups by name; a missing name is a bug in the reference or the case, so
 * they print the name and exit(2) rather than return something made up. */
TkRefTensor *tk_ref_tensor(TkRefCall *call, const char *name);
double *tk_ref_data(TkRefCall *call, const char *name);
double tk_ref_scalar(TkRefCall *call, const char *name);
int64_t tk_ref_size(TkRefCall *call, const char *name);

/* The activation functions as LANGUAGE.md defines them (gelu: the tanh form). */
double tk_ref_relu(double x);
double tk_ref_gelu(double x);
double tk_ref_silu(double x);

/* Finds the reference of a kernel in every family table; NULL if none. */
tk_ref_fn tk_ref_find(const char *kernel);

extern const TkRefKernel tk_ref_gemm[];
extern const TkRefKernel tk_ref_attention[];
extern const TkRefKernel tk_ref_ffn[];
extern const TkRefKernel tk_ref_norms[];
extern const TkRefKernel tk_ref_conv[];

/* Every family table above, NULL-terminated (ref_table.c): a new family adds
 * its table here. */
extern const TkRefKernel *const tk_ref_tables[];

/* Helpers of the family files (ref_util.c). */
/* The tensor called name, checked to have the given rank (exit(2) if not). */
TkRefTensor *tk_ref_tensor_rank(TkRefCall *call, const char *name, unsigned rank);

/* Offset of element (r, c) from the start of a packed plane of R rows and C
 * columns (LANGUAGE.md §3.4), `pairs` for 2-byte elements. */
int64_t tk_ref_packed_at(int64_t r, int64_t c, int64_t R, int64_t C, bool pairs);

/* Index into P's data of element (k, j) of the matrix B packed as P[NB, KT, R, C]
 * (gemm.tk's pack kernels: plane (j / C, k / R) holds B's rows R·(k / R) ..
 * and columns C·(j / C) .. at tk_ref_packed_at), or -1 where P has no plane
 * for it. */
int64_t tk_ref_packed_b_index(const TkRefTensor *P, int64_t k, int64_t j, bool pairs);

#endif
