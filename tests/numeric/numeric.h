/* numeric.h — the harness of the numeric test suite of the CPU code generator.
 *
 * A test group is one .tk program (several kernels) compiled ONCE through the
 * whole pipeline (front end → TIR → tir_verify → tk_cpu_jit) in an unchecked
 * fixture, i.e. in the parent process before Check forks the tests; each test
 * then looks its kernels up by name. A run (num_run) binds the sizes, makes
 * seeded random inputs of the parameters' element types (outputs start with
 * random contents too, so a store that writes where it must not is seen),
 * launches the JIT code with tk_cpu_launch and a given thread count, runs the
 * double-precision reference interpreter (tir_interp_run) on the very same
 * initial values, and compares EVERY tensor parameter (inputs included: a
 * kernel must not write into them) element by element under a tolerance.
 *
 * The source of every group is written to ${build}/tests/numeric/kernels/
 * GROUP.tk, so that a failure message's `tkc run` line reproduces it.
 *
 * Paths. A group is built for the JIT (NUM_JIT: tk_cpu_jit, ORC LLJIT links
 * the object into this process) and/or ahead of time (NUM_AOT), as a user
 * of `tkc -c` gets it: tk_cpu_emit(TK_EMIT_OBJ) writes GROUP.o into a
 * temporary directory, the system C compiler links it into a shared object
 * (cc -shared -o GROUP.so GROUP.o -lm, through posix_spawn), dlopen loads it
 * (RTLD_NOW | RTLD_LOCAL) and dlsym finds NAME__grid / NAME__block, which
 * tk_cpu_launch runs exactly like the JIT's functions. A run goes through
 * AOT if the group has it, else the JIT, and is compared with the
 * interpreter under the same tolerances either way. With both paths, every
 * run launches both on the same initial contents and the two results must
 * be bit-identical (memcmp: the same object code, another linker), and the
 * object the JIT linked (taken from its disk cache, enabled into the
 * temporary directory for this one compile) must be byte for byte the one
 * tk_cpu_emit wrote (checked by the test `aot_object_is_jit_object`).
 *
 * Which paths a group gets is chosen per group, in code, where its suite
 * registers its TCases (num_tcase_paths): the JIT TCase is named after the
 * group, the AOT one GROUP_aot, so a failure names the path. NUM_AOT=0 in
 * the environment leaves the AOT TCases out; NUM_AOT_KEEP=1 keeps (and
 * prints) the temporary directories. */
#ifndef TK_TESTS_NUMERIC_H
#define TK_TESTS_NUMERIC_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/test_values.h"
#include "cpu_jit.h"
#include "front.h"
#include "launch.h"
#include "lower.h"
#include "tir_bind.h"
#include "tir_interp.h"

#define NUM_MAX_PARAMS 16

/* ---------------------------------------------------------------- programs */

enum {
    NUM_JIT = 1,   /* tk_cpu_jit */
    NUM_AOT = 2,   /* tk_cpu_emit(TK_EMIT_OBJ) → cc -shared → dlopen */
};

typedef struct {
    const char *group;
    char *src;
    TkFront fe;
    TirModule m;
    unsigned paths;         /* NUM_JIT and/or NUM_AOT: what was built */
    TkCpuModule *mod;       /* NUM_JIT */
    void *so;               /* NUM_AOT: the dlopen handle of GROUP.so */
    char aot_dir[512];      /* NUM_AOT: the temporary directory with GROUP.o, GROUP.so */
    bool obj_compared;      /* both paths: whether the JIT's object was found and compared */
    bool obj_same;          /* ... and was byte for byte the emitted one */
    char obj_note[2048];    /* ... else why not */
    const char *target;     /* NULL: host */
    bool have_front;
    bool built;
    bool unavailable;       /* the target cannot run on this machine */
    char err[4096];
    char path[1024];
} NumProg;

/* Front end, lowering, verification and JIT and/or AOT build of src
 * (copied), for the paths the running TCase was registered with
 * (num_tcase_paths; NUM_JIT outside any). Never aborts: on failure
 * prog->built is false and prog->err says why. */
void num_build(NumProg *p, const char *group, const char *src);
/* The same for a named CPU target (targets/target.h, e.g. "x86-64-avx2"),
 * whose code must run here; if it cannot, p->unavailable is set. */
