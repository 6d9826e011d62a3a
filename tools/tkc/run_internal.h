/* run_internal.h — what the parts of `tkc run` share: the options
 * (run_opts.c), the kernel's arguments (run_args.c), the check against a
 * reference (run_check.c), the timing (run_time.c), the measured peak
 * (peak_probe.c) and the report (run_report.c). run.c drives them. */
#ifndef TK_TOOLS_TKC_RUN_INTERNAL_H
#define TK_TOOLS_TKC_RUN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tir.h"
#include "tir_bind.h"

enum { RUN_MAX_PARAMS = 64, RUN_MAX_NAMED = 64, RUN_MAX_SETS = 32, RUN_MAX_SAMPLES = 1000 };
enum { RUN_OK = 0, RUN_FAILED = 1, RUN_USAGE = 2 };   /* exit statuses */

/* --input NAME=FILE, --expect NAME=FILE, --dist NAME=SPEC */
typedef struct {
    char name[128];
    const char *value;
    const char *option;   /* "--input", for messages */
} RunNamed;

typedef enum { DIST_UNIFORM, DIST_NORMAL, DIST_INTS } RunDistKind;

typedef struct {
    RunDistKind kind;
    double a, b;          /* uniform: [a, b); normal: mean a, standard deviation b; ints: a ..= b */
} RunDist;

typedef struct {
    const char *file;
    const char *kernel;
    const char *sizes;            /* "M=512,N=512" */
    const char *sets[RUN_MAX_SETS];
    int nsets;
    RunNamed inputs[RUN_MAX_NAMED], expects[RUN_MAX_NAMED], dists[RUN_MAX_NAMED];
    int ninputs, nexpects, ndists;
    RunDist dist_of[RUN_MAX_NAMED];   /* parsed --dist values, by index of dists */
    const char *output_dir;
    const char *reference;        /* "FILE.tk:KERNEL" */
    double atol, rtol;            /* < 0: not given */
    bool check, json, generic, debug, times, cold, help;
    const char *target;
    int threads, repeat, warmup;
    unsigned long long seed;
} RunOptions;

/* run_opts.c */
int run_parse_options(int argc, char **argv, RunOptions *o);   /* RUN_OK or RUN_USAGE (message printed) */
void run_print_help(void);
int run_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));   /* prints, returns RUN_USAGE */

/* run_args.c: one launch's arguments */
typedef struct {
    unsigned n;
    void *data[RUN_MAX_PARAMS];       /* what the kernel sees (NULL for scalars) */
    void *initial[RUN_MAX_PARAMS];    /* copy of the starting contents */
    int64_t count[RUN_MAX_PARAMS];
    double scalar[RUN_MAX_PARAMS];    /* scalar values as double, for the interpreter */
    unsigned char scalar_mem[RUN_MAX_PARAMS][8];
    TkArg args[RUN_MAX_PARAMS];
} RunArgs;

/* Fills every tensor from --input or the seeded --dist, every scalar from
 * --set (1, bool false by default). RUN_OK, or RUN_USAGE/RUN_FAILED with err. */
int run_make_args(const RunOptions *o, const TirFunc *f, const int64_t *sizes, RunArgs *A, char *err, size_t errlen);
void run_free_args(RunArgs *A);
/* Every tensor argument as DIR/NAME.npy. */
int run_write_outputs(const char *dir, const TirFunc *f, const RunArgs *A, char *err, size_t errlen);
/* Checks that a --input/--expect/--dist NAME is a tensor parameter of f. */
int run_find_tensor(const TirFunc *f, const char *name, const char *option, char *err, size_t errlen);
/* Reads an .npy file as `count` doubles for a tensor of element type elem:
 * float files by value; <u2 files as bf16/f16 bit patterns (16-bit tensors only). */
int run_read_npy_values(const char *path, const TirFunc *f, unsigned p, const int64_t *sizes, double *out, char *err,
                        size_t errlen);

/* run_check.c: the pass rule */
typedef struct {
    const char *name;
    unsigned param;
    TkTypeKind elem;
    const char *against;          /* "interpreter", "reference", or the --expect file */
    bool output;                  /* stored into by the kernel (or the reference) */
    int64_t checked, bad, nan_both;
    double max_abs, max_rel, max_ratio;
    double atol, rtol, depth, scale;
    bool bounds;                  /* the interpreter's bounds joined the rule */
    int64_t worst;                /* flat index of the element with the largest |x - ref| / allowed, -1 if none */
    double worst_value, worst_ref, worst_abs, worst_allowed, worst_ratio;
} RunTensorCheck;

typedef struct {
    bool ran, correct;
    const char *basis;            /* what the kernel was compared with */
    char reference_name[256];
    char bounds_note[320];        /* why the bounds were not used, if they were wanted */
    unsigned ntensors;
    RunTensorCheck t[RUN_MAX_PARAMS];
    int worst_tensor;             /* index into t, -1 if nothing compared */
    double max_abs, max_rel;
} RunCheck;

typedef struct {
    const RunOptions *o;
    const TirFunc *f;             /* the kernel under test */
    const int64_t *sizes;
    double macs;                  /* mma multiply-adds of one launch (tir_count_flops / 2), < 0 unknown */
} RunCheckInput;

/* Compares the kernel's results in A (after one launch) with --reference,
 * --expect, or the kernel's own interpretation. RUN_OK with c filled (c->correct
 * says whether it passed), or RUN_USAGE/RUN_FAILED with err. */
int run_check(const RunCheckInput *in, RunArgs *A, RunCheck *c, char *err, size_t errlen);

/* Which tensors a kernel loads from / stores into (indexed by parameter). */
void run_tensor_use(const TirFunc *f, bool *loaded, bool *stored);

/* run_time.c */
typedef struct {
    int n;                        /* samples */
    int inner;                    /* launches per sample (short kernels are timed in batches) */
    double samples[RUN_MAX_SAMPLES];   /* ms per launch, in launch order */
    double min, median, p10, p90, spread;   /* spread = p90 - p10 */
} RunTiming;

typedef int (*RunLaunchFn)(void *ctx, char *err, size_t errlen);
int run_time_kernel(const RunOptions *o, int threads, RunLaunchFn launch, void *ctx, RunTiming *t, char *err, size_t errlen);
void run_timing_stats(RunTiming *t);

/* peak_probe.c */
typedef struct {
    double gflops;                /* for the whole thread count; 0 if unknown */
    char basis[200];              /* "measured: ..." / "$TK_PEAK_GFLOPS_BF16" / ... */
    bool cached;
    double probe_ms;              /* time the probe took (0 from the cache or an override) */
} RunPeak;

/* The mma peak of `threads` threads for bf16 or f32 products, with the
 * instruction the target's micro-kernels use (features: LLVM's "+avx512f,..."). */
void run_peak(int threads, bool bf16, const char *features, RunPeak *out);

/* A monotonic clock in milliseconds. */
double run_now_ms(void);

#endif
