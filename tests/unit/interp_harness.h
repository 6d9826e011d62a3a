/* interp_harness.h — what the tests of the TIR reference interpreter
 * (test_interp_*.c; lower/interp/tir_interp.c) share: loading a .tk program
 * through the front end and lowering it, launching a kernel on double
 * buffers, seeded inputs, independent bf16/f16 rounding and comparisons.
 * Names carry ith_ (interpreter test harness); definitions in interp_harness.c.
 *
 * Each test compiles a .tk program through the front end (lang/front.h),
 * lowers it (tir_from_ast), verifies the TIR, binds the sizes from the tensor
 * shapes (tir_bind_sizes), runs the interpreter on seeded random inputs and
 * compares with a plain C double-precision loop written here, independently of
 * the interpreter. The examples (gemm, softmax, attention) are read from
 * examples/ so that the very kernels we ship are the ones checked.
 *
 * Tolerances (stated at each comparison):
 *  - f32-only paths: the interpreter computes in double like the reference,
 *    only in another order: 1e-12 relative (plus 1e-12·scale absolute where
 *    sums can cancel);
 *  - bf16/f16 results are compared exactly against the reference's own
 *    rounding (same op order), or, where the kernel rounds intermediate values
 *    the naive reference does not (attention's bf16 P and output), within a
 *    bound derived from bf16's unit roundoff 2^-9. */
#ifndef TK_TESTS_UNIT_INTERP_HARNESS_H
#define TK_TESTS_UNIT_INTERP_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "front.h"
#include "lower.h"
#include "tir_bind.h"
#include "tir_interp.h"

typedef struct {
    TkFront fe;
    TirModule m;
} Prog;

/* Parses, checks and lowers src into p (failing the test on any error); with
 * fix, also works around the ELEM order bug of the lowering (see
 * interp_harness.c) and verifies the TIR. ith_prog_load is the fixed form. */
void ith_prog_load_raw(Prog *p, const char *src, bool fix);
void ith_prog_load(Prog *p, const char *src);
void ith_prog_free(Prog *p);
/* The kernel called name in p (fails the test if there is none). */
const TirFunc *ith_kernel(const Prog *p, const char *name);

/* One launch argument: a tensor (data, shape) or a scalar. */
typedef struct {
    double *data;
    int64_t shape[4];
    unsigned rank;
    double scalar;
} Arg;

static inline Arg T1(double *d, int64_t n) { return (Arg){ .data = d, .shape = { n }, .rank = 1 }; }
static inline Arg T2(double *d, int64_t r, int64_t c) { return (Arg){ .data = d, .shape = { r, c }, .rank = 2 }; }
static inline Arg T4(double *d, int64_t a, int64_t b, int64_t c, int64_t e)
{
    return (Arg){ .data = d, .shape = { a, b, c, e }, .rank = 4 };
}
static inline Arg SC(double v) { return (Arg){ .scalar = v }; }

/* Binds and runs; returns the interpreter's status, message in err. */
int ith_launch_err(const TirFunc *f, Arg *args, unsigned nargs, char *err, size_t errlen);
/* Binds and runs; fails the test if the interpreter does. */
void ith_launch(const TirFunc *f, Arg *args, unsigned nargs);
#define LAUNCH(f, ...) do { Arg args_[] = { __VA_ARGS__ }; ith_launch((f), args_, sizeof args_ / sizeof args_[0]); } while (0)

/* Seeded xorshift64*: every test sees the same inputs on every run. */
void ith_seed(uint64_t s);
/* A uniform double in [lo, hi). */
double ith_uniform(double lo, double hi);
/* n doubles, all v (fails the test if out of memory); the caller frees. */
double *ith_alloc_fill(size_t n, double v);

/* Rounding written independently of the interpreter (see interp_harness.c):
 * x to the nearest bf16, to the nearest binary16, and the value of f16 bits h. */
double ith_ref_bf16(double x);
double ith_ref_f16(double x);
double ith_f16_value(uint16_t h);

/* got equals want within atol + rtol·|want| (NaN matches NaN, ±inf itself). */
bool ith_close_enough(double got, double want, double rtol, double atol);
void ith_expect_close_at(const double *got, const double *want, size_t n, double rtol, double atol, const char *what, int line);
#define expect_close(got, want, n, rtol, atol, what) ith_expect_close_at((got), (want), (n), (rtol), (atol), (what), __LINE__)

/* The text of examples/NAME (found from this file's path). */
char *ith_read_example(const char *name);

#endif
