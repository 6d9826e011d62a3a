/* run_opts.c — `tkc run`'s command line and its help text. The help is the
 * reference for what every option means, the pass rule and the exit
 * statuses; docs/AGENTS.md says the same at more length. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_internal.h"

static const char HELP[] =
    "usage: tkc run FILE.tk [--kernel NAME] --size M=512,N=512,... [options]\n"
    "\n"
    "Compiles one kernel for the host (specialised for the sizes), runs it on seeded random or given\n"
    "inputs, optionally checks its results, and times it.\n"
    "\n"
    "what to run:\n"
    "  --kernel NAME            the kernel (needed when the file has several)\n"
    "  --size N=V,...           every size variable of the kernel\n"
    "  --set NAME=VALUE         a scalar parameter (numbers default to 1, bools to false; true/false for bools)\n"
    "  --target=T               a CPU target that runs here (default host; see tkc --list-targets), or\n"
    "                           sm_80-emu: the sm_80 GPU lowering run on this CPU with GPU semantics\n"
    "  --generic                compile as libtk does, not specialised for the sizes\n"
    "  -g                       DWARF line tables (gdb, perf show .tk lines)\n"
    "\n"
    "inputs and outputs:\n"
    "  --dist NAME=SPEC         values of a random tensor: uniform:LO,HI (default uniform:-1,1),\n"
    "                           normal:MEAN,STD, or ints:LO,HI (integers LO..HI, both included);\n"
    "                           NAME * sets the default for every tensor not named otherwise\n"
    "  --seed S                 seed of the random inputs (each tensor has its own stream)\n"
    "  --input NAME=FILE.npy    tensor NAME's contents from a NumPy file, of exactly the tensor's shape:\n"
    "                           f32 tensors: <f4, or <f8/<f2 (rounded to f32, nearest even);\n"
    "                           bf16/f16 tensors: <u2 holds the bit patterns; <f4/<f8/<f2 are converted\n"
    "                           by value (to f32, then to the 16-bit type, round to nearest even)\n"
    "  --output-dir DIR         after the first (checked) launch, write every tensor argument as\n"
    "                           DIR/NAME.npy: f32 and bf16 tensors as <f4 (every bf16 is an f32),\n"
    "                           f16 as <f2; the directory is created if missing\n"
    "\n"
    "checking (exit status 1 when any element fails):\n"
    "  --check                  compare with the double-precision interpreter of the same kernel\n"
    "  --reference FILE.tk[:KERNEL]\n"
    "                           compare with another kernel (e.g. a plain version), run by the interpreter\n"
    "                           on the same inputs; its parameters must have the kernel's names and types\n"
    "                           (KERNEL defaults to one of the same name, else the file's only kernel)\n"
    "  --expect NAME=FILE.npy   compare tensor NAME with expected values (several allowed; <u2 = bit\n"
    "                           patterns of a bf16/f16 tensor, float files by value); with --reference,\n"
    "                           the other tensors still compare with the reference\n"
    "                           (--reference and --expect imply --check)\n"
    "  --atol X --rtol Y        replace the default tolerances (either one: the other keeps its default)\n"
    "\n"
    "  pass rule, per element:  |x - ref| <= atol + rtol*|ref|   (NaN must meet NaN, inf the same inf)\n"
    "  defaults, per tensor:    rtol = 2*eps + 8*sqrt(D)*2^-24,  atol = rtol * s\n"
    "    eps  machine epsilon of the narrowest type the result passed through: the tensor's own type,\n"
    "         or any bf16/f16 value the kernel (or reference) rounds to (f32 2^-23, f16 2^-10, bf16 2^-7)\n"
    "    D    accumulation depth: mma multiply-adds of the launch (whole tiles) / elements of the tensors\n"
    "         the kernel stores into; for a kernel with row/column sums or a running sum in a loop\n"
    "         (acc = acc + x) at least the longest dimension of the tensors it loads; at least 1 (with\n"
    "         --reference the smaller of the kernel's and the reference's: padding at ragged edges only\n"
    "         adds to the count)\n"
    "    s    RMS of the reference values of that tensor (1 if they are all 0)\n"
    "  Plain --check also holds every element to the interpreter's proven error bound (+ 2^-24*|ref| for\n"
    "  f32 tensors) where that is tighter: allowed = min(rule, bound); an exact result must match exactly.\n"
    "  When the bounds are unreliable for the kernel (a rounding could flip a comparison) only the rule is used.\n"
    "\n"
    "timing:\n"
    "  --threads N              worker threads (default: TK_NUM_THREADS or the cores)\n"
    "  --repeat N               timed samples (default: until 0.5 s, at least 3, at most 1000)\n"
    "  --warmup N               untimed launches before timing\n"
    "  --cold                   evict the caches before every timed launch\n"
    "  --times                  list every sample in the JSON (times_ms)\n"
    "  A sample of a launch shorter than 0.1 ms is the mean of a batch of back-to-back launches.\n"
    "  Reported: median, min, and spread = p90 - p10 of the samples (linear interpolation between\n"
    "  sorted samples); GFLOP/s of the mma work and its share of the machine's peak, measured once\n"
    "  per CPU and thread count by a short FMA / vdpbf16ps / AMX probe and cached in the tkc cache\n"
    "  directory (TK_PEAK_GFLOPS_BF16 / TK_PEAK_GFLOPS_F32 set a per-thread peak instead);\n"
    "  bytes moved (every tensor the kernel loads counted once, every tensor it stores once more) and GB/s.\n"
    "\n"
    "output:\n"
    "  --json                   one JSON object on stdout (fields: docs/AGENTS.md)\n"
    "  --help                   this text\n"
    "\n"
    "exit status: 0 compiled, ran and (when checked) passed; 1 the kernel has errors, failed to compile\n"
    "or run, or failed the check (timing still runs and is reported); 2 usage or I/O error (bad option,\n"
    "unknown tensor name, unreadable or mismatched .npy file)\n";

void run_print_help(void) { fputs(HELP, stdout); }

int run_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tkc run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\nrun `tkc run --help` for usage\n", stderr);
    va_end(ap);
    return RUN_USAGE;
}

/* "NAME=VALUE" into a RunNamed. */
static int split_named(const char *option, const char *arg, RunNamed *out)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1]) return run_usage_error("%s wants NAME=VALUE, got '%s'", option, arg);
    if ((size_t)(eq - arg) >= sizeof out->name) return run_usage_error("%s: name too long in '%s'", option, arg);
    memcpy(out->name, arg, (size_t)(eq - arg));
    out->name[eq - arg] = '\0';
    out->value = eq + 1;
    out->option = option;
    return RUN_OK;
}

