/* gen.c — tk_cross_gen and tk_stdlib_gen: the host half of the cross numeric
 * test (tests/cross) and of the stdlib numeric test (tests/stdlib).
 *
 *   tk_cross_gen --manifest tests/cross/manifest.txt --kernels tests/cross/kernels \
 *                --data cross.dat --registry cases.c
 *   tk_stdlib_gen --oracle=reference --manifest tests/stdlib/cases/gemm.txt --manifest ... \
 *                --kernels stdlib-kernels --data stdlib.dat --registry cases.c
 *   tk_cross_gen --list tests/cross/kernels          (kernel signatures, for writing the manifest)
 *
 * The same source is built twice: tk_cross_gen has one oracle, the TIR
 * interpreter; tk_stdlib_gen (built with TK_GEN_REFERENCES and linked with
 * tests/stdlib/ref_*.c) also has the double-precision C references of
 * tests/stdlib/reference.h, chosen with --oracle=reference. --manifest may be
 * given several times: the cases of all files, in order (each error names
 * its FILE:LINE).
 *
 * For every case of the manifest it compiles the case's .tk file with the
 * front end and tir_from_ast (no LLVM), binds the sizes, makes seeded random
 * inputs for EVERY tensor (outputs start with random contents too, so that a
 * store where none belongs is seen), rounded to the tensor's element type,
 * runs the oracle on exactly those values — the double-precision reference
 * interpreter (tir_interp_run), or with --oracle=reference the C reference
 * registered under the kernel's name (a case whose kernel has none is an
 * error) — and writes the inputs (in the element types, as the kernel
 * takes them) and the oracle's final contents of every tensor (inputs
 * included: a kernel must not write into them) into one data file, which
 * tests/cross/runner.c — built for the target, run under qemu — replays
 * through tk_rt_launch. The interpreter never has to be cross-built.
 *
 * It also writes the registry, a C file listing every kernel of every .tk
 * file of the kernel directory with its NAME__grid / NAME__block symbols
 * (the objects `tkc -c` makes of those files), and checks that kernel names
 * are unique across the files (they all link into one program) and that
 * every kernel has at least one case.
 *
 * Manifest: one case per line, '#' starts a comment:
 *   FILE KERNEL SIZES SCALARS [OPTIONS]
 *   SIZES     every size variable, NAME=VALUE,... ('-' if the kernel has none)
 *   SCALARS   scalar parameters, NAME=VALUE,... ('-': all default: 1, bool false);
 *             values: integers (exact for i32/i64), floats, nan, inf, -inf, true, false
 *   OPTIONS   comma-separated, optional:
 *             gen=uniform|specials|wide|ties|subnormal   input values (below)
 *             lo=X, hi=Y       range of gen=uniform and specials (default -1, 1)
 *             pick=A:B:...     every element one of the values A, B, ... (at most 16,
 *                              chosen uniformly; e.g. a mask: pick=0:-inf)
 *             TENSOR.gen=G TENSOR.lo=X TENSOR.hi=Y TENSOR.pick=A:B:...
 *                              the same for one tensor (e.g. a norm's scale:
 *                              gamma.lo=0.5,gamma.hi=2), over the case's values
 *             seed=N           (default: a hash of the first four fields)
 *             tol=bounds       each element's tolerance is the interpreter's error bound
 *                              for it (tir_interp_run_bounded; --oracle=interp only), on
 *                              top of rtol/atol/ulps (default 0 then); a case whose
 *                              bounds are unreliable is an error
 *             rtol=X atol=X ulps=N          tolerance of every tensor, replacing the
 *             TENSOR.rtol=X TENSOR.atol=X TENSOR.ulps=N   default; or of one tensor
 *             TENSOR.value=X   every element of that tensor X (e.g. 0x1p100)
 *             TENSOR.nan_rows=N   elements whose index along the second-to-last axis
 *                              is N or more are NaN (a KV cache's unused rows past a
 *                              live length: a kernel that reads them fails)
 *             xfail=TARGET     a known failure of that target (a code generation bug
 *                              reported elsewhere): counted apart, not as a failure
 *
 * Data file (all integers and doubles little-endian; doubles as IEEE binary64
 * bits; element data as little-endian f32 / 16-bit patterns, which the runner
 * hands to the kernel as they are: the targets are little-endian):
 *   "TKCROSS2" (8 bytes), u32 number of cases, then per case:
 *     str kernel      (str = u32 byte length, then the bytes, no NUL)
 *     str description ("FILE KERNEL SIZES SCALARS OPTIONS" of the manifest line)
 *     str xfail       (targets, space separated; empty if none)
 *     u32 nsizes, i64 sizes[nsizes]          (the kernel's sizes argument)
 *     u32 nparams, then per parameter, in order:
 *       str name, u8 kind (0 tensor, 1 scalar),
 *       u8 type (0 f32, 1 bf16, 2 f16, 3 i32, 4 i64, 5 bool; a tensor's element type)
 *       tensor: u32 rank, i64 shape[rank], i64 count (elements),
 *               f64 rtol, f64 atol, u32 ulps, u8 has_bounds,
 *               count elements of the type (f32 4 bytes, bf16/f16 2-byte patterns): initial contents,
 *               count f64: the oracle's final contents (what the kernel must leave),
 *               has_bounds: count f64, each element's own allowance (+inf: none, not compared)
 *       scalar: u32 nbytes, the value as the kernel takes it (bool 1 byte, i32 4, i64 8, f32 4, bf16/f16 2)
 *
 * Tolerances (the runner's test, per element, with want the interpreter's
 * value rounded to the tensor's element type as the kernel stores it):
 * NaN must meet NaN, ±inf must be equal, else |got - want| <= atol + rtol·|want|
 * or got is within `ulps` units in the last place of want. Defaults by
 * element type (see gen_default_tol in gen_values.c), overridden per case in the manifest. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk/dtype.h"
#include "front.h"
#include "lower.h"
#include "tir.h"
#include "tir_bind.h"
#include "tir_interp.h"
#include "gen_values.h"
#ifdef TK_GEN_REFERENCES
#include "reference.h"
#endif

#define MAX_PARAMS 64
#define MAX_FILES 512

/* ---------------------------------------------------------------- output */