void num_build_target(NumProg *p, const char *group, const char *src, const char *target);
void num_free(NumProg *p);
/* Whether runs of p go through the AOT object (tests may use fewer sizes there). */
bool num_aot(const NumProg *p);
/* The kernel's functions on the path runs take (AOT if built, else JIT); fails the test if absent. */
void num_lookup(const NumProg *p, const char *kernel, TkGridFn *grid, TkBlockFn *block);
/* Fails the current test unless the group compiled. */
#define NUM_NEED(p) ck_assert_msg((p)->built, "group %s did not compile: %s", (p)->group, (p)->err)

/* ---------------------------------------------------------------- runs */

/* |got - want| <= atol + rtol·|want|, or got within `ulps` units in the last
 * place of the tensor's element type from want (want rounded to that type).
 * With rtol = atol = 0 only the ulp test applies: TOL_EXACT (ulps 0) means
 * got == want rounded to the element type, bit for bit (+0 and -0 equal).
 * NaN must meet NaN and ±inf must be equal, unless nan_ok (NaN accepted for
 * either side: results the language leaves unspecified). skip: not compared. */
typedef struct {
    double rtol, atol;
    int ulps;
    bool nan_ok;
    bool skip;
    bool zero_sign;   /* also +0 and -0 must agree (where the language fixes the sign) */
} NumTol;

#define TOL_EXACT ((NumTol){ 0 })

typedef struct {
    const char *param;
    NumTol tol;
} NumTolFor;

/* Input generator: value of element idx of parameter p (before rounding to
 * the element type). */
typedef double (*NumGen)(unsigned p, TkTypeKind elem, int64_t idx, uint64_t *rng, void *ctx);

typedef struct {
    const char *sizes;        /* "M=17,N=5": every size of the kernel */
    const char *sets;         /* "scale=0.125,causal=true": scalar params (default 1 / false) */
    uint64_t seed;            /* 0: a fixed default */
    double lo, hi;            /* random inputs in [lo, hi) (both 0: [-1, 1)) */
    NumGen gen;               /* if set: overrides lo/hi */
    void *gen_ctx;
    int threads;              /* 0: 2 threads */
    NumTol tol;               /* for every tensor ... */
    NumTolFor per[8];         /* ... except these */
    bool no_interp;           /* JIT only (thread tests) */
} NumSpec;

typedef struct {
    const NumProg *prog;
    const TirFunc *f;
    unsigned n;
    int64_t sizes[TK_MAX_SIZES];
    bool is_tensor[NUM_MAX_PARAMS];
    TkTypeKind elem[NUM_MAX_PARAMS];      /* tensors: element kind; scalars: the kind */
    unsigned rank[NUM_MAX_PARAMS];
    int64_t shape[NUM_MAX_PARAMS][4];
    int64_t count[NUM_MAX_PARAMS];
    void *raw[NUM_MAX_PARAMS];            /* what the JIT wrote (element type) */
    double *init[NUM_MAX_PARAMS];         /* initial contents, exact values */
    double *got[NUM_MAX_PARAMS];          /* raw decoded */
    double *ref[NUM_MAX_PARAMS];          /* interpreter's result */
    double scalar[NUM_MAX_PARAMS];
    unsigned char smem[NUM_MAX_PARAMS][8];
    char desc[512];                       /* "group kernel sizes sets threads" for messages */
    unsigned path;                        /* NUM_JIT or NUM_AOT: what raw holds */
} NumRun;

/* Runs kernel `kernel` of p as described (through AOT if p has it, else the
 * JIT; with both, also the JIT, bit-identity checked), compares (unless
 * no_interp) and fails the test on any mismatch with a message naming the
 * path, the kernel, the sizes, the tensor, the element and a `tkc run` line
 * (and for AOT the `tkc -c` and `cc` lines). Free with num_run_free. */
void num_run(const NumProg *p, const char *kernel, const NumSpec *spec, NumRun *r);
void num_run_free(NumRun *r);
/* Index of parameter `name` (fails the test if absent). */
unsigned num_param(const NumRun *r, const char *name);

/* Compares got[0..n) with want under tol for element kind k (independent
 * references written in the tests). Fails the test with `what` on mismatch. */
void num_expect(const double *got, const double *want, int64_t n, TkTypeKind k, NumTol tol, const char *what);

/* Checks got == want element-wise by memcmp of the raw buffers of two runs
 * of the same kernel (thread-count independence). */
void num_expect_identical(const NumRun *a, const NumRun *b);

/* ---------------------------------------------------------------- numbers */

uint16_t num_f32_to_bf16(float f);
float num_bf16_to_f32(uint16_t h);
uint16_t num_f32_to_f16(float f);
float num_f16_to_f32(uint16_t u);
/* x rounded to element kind k (f32, bf16, f16), RNE via f32. */
double num_round(TkTypeKind k, double x);
/* Unit roundoff ulp(1) of kind k: 2^-23, 2^-7, 2^-10. */
double num_eps(TkTypeKind k);