static int parse_dist(const RunNamed *n, RunDist *d)
{
    static const struct {
        const char *prefix;
        RunDistKind kind;
    } kinds[] = { { "uniform:", DIST_UNIFORM }, { "normal:", DIST_NORMAL }, { "ints:", DIST_INTS } };
    for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t len = strlen(kinds[k].prefix);
        if (strncmp(n->value, kinds[k].prefix, len) != 0) continue;
        char *stop;
        errno = 0;
        double a = strtod(n->value + len, &stop);
        if (stop == n->value + len || *stop != ',') break;
        const char *second = stop + 1;
        double b = strtod(second, &stop);
        if (stop == second || *stop || errno || !isfinite(a) || !isfinite(b)) break;
        if (kinds[k].kind == DIST_UNIFORM && !(a < b))
            return run_usage_error("--dist %s=%s: uniform:LO,HI needs LO < HI", n->name, n->value);
        if (kinds[k].kind == DIST_NORMAL && !(b >= 0))
            return run_usage_error("--dist %s=%s: normal:MEAN,STD needs STD >= 0", n->name, n->value);
        if (kinds[k].kind == DIST_INTS && (a != floor(a) || b != floor(b) || a > b || fabs(a) > 1e15 || fabs(b) > 1e15))
            return run_usage_error("--dist %s=%s: ints:LO,HI needs integers LO <= HI", n->name, n->value);
        *d = (RunDist){ kinds[k].kind, a, b };
        return RUN_OK;
    }
    return run_usage_error("--dist %s=%s: want uniform:LO,HI, normal:MEAN,STD or ints:LO,HI", n->name, n->value);
}

static int parse_int(const char *option, const char *arg, int lo, int hi, int *out)
{
    char *stop;
    errno = 0;
    long v = strtol(arg, &stop, 10);
    if (stop == arg || *stop || errno || v < lo || v > hi) return run_usage_error("%s wants an integer in %d..%d, got '%s'", option, lo, hi, arg);
    *out = (int)v;
    return RUN_OK;
}

static int parse_tolerance(const char *option, const char *arg, double *out)
{
    char *stop;
    errno = 0;
    double v = strtod(arg, &stop);
    if (stop == arg || *stop || errno || !(v >= 0) || !isfinite(v))
        return run_usage_error("%s wants a non-negative number, got '%s'", option, arg);
    *out = v;
    return RUN_OK;
}