static const char *gen_name = "tk_cross_gen";   /* argv[0]'s base name, for messages */
static FILE *out_data;

static void put_bytes(const void *p, size_t n)
{
    if (fwrite(p, 1, n, out_data) != n) {
        fprintf(stderr, "%s: write error: %s\n", gen_name, strerror(errno));
        exit(1);
    }
}

static void put_u8(unsigned v)
{
    unsigned char b = (unsigned char)v;
    put_bytes(&b, 1);
}

static void put_u32(uint32_t v)
{
    unsigned char b[4];
    for (int i = 0; i < 4; i++) b[i] = (unsigned char)(v >> (8 * i));
    put_bytes(b, 4);
}

static void put_u64(uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
    put_bytes(b, 8);
}

static void put_i64(int64_t v) { put_u64((uint64_t)v); }

static void put_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    put_u64(u);
}

static void put_str(const char *s)
{
    size_t n = strlen(s);
    put_u32((uint32_t)n);
    put_bytes(s, n);
}

static void put_u16(uint16_t v)
{
    put_u8(v & 0xff);
    put_u8(v >> 8);
}

static void put_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(u);
}

/* ---------------------------------------------------------------- programs */

typedef struct {
    char name[256];      /* file name within the kernel directory */
    TkFront fe;
    TirModule m;
} Program;

static Program programs[MAX_FILES];
static unsigned nprograms;

static char tmp_data[4096];   /* the data file being written, removed if we die */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    if (tmp_data[0]) remove(tmp_data);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", gen_name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Loads, checks and lowers every *.tk of dir, in name order. */
static void load_programs(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) die("cannot open %s: %s", dir, strerror(errno));
    char *names[MAX_FILES];
    unsigned n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".tk") == 0) {
            if (n == MAX_FILES) die("more than %d .tk files in %s", MAX_FILES, dir);
            names[n] = strdup(e->d_name);
            if (!names[n]) die("out of memory");
            n++;
        }
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_str);
    for (unsigned i = 0; i < n; i++) {
        Program *p = &programs[nprograms++];
        snprintf(p->name, sizeof p->name, "%s", names[i]);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        free(names[i]);
        if (tk_front_load(&p->fe, path) != 0) die("cannot read %s: %s", path, strerror(errno));
        tk_front_parse(&p->fe);
        if (!p->fe.diags.errors) tk_front_check(&p->fe);
        if (p->fe.diags.errors) {
            tk_diags_print_text(&p->fe.diags, stderr);
            die("%s has errors", path);
        }
        if (tir_from_ast(&p->m, &p->fe.arena, &p->fe.src, &p->fe.diags, p->fe.items) != 0 || tir_verify(&p->m, stderr) != 0) {
            tk_diags_print_text(&p->fe.diags, stderr);
            die("internal error while lowering %s", path);
        }
    }
    if (nprograms == 0) die("no .tk files in %s", dir);
    /* every kernel name once across all files: they link into one program */
    for (unsigned i = 0; i < nprograms; i++)
        for (const TirFunc *f = programs[i].m.funcs; f; f = f->next)
            for (unsigned j = 0; j <= i; j++)
                for (const TirFunc *g = programs[j].m.funcs; g && !(j == i && g == f); g = g->next)
                    if (strcmp(f->name, g->name) == 0)
                        die("kernel %s is defined in %s and in %s: rename one (the objects link into one program)", f->name,
                            programs[j].name, programs[i].name);
}

static const char *type_name(TkTypeKind k)
{
    switch (k) {
    case TK_TY_F32: return "f32";
    case TK_TY_BF16: return "bf16";
    case TK_TY_F16: return "f16";
    case TK_TY_I32: return "i32";
    case TK_TY_I64: return "i64";
    case TK_TY_BOOL: return "bool";
    default: return "?";
    }
}