uint64_t num_rng_next(uint64_t *s);
double num_uniform(uint64_t *s, double lo, double hi);

/* ---------------------------------------------------------------- gemm-shaped kernels */

/* Absolute tolerance of an f32 sum of K products of inputs in [-1, 1):
 * (K + 2)·2^-24·K, the worst case of recursive summation (test_mma.c). */
NumTol num_tol_dot(int64_t K);
/* Inputs with all-zero register-row blocks of A, which the micro-kernel
 * skips: parameter 0 (A, K wide) has rows r with (r / 8) % 3 == 1 zero
 * (whole 8-row blocks, and 2-row ones of ≤ 16-row tiles); parameter 1 (B)
 * holds an inf at element inf_at (default 5: row 0) if inf_in_b (0·inf must
 * still give NaN). */
typedef struct {
    int64_t K;
    bool inf_in_b;
    int64_t inf_at;   /* > 0: B's element holding the inf */
    /* late > 0: also blocks (row / 8) % 3 == 2 are zero but for the last row's
     * element at the end of every `late`-wide K tile (and at K - 1): a scan
     * for zero blocks that stops early must still read to the end */
    int64_t late;
    /* the zero blocks are zero only from this column on (0: all of them):
     * a product whose last K steps skip blocks that earlier ones ran */
    int64_t zero_from;
} NumZeroRows;
double num_zero_rows_gen(unsigned p, TkTypeKind elem, int64_t idx, uint64_t *rng, void *ctx);

/* Bookkeeping for the final summary (JIT launches compared, elements compared;
 * num_run counts AOT launches apart). */
void num_count(uint64_t launches, uint64_t elements);

/* The LLVM IR of one kernel of source `src` (named `name` in diagnostics)
 * for `target` (a targets/target.h name; NULL = host), optimised as the JIT
 * compiles it, for checks of what the compiler chose; NULL if it does not
 * compile. Name the target where the choice depends on the ISA: the host
 * varies between machines. Free with free(). */
char *num_kernel_ir(const char *name, const char *src, const char *kernel, const char *target);
/* The same as assembly (what the back end made of it). */
char *num_kernel_asm(const char *name, const char *src, const char *kernel, const char *target);

/* A growable string for generating .tk sources. */
typedef struct {
    char *s;
    size_t len, cap;
} NumStr;
void ns_printf(NumStr *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ns_free(NumStr *b);

/* Suites. */
Suite *num_suite_memory(void);
Suite *num_suite_elementwise(void);
Suite *num_suite_fma(void);
Suite *num_suite_fused_loads(void);
Suite *num_suite_masks(void);
Suite *num_suite_mma(void);
Suite *num_suite_reduce(void);
Suite *num_suite_layout(void);
Suite *num_suite_scalar(void);
Suite *num_suite_warps(void);
Suite *num_suite_outview(void);
Suite *num_suite_rowview(void);
Suite *num_suite_coalesce(void);
Suite *num_suite_generic(void);   /* test_generic.c: through libtk */
Suite *num_suite_stdlib_generic(void);   /* test_stdlib_generic.c: gemm.tk's instances through libtk */
Suite *num_suite_examples(void);
Suite *num_suite_arrays(void);
Suite *num_suite_subtile(void);
Suite *num_suite_stream(void);

/* Whether to add the KNOWN FAILURE cases (code-generation bugs reported in
 * /tmp/codegen_bugs): only when NUM_KNOWN_FAILURES=1 is set. */
bool num_known_failures(void);

/* A TCase whose program is compiled once (in the parent) by an unchecked fixture,
 * for the JIT. */
TCase *num_tcase(const char *name, void (*setup)(void), void (*teardown)(void));
/* The same for the given paths (NUM_JIT, NUM_AOT or both): every program the
 * TCase's fixtures build (setup, and fixtures added after this call) gets
 * them. Named `name` for NUM_JIT, `name`_aot as soon as NUM_AOT is in. With
 * both, the test aot_object_is_jit_object is added. */
TCase *num_tcase_paths(const char *name, void (*setup)(void), void (*teardown)(void), unsigned paths);
/* Variant v of a group for a suite's registration loop: v = 0 the JIT
 * (NUM_JIT), v = 1 the group's AOT choice `aot` (NUM_AOT, NUM_AOT | NUM_JIT,
 * or 0 for none), which NUM_AOT=0 in the environment turns to 0. */
unsigned num_variant(unsigned v, unsigned aot);

#endif