/* Adds "NAME=..." to a list, refusing the same NAME twice. */
static int add_named(const char *option, const char *arg, RunNamed *list, int *n)
{
    if (*n >= RUN_MAX_NAMED) return run_usage_error("too many %s options (at most %d)", option, RUN_MAX_NAMED);
    if (split_named(option, arg, &list[*n]) != RUN_OK) return RUN_USAGE;
    for (int i = 0; i < *n; i++)
        if (strcmp(list[i].name, list[*n].name) == 0) return run_usage_error("%s %s given twice", option, list[*n].name);
    (*n)++;
    return RUN_OK;
}

int run_parse_options(int argc, char **argv, RunOptions *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 0x9e3779b97f4a7c15ull;
    o->atol = o->rtol = -1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = RUN_OK;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) o->help = true;
        else if (strcmp(a, "--check") == 0) o->check = true;
        else if (strcmp(a, "--json") == 0) o->json = true;
        else if (strcmp(a, "--generic") == 0) o->generic = true;
        else if (strcmp(a, "-g") == 0) o->debug = true;
        else if (strcmp(a, "--times") == 0) o->times = true;
        else if (strcmp(a, "--cold") == 0) o->cold = true;
        else if (strncmp(a, "--target=", 9) == 0) o->target = a + 9;
        else if (!next && a[0] == '-' && strcmp(a, "-") != 0 &&
                 (strcmp(a, "--kernel") == 0 || strcmp(a, "--size") == 0 || strcmp(a, "--set") == 0 ||
                  strcmp(a, "--threads") == 0 || strcmp(a, "--repeat") == 0 || strcmp(a, "--warmup") == 0 ||
                  strcmp(a, "--seed") == 0 || strcmp(a, "--input") == 0 || strcmp(a, "--expect") == 0 ||
                  strcmp(a, "--dist") == 0 || strcmp(a, "--output-dir") == 0 || strcmp(a, "--reference") == 0 ||
                  strcmp(a, "--atol") == 0 || strcmp(a, "--rtol") == 0))
            return run_usage_error("%s needs a value", a);
        else if (strcmp(a, "--kernel") == 0) o->kernel = argv[++i];
        else if (strcmp(a, "--size") == 0) o->sizes = argv[++i];
        else if (strcmp(a, "--set") == 0) {
            if (o->nsets >= RUN_MAX_SETS) return run_usage_error("too many --set options (at most %d)", RUN_MAX_SETS);
            o->sets[o->nsets++] = argv[++i];
        } else if (strcmp(a, "--threads") == 0) rc = parse_int(a, argv[++i], 1, 1024, &o->threads);
        else if (strcmp(a, "--repeat") == 0) rc = parse_int(a, argv[++i], 1, RUN_MAX_SAMPLES, &o->repeat);
        else if (strcmp(a, "--warmup") == 0) rc = parse_int(a, argv[++i], 0, 100000, &o->warmup);
        else if (strcmp(a, "--seed") == 0) {
            char *stop;
            errno = 0;
            o->seed = strtoull(argv[++i], &stop, 0);
            if (*stop || errno) return run_usage_error("--seed wants an integer, got '%s'", argv[i]);
            o->seed |= 1;   /* xorshift state must not be 0 */
        } else if (strcmp(a, "--input") == 0) rc = add_named(a, argv[++i], o->inputs, &o->ninputs);
        else if (strcmp(a, "--expect") == 0) rc = add_named(a, argv[++i], o->expects, &o->nexpects);
        else if (strcmp(a, "--dist") == 0) {
            rc = add_named(a, argv[++i], o->dists, &o->ndists);
            if (rc == RUN_OK) rc = parse_dist(&o->dists[o->ndists - 1], &o->dist_of[o->ndists - 1]);
        } else if (strcmp(a, "--output-dir") == 0) o->output_dir = argv[++i];
        else if (strcmp(a, "--reference") == 0) o->reference = argv[++i];
        else if (strcmp(a, "--atol") == 0) rc = parse_tolerance(a, argv[++i], &o->atol);
        else if (strcmp(a, "--rtol") == 0) rc = parse_tolerance(a, argv[++i], &o->rtol);
        else if (a[0] == '-') return run_usage_error("unknown option '%s'", a);
        else if (!o->file) o->file = a;
        else return run_usage_error("one .tk file at a time ('%s' and '%s')", o->file, a);
        if (rc != RUN_OK) return rc;
    }
    if (o->help) return RUN_OK;
    if (!o->file) return run_usage_error("no input file");
    if (o->reference || o->nexpects) o->check = true;
    if ((o->atol >= 0 || o->rtol >= 0) && !o->check) return run_usage_error("--atol/--rtol need --check, --reference or --expect");
    return RUN_OK;
}