static unsigned type_code(TkTypeKind k)
{
    switch (k) {
    case TK_TY_F32: return 0;
    case TK_TY_BF16: return 1;
    case TK_TY_F16: return 2;
    case TK_TY_I32: return 3;
    case TK_TY_I64: return 4;
    case TK_TY_BOOL: return 5;
    default: die("unsupported parameter type");
    }
}

static void list_kernels(void)
{
    for (unsigned i = 0; i < nprograms; i++)
        for (const TirFunc *f = programs[i].m.funcs; f; f = f->next) {
            printf("%s %s sizes:", programs[i].name, f->name);
            for (unsigned k = 0; f->sizes && k < f->sizes->count; k++) printf("%s%s", k ? "," : "", f->sizes->names[k]);
            printf(" params:");
            for (unsigned p = 0; p < f->nparams; p++) {
                const TkType *t = f->params[p].type;
                if (t->kind == TK_TY_GL) printf(" %s:gl<%s,%u>", f->params[p].name, type_name(t->elem), t->rank);
                else printf(" %s:%s", f->params[p].name, type_name(t->kind));
            }
            printf("\n");
        }
}

/* ---------------------------------------------------------------- manifest */

/* Value of NAME in "a=1,b=2" (NULL if absent), into buf. */
static const char *lookup_kv(const char *list, const char *name, char *buf, size_t buflen)
{
    size_t nl = strlen(name);
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (eq && (size_t)(eq - p) == nl && strncmp(p, name, nl) == 0) {
            size_t vl = (size_t)(end - eq - 1);
            if (vl >= buflen) vl = buflen - 1;
            memcpy(buf, eq + 1, vl);
            buf[vl] = '\0';
            return buf;
        }
        p = *end ? end + 1 : end;
    }
    return NULL;
}

/* Every NAME of "a=1,b=2" must be one of the allowed ones (allowed(name) true). */
typedef bool (*AllowFn)(const TirFunc *f, const char *name, size_t len);

static void check_keys(const char *where, const char *list, const TirFunc *f, AllowFn allowed, const char *what)
{
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (!eq) die("%s: '%.*s' in the %s is not NAME=VALUE", where, (int)(end - p), p, what);
        if (!allowed(f, p, (size_t)(eq - p))) die("%s: kernel %s has no %s '%.*s'", where, f->name, what, (int)(eq - p), p);
        p = *end ? end + 1 : end;
    }
}

static bool is_size(const TirFunc *f, const char *n, size_t len)
{
    for (unsigned k = 0; f->sizes && k < f->sizes->count; k++)
        if (strlen(f->sizes->names[k]) == len && strncmp(f->sizes->names[k], n, len) == 0) return true;
    return false;
}

static bool is_scalar(const TirFunc *f, const char *n, size_t len)
{
    for (unsigned p = 0; p < f->nparams; p++)
        if (f->params[p].type->kind != TK_TY_GL && strlen(f->params[p].name) == len && strncmp(f->params[p].name, n, len) == 0) return true;
    return false;
}

static bool is_option(const TirFunc *f, const char *n, size_t len)
{
    static const char *const opts[] = { "gen", "lo", "hi", "pick", "seed", "rtol", "atol", "ulps", "xfail", "tol" };
    for (unsigned k = 0; k < sizeof opts / sizeof opts[0]; k++)
        if (strlen(opts[k]) == len && strncmp(opts[k], n, len) == 0) return true;
    /* TENSOR.rtol / .atol / .ulps / .value / .gen / .lo / .hi / .pick / .nan_rows */
    static const char *const per_tensor[] = { "rtol", "atol", "ulps", "value", "gen", "lo", "hi", "pick", "nan_rows" };
    const char *dot = memchr(n, '.', len);
    if (!dot) return false;
    size_t tl = (size_t)(dot - n), rl = len - tl - 1;
    bool known = false;
    for (unsigned k = 0; k < sizeof per_tensor / sizeof per_tensor[0]; k++)
        if (strlen(per_tensor[k]) == rl && strncmp(per_tensor[k], dot + 1, rl) == 0) known = true;
    if (!known) return false;
    for (unsigned p = 0; p < f->nparams; p++)
        if (f->params[p].type->kind == TK_TY_GL && strlen(f->params[p].name) == tl && strncmp(f->params[p].name, n, tl) == 0) return true;
    return false;
}

static double parse_double(const char *where, const char *s)
{
    if (strcmp(s, "true") == 0) return 1;
    if (strcmp(s, "false") == 0) return 0;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0') die("%s: '%s' is not a number", where, s);
    return v;
}

/* The input generator options with this prefix ("" for the case, "X." for
 * tensor X) applied over g: gen=, lo=, hi=, pick=. */
static void apply_gen_options(const char *where, const char *opts_s, const char *prefix, Gen *g)
{
    char key[300], buf[256];
    snprintf(key, sizeof key, "%sgen", prefix);
    if (lookup_kv(opts_s, key, buf, sizeof buf)) {
        if (strcmp(buf, "uniform") == 0) g->kind = GEN_UNIFORM;
        else if (strcmp(buf, "specials") == 0) g->kind = GEN_SPECIALS;
        else if (strcmp(buf, "wide") == 0) g->kind = GEN_WIDE;
        else if (strcmp(buf, "ties") == 0) g->kind = GEN_TIES;
        else if (strcmp(buf, "subnormal") == 0) g->kind = GEN_SUBNORMAL;
        else die("%s: unknown %s=%s (uniform, specials, wide, ties, subnormal; or pick=A:B:...)", where, key, buf);
    }
    snprintf(key, sizeof key, "%slo", prefix);
    if (lookup_kv(opts_s, key, buf, sizeof buf)) g->lo = parse_double(where, buf);
    snprintf(key, sizeof key, "%shi", prefix);
    if (lookup_kv(opts_s, key, buf, sizeof buf)) g->hi = parse_double(where, buf);
    if (!(g->lo <= g->hi)) die("%s: the input range [%g, %g] is empty", where, g->lo, g->hi);
    snprintf(key, sizeof key, "%spick", prefix);
    if (lookup_kv(opts_s, key, buf, sizeof buf)) {
        g->kind = GEN_PICK;
        g->npick = 0;
        for (char *save = NULL, *v = strtok_r(buf, ":", &save); v; v = strtok_r(NULL, ":", &save)) {
            if (g->npick == MAX_PICK) die("%s: %s= has more than %d values", where, key, MAX_PICK);
            g->pick[g->npick++] = parse_double(where, v);
        }
        if (g->npick == 0) die("%s: %s= needs values, e.g. %s=0:-inf", where, key, key);
    }
}

typedef struct {
    const char *kernel_names[4096];
    unsigned nkernels;
} Seen;

static Seen seen;

static void mark_seen(const char *name)
{
    for (unsigned k = 0; k < seen.nkernels; k++)
        if (strcmp(seen.kernel_names[k], name) == 0) return;
    if (seen.nkernels < sizeof seen.kernel_names / sizeof seen.kernel_names[0]) seen.kernel_names[seen.nkernels++] = name;
}

/* ---------------------------------------------------------------- oracles */

typedef enum { ORACLE_INTERP, ORACLE_REFERENCE } Oracle;

static Oracle oracle = ORACLE_INTERP;

#ifdef TK_GEN_REFERENCES
/* The C reference of f's kernel on the case's values: it reads the inputs in
 * vals and overwrites the outputs there, as the interpreter does. */
static void run_reference(const char *where, const TirFunc *f, double **vals, const int64_t *count, const TkArg *args, const double *scal,
                          const int64_t *sizes)
{
    tk_ref_fn fn = tk_ref_find(f->name);
    if (!fn) die("%s: kernel %s has no reference: add one to the table of its family (tests/stdlib/ref_FAMILY.c)", where, f->name);
    TkRefTensor tensors[MAX_PARAMS];
    TkRefValue scalars[MAX_PARAMS], sizev[TK_MAX_SIZES];
    TkRefCall call = { .kernel = f->name, .tensors = tensors, .scalars = scalars, .sizes = sizev };
    for (unsigned p = 0; p < f->nparams; p++) {
        const TkType *t = f->params[p].type;
        if (t->kind != TK_TY_GL) {
            scalars[call.nscalars++] = (TkRefValue){ .name = f->params[p].name, .value = scal[p] };
            continue;
        }
        if (t->rank > TK_REF_MAX_RANK) die("%s: tensor %s has rank %u", where, f->params[p].name, t->rank);
        TkRefTensor *r = &tensors[call.ntensors++];
        *r = (TkRefTensor){ .name = f->params[p].name, .rank = t->rank, .count = count[p], .data = vals[p] };
        for (unsigned d = 0; d < t->rank; d++) r->shape[d] = args[p].shape[d];
    }
    for (unsigned k = 0; f->sizes && k < f->sizes->count; k++)
        sizev[call.nsizes++] = (TkRefValue){ .name = f->sizes->names[k], .value = (double)sizes[k] };
    const char *why = fn(&call);
    if (why) die("%s: the reference of %s cannot compute this case: %s", where, f->name, why);
}

/* Every reference names a kernel once across the family tables. */
static void check_reference_tables(void)
{
    for (unsigned a = 0; tk_ref_tables[a]; a++)
        for (const TkRefKernel *r = tk_ref_tables[a]; r->kernel; r++)
            for (unsigned b = 0; b <= a; b++)
                for (const TkRefKernel *q = tk_ref_tables[b]; q->kernel && !(b == a && q == r); q++)
                    if (strcmp(q->kernel, r->kernel) == 0) die("two references for kernel %s in the tables of tests/stdlib/ref_*.c", r->kernel);
}
#else
static void run_reference(const char *where, const TirFunc *f, double **vals, const int64_t *count, const TkArg *args, const double *scal,
                          const int64_t *sizes)
{
    (void)f, (void)vals, (void)count, (void)args, (void)scal, (void)sizes;
    die("%s: this generator has no references (build tk_stdlib_gen for --oracle=reference)", where);
}
#endif

/* One case: generate, run the oracle, write. Returns the number of elements written. */
static int64_t do_case(const char *where, const char *file, const char *kname, const char *sizes_s, const char *sets_s, const char *opts_s,
                       const char *desc)
{
    const Program *prog = NULL;
    for (unsigned i = 0; i < nprograms; i++)
        if (strcmp(programs[i].name, file) == 0) prog = &programs[i];
    if (!prog) die("%s: no kernel file %s", where, file);
    const TirFunc *f = NULL;
    for (const TirFunc *k = prog->m.funcs; k; k = k->next)
        if (strcmp(k->name, kname) == 0) f = k;
    if (!f) die("%s: %s has no kernel %s", where, file, kname);
    if (f->nparams > MAX_PARAMS) die("%s: too many parameters", where);
    mark_seen(f->name);
    check_keys(where, sizes_s, f, is_size, "size");
    check_keys(where, sets_s, f, is_scalar, "scalar parameter");
    check_keys(where, opts_s, f, is_option, "option (or tensor, in TENSOR.rtol/atol/ulps/value/gen/lo/hi/pick/nan_rows)");

    /* sizes */
    unsigned nsizes = f->sizes ? f->sizes->count : 0;
    int64_t sizes[TK_MAX_SIZES] = { 0 };
    char buf[256];
    for (unsigned k = 0; k < nsizes; k++) {
        const char *v = lookup_kv(sizes_s, f->sizes->names[k], buf, sizeof buf);
        if (!v) die("%s: the sizes must give %s", where, f->sizes->names[k]);
        char *end;
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (*end || errno || x < 0 || x > INT32_MAX) die("%s: size %s=%s is not a size", where, f->sizes->names[k], v);
        sizes[k] = x;
    }

    /* options */
    Gen gen = { .kind = GEN_UNIFORM, .lo = -1, .hi = 1 };
    apply_gen_options(where, opts_s, "", &gen);
    char seedkey[1024];
    snprintf(seedkey, sizeof seedkey, "%s %s %s %s", file, kname, sizes_s, sets_s);
    uint64_t rng = gen_hash_str(seedkey);
    if (lookup_kv(opts_s, "seed", buf, sizeof buf)) rng = strtoull(buf, NULL, 0) | 1;
    char xfail[256] = "";
    {
        /* xfail may be given more than once */
        const char *p = opts_s;
        while (*p) {
            const char *end = strchr(p, ',');
            if (!end) end = p + strlen(p);
            if ((size_t)(end - p) > 6 && strncmp(p, "xfail=", 6) == 0) {
                size_t l = strlen(xfail);
                snprintf(xfail + l, sizeof xfail - l, "%s%.*s", l ? " " : "", (int)(end - p - 6), p + 6);
            }
            p = *end ? end + 1 : end;
        }
    }

    /* arguments */
    void *data[MAX_PARAMS] = { 0 };
    double *vals[MAX_PARAMS] = { 0 };
    double scal[MAX_PARAMS] = { 0 };
    unsigned char smem[MAX_PARAMS][8];
    unsigned sbytes[MAX_PARAMS] = { 0 };
    int64_t count[MAX_PARAMS] = { 0 };
    TkArg args[MAX_PARAMS];
    memset(args, 0, sizeof args);
    memset(smem, 0, sizeof smem);
    for (unsigned p = 0; p < f->nparams; p++) {
        const TkType *t = f->params[p].type;
        if (t->kind == TK_TY_GL) {
            if (t->elem != TK_TY_F32 && t->elem != TK_TY_BF16 && t->elem != TK_TY_F16)
                die("%s: tensor %s has element type %s (f32, bf16, f16 supported)", where, f->params[p].name, type_name(t->elem));
            int64_t n = tir_tensor_elements(f, p, sizes);
            if (n < 0 || n > ((int64_t)1 << 26)) die("%s: tensor %s has %lld elements", where, f->params[p].name, (long long)n);
            count[p] = n;
            data[p] = malloc((size_t)(n > 0 ? n : 1) * tir_elem_size(t->elem));
            vals[p] = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
            if (!data[p] || !vals[p]) die("out of memory");
            char key[300];
            snprintf(key, sizeof key, "%s.", f->params[p].name);
            Gen tgen = gen;
            apply_gen_options(where, opts_s, key, &tgen);
            snprintf(key, sizeof key, "%s.value", f->params[p].name);
            bool constant = lookup_kv(opts_s, key, buf, sizeof buf) != NULL;
            double value = constant ? parse_double(where, buf) : 0;
            args[p].data = data[p];
            args[p].rank = t->rank;
            for (unsigned d = 0; d < t->rank; d++) args[p].shape[d] = tir_tensor_dim(f, p, d, sizes);
            /* rows from nan_rows on (second-to-last axis) are NaN */
            snprintf(key, sizeof key, "%s.nan_rows", f->params[p].name);
            int64_t nan_from = -1, rows = 1, cols = 1;
            if (lookup_kv(opts_s, key, buf, sizeof buf)) {
                if (t->rank < 2) die("%s: %s has rank %u (nan_rows needs rank >= 2)", where, key, t->rank);
                nan_from = (int64_t)parse_double(where, buf);
                rows = args[p].shape[t->rank - 2];
                cols = args[p].shape[t->rank - 1];
            }
            for (int64_t i = 0; i < n; i++) {
                bool nan_row = nan_from >= 0 && cols > 0 && (i / cols) % rows >= nan_from;
                tir_elem_set(t->elem, data[p], i, nan_row ? NAN : constant ? value : gen_value(&tgen, i, &rng));
                vals[p][i] = tir_elem_get(t->elem, data[p], i);   /* exactly what the kernel gets */
            }
            continue;
        }
        /* scalars: 1 for numbers, false for bool, unless given */
        const char *v = lookup_kv(sets_s, f->params[p].name, buf, sizeof buf);
        double x = t->kind == TK_TY_BOOL ? 0 : 1;
        switch (t->kind) {
        case TK_TY_BOOL: {
            if (v) x = parse_double(where, v) != 0;
            smem[p][0] = x != 0;
            sbytes[p] = 1;
            break;
        }
        case TK_TY_I32:
        case TK_TY_I64: {
            long long iv = 1;
            if (v) {
                char *end;
                errno = 0;
                iv = strtoll(v, &end, 10);
                if (*end || errno) die("%s: %s=%s is not an integer", where, f->params[p].name, v);
            }
            if (t->kind == TK_TY_I32) {
                if (iv < INT32_MIN || iv > INT32_MAX) die("%s: %s=%s is not an i32", where, f->params[p].name, v);
                int32_t y = (int32_t)iv;
                memcpy(smem[p], &y, 4);
                sbytes[p] = 4;
            } else {
                int64_t y = iv;
                memcpy(smem[p], &y, 8);
                sbytes[p] = 8;
            }
            x = (double)iv;
            /* the interpreter takes doubles: an i64 it cannot hold exactly would give another reference */
            if (x >= 0x1p63 || (long long)x != iv) die("%s: %s=%s is not exact in double", where, f->params[p].name, v);
            break;
        }
        case TK_TY_F32: {
            if (v) x = parse_double(where, v);
            float y = (float)x;
            memcpy(smem[p], &y, 4);
            sbytes[p] = 4;
            x = y;
            break;
        }
        case TK_TY_BF16: {
            if (v) x = parse_double(where, v);
            uint16_t y = tk_bf16_from_f32((float)x);
            memcpy(smem[p], &y, 2);
            sbytes[p] = 2;
            x = tk_bf16_to_f32(y);
            break;
        }
        case TK_TY_F16: {
            if (v) x = parse_double(where, v);
            uint16_t y = tk_f16_from_f32((float)x);
            memcpy(smem[p], &y, 2);
            sbytes[p] = 2;
            x = tk_f16_to_f32(y);
            break;
        }
        default: die("%s: parameter %s has an unsupported type", where, f->params[p].name);
        }
        scal[p] = x;
        args[p].data = smem[p];
    }
    char err[512] = "";
    int64_t bound[TK_MAX_SIZES];
    if (tir_bind_sizes(f, args, f->nparams, bound, err, sizeof err) != 0) die("%s: %s", where, err);
    for (unsigned k = 0; k < nsizes; k++)
        if (bound[k] != sizes[k]) die("%s: size %s binds to %lld, not %lld", where, f->sizes->names[k], (long long)bound[k], (long long)sizes[k]);
    double *bounds[MAX_PARAMS] = { 0 };
    bool with_bounds = lookup_kv(opts_s, "tol", buf, sizeof buf) != NULL;
    if (with_bounds && strcmp(buf, "bounds") != 0) die("%s: tol=%s: the only tolerance mode is tol=bounds", where, buf);
    if (with_bounds && oracle != ORACLE_INTERP) die("%s: tol=bounds needs --oracle=interp", where);
    for (unsigned p = 0; with_bounds && p < f->nparams; p++)
        if (f->params[p].type->kind == TK_TY_GL && !(bounds[p] = calloc((size_t)(count[p] > 0 ? count[p] : 1), sizeof(double)))) die("out of memory");
    if (oracle == ORACLE_REFERENCE) {
        run_reference(where, f, vals, count, args, scal, sizes);
    } else if (with_bounds) {
        TirInterpBounds b = { .err = bounds };
        if (tir_interp_run_bounded(f, vals, &b, scal, sizes, err, sizeof err) != 0) die("%s: the interpreter failed: %s", where, err);
        if (b.unreliable) die("%s: the error bounds of this case are unreliable: %s", where, b.why);
    } else if (tir_interp_run(f, vals, scal, sizes, err, sizeof err) != 0) {
        die("%s: the interpreter failed: %s", where, err);
    }

    /* write */
    put_str(f->name);
    put_str(desc);
    put_str(xfail);
    put_u32(nsizes);
    for (unsigned k = 0; k < nsizes; k++) put_i64(sizes[k]);
    put_u32(f->nparams);
    int64_t elements = 0;
    for (unsigned p = 0; p < f->nparams; p++) {
        const TkType *t = f->params[p].type;
        put_str(f->params[p].name);
        if (t->kind != TK_TY_GL) {
            put_u8(1);
            put_u8(type_code(t->kind));
            put_u32(sbytes[p]);
            put_bytes(smem[p], sbytes[p]);
            continue;
        }
        put_u8(0);
        put_u8(type_code(t->elem));
        put_u32(t->rank);
        for (unsigned d = 0; d < t->rank; d++) put_i64(args[p].shape[d]);
        put_i64(count[p]);
        Tol tol = with_bounds ? (Tol){ 0 } : gen_default_tol(t->elem, gen.kind);
        if (lookup_kv(opts_s, "rtol", buf, sizeof buf)) tol.rtol = parse_double(where, buf);
        if (lookup_kv(opts_s, "atol", buf, sizeof buf)) tol.atol = parse_double(where, buf);
        if (lookup_kv(opts_s, "ulps", buf, sizeof buf)) tol.ulps = (unsigned)parse_double(where, buf);
        char key[300];
        snprintf(key, sizeof key, "%s.rtol", f->params[p].name);
        if (lookup_kv(opts_s, key, buf, sizeof buf)) tol.rtol = parse_double(where, buf);
        snprintf(key, sizeof key, "%s.atol", f->params[p].name);
        if (lookup_kv(opts_s, key, buf, sizeof buf)) tol.atol = parse_double(where, buf);
        snprintf(key, sizeof key, "%s.ulps", f->params[p].name);
        if (lookup_kv(opts_s, key, buf, sizeof buf)) tol.ulps = (unsigned)parse_double(where, buf);
        put_f64(tol.rtol);
        put_f64(tol.atol);
        put_u32(tol.ulps);
        put_u8(with_bounds);
        for (int64_t i = 0; i < count[p]; i++) {
            if (t->elem == TK_TY_F32) put_f32(((const float *)data[p])[i]);
            else put_u16(((const uint16_t *)data[p])[i]);
        }
        for (int64_t i = 0; i < count[p]; i++) put_f64(vals[p][i]);
        /* the kernel's f32 is compared with the interpreter's double rounded to f32: half an ulp more */
        for (int64_t i = 0; with_bounds && i < count[p]; i++)
            put_f64(bounds[p][i] + (t->elem == TK_TY_F32 && isfinite(vals[p][i]) ? 0x1p-24 * fabs(vals[p][i]) : 0));
        free(bounds[p]);
        elements += count[p];
        free(data[p]);
        free(vals[p]);
    }
    return elements;
}

/* ---------------------------------------------------------------- main */

static void write_registry(const char *path, const char *kdir)
{
    FILE *fp = fopen(path, "w");
    if (!fp) die("cannot write %s: %s", path, strerror(errno));
    fprintf(fp, "/* Generated by %s from %s: every kernel's functions\n"
                " * (tk/rt.h calling convention), as the objects of `tkc -c` define them. */\n"
                "#include <stddef.h>\n#include \"tk/rt.h\"\n\n", gen_name, kdir);
    unsigned n = 0;
    for (unsigned i = 0; i < nprograms; i++)
        for (const TirFunc *f = programs[i].m.funcs; f; f = f->next) {
            fprintf(fp, "void %s__grid(void **args, const int64_t *sizes, int64_t grid[4]);\n", f->name);
            fprintf(fp, "void %s__block(void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz);\n", f->name);
            n++;
        }
    fprintf(fp, "\ntypedef struct {\n    const char *name;\n    tk_grid_fn grid;\n    tk_block_fn block;\n} TkCrossKernel;\n\n");
    fprintf(fp, "const TkCrossKernel tk_cross_kernels[] = {\n");
    for (unsigned i = 0; i < nprograms; i++)
        for (const TirFunc *f = programs[i].m.funcs; f; f = f->next)
            fprintf(fp, "    { \"%s\", %s__grid, %s__block },   /* %s */\n", f->name, f->name, f->name, programs[i].name);
    fprintf(fp, "};\nconst size_t tk_cross_nkernels = %u;\n", n);
    if (fclose(fp) != 0) die("cannot write %s", path);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t l = strlen(s);
    while (l && (s[l - 1] == '\n' || s[l - 1] == '\r' || s[l - 1] == ' ' || s[l - 1] == '\t')) s[--l] = '\0';
    return s;
}

/* The cases of one manifest file; returns the number of cases, adds their elements. */
static unsigned read_manifest(const char *manifest, int64_t *elements)
{
    FILE *mf = fopen(manifest, "r");
    if (!mf) die("cannot read %s: %s", manifest, strerror(errno));
    char line[4096];
    unsigned lineno = 0, ncases = 0;
    while (fgets(line, sizeof line, mf)) {
        lineno++;
        char where[4200];
        snprintf(where, sizeof where, "%s:%u", manifest, lineno);
        if (!strchr(line, '\n') && !feof(mf)) die("%s: line longer than %zu characters", where, sizeof line - 2);
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = trim(line);
        if (!*s) continue;
        char *field[6] = { 0 };
        unsigned nf = 0;
        char *save = NULL;
        for (char *tok = strtok_r(s, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
            if (nf == 5) die("%s: too many fields (FILE KERNEL SIZES SCALARS [OPTIONS])", where);
            field[nf++] = tok;
        }
        if (nf < 4) die("%s: want FILE KERNEL SIZES SCALARS [OPTIONS]", where);
        const char *sizes_s = strcmp(field[2], "-") == 0 ? "" : field[2];
        const char *sets_s = strcmp(field[3], "-") == 0 ? "" : field[3];
        const char *opts_s = nf > 4 ? field[4] : "";
        char desc[4200];
        snprintf(desc, sizeof desc, "%s %s %s %s%s%s", field[0], field[1], field[2], field[3], nf > 4 ? " " : "", nf > 4 ? field[4] : "");
        *elements += do_case(where, field[0], field[1], sizes_s, sets_s, opts_s, desc);
        ncases++;
    }
    fclose(mf);
    return ncases;
}

#define MAX_MANIFESTS 64

int main(int argc, char **argv)
{
    const char *slash = strrchr(argv[0], '/');
    gen_name = slash ? slash + 1 : argv[0];
    const char *manifests[MAX_MANIFESTS];
    unsigned nmanifests = 0;
    const char *kdir = NULL, *data = NULL, *registry = NULL, *list = NULL;
    for (int i = 1; i < argc; i++) {
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--manifest") == 0 && next) {
            if (nmanifests == MAX_MANIFESTS) die("more than %d --manifest files", MAX_MANIFESTS);
            manifests[nmanifests++] = argv[++i];
        } else if (strcmp(argv[i], "--kernels") == 0 && next) kdir = argv[++i];
        else if (strcmp(argv[i], "--data") == 0 && next) data = argv[++i];
        else if (strcmp(argv[i], "--registry") == 0 && next) registry = argv[++i];
        else if (strcmp(argv[i], "--list") == 0 && next) list = argv[++i];
        else if (strcmp(argv[i], "--oracle=interp") == 0) oracle = ORACLE_INTERP;
        else if (strcmp(argv[i], "--oracle=reference") == 0) oracle = ORACLE_REFERENCE;
        else {
            fprintf(stderr, "usage: %s [--oracle=interp|reference] --manifest FILE [--manifest FILE ...] --kernels DIR\n"
                            "           --data OUT.dat --registry OUT.c\n"
                            "       %s --list DIR\n", gen_name, gen_name);
            return 2;
        }
    }
    if (list) {
        load_programs(list);
        list_kernels();
        return 0;
    }
    if (!nmanifests || !kdir || !data || !registry) die("missing arguments (--manifest, --kernels, --data, --registry)");
#ifdef TK_GEN_REFERENCES
    if (oracle == ORACLE_REFERENCE) check_reference_tables();
#else
    if (oracle == ORACLE_REFERENCE) die("--oracle=reference: this generator has no references (use tk_stdlib_gen)");
#endif
    load_programs(kdir);
    /* written to a temporary name and renamed at the end: never a half-written data file */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", data);
    out_data = fopen(tmp, "wb");
    snprintf(tmp_data, sizeof tmp_data, "%s", tmp);
    if (!out_data) die("cannot write %s: %s", tmp, strerror(errno));
    put_bytes("TKCROSS2", 8);
    put_u32(0);   /* number of cases, patched below */
    unsigned ncases = 0;
    int64_t elements = 0;
    for (unsigned m = 0; m < nmanifests; m++) ncases += read_manifest(manifests[m], &elements);
    /* every kernel has a case */
    unsigned missing = 0;
    for (unsigned i = 0; i < nprograms; i++)
        for (const TirFunc *f = programs[i].m.funcs; f; f = f->next) {
            bool found = false;
            for (unsigned k = 0; k < seen.nkernels; k++)
                if (strcmp(seen.kernel_names[k], f->name) == 0) found = true;
            if (!found) {
                fprintf(stderr, "%s: kernel %s of %s has no case\n", gen_name, f->name, programs[i].name);
                missing++;
            }
        }
    if (missing) die("%u kernels without a case: add lines for them to %s", missing, nmanifests > 1 ? "the manifest of their family" : manifests[0]);
    if (fseek(out_data, 8, SEEK_SET) != 0) die("cannot seek in %s", tmp);
    put_u32(ncases);
    if (fclose(out_data) != 0) die("cannot write %s", tmp);
    if (rename(tmp, data) != 0) die("cannot rename %s to %s: %s", tmp, data, strerror(errno));
    tmp_data[0] = '\0';
    write_registry(registry, kdir);
    printf("%s: %u cases, %u kernels in %u files, %lld tensor elements\n", gen_name, ncases, seen.nkernels, nprograms, (long long)elements);
    for (unsigned i = 0; i < nprograms; i++) tk_front_free(&programs[i].fe);
    return 0;
}
