/* run_args.c — the arguments of one `tkc run` launch: tensors from --input
 * files or seeded random values (--dist, --seed), scalars from --set; and
 * writing the tensors back out (--output-dir). */
#define _DEFAULT_SOURCE   /* madvise(MADV_HUGEPAGE) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "npy_codec.h"
#include "run_internal.h"
#include "tk/dtype.h"

/* ---------------------------------------------------------------- random values */

static unsigned long long splitmix(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static unsigned long long rng_next(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static double uniform01(unsigned long long *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }   /* [0, 1) */

static double draw(const RunDist *d, unsigned long long *s)
{
    switch (d->kind) {
    case DIST_UNIFORM: return d->a + (d->b - d->a) * uniform01(s);
    case DIST_NORMAL: {   /* Box–Muller; 1 - u keeps the log finite */
        double u = 1.0 - uniform01(s), v = uniform01(s);
        return d->a + d->b * sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
    }
    case DIST_INTS: return d->a + floor((d->b - d->a + 1) * uniform01(s));
    }
    return 0;
}

/* The --dist for tensor `name`: its own, else `*`, else uniform:-1,1. */
static RunDist dist_for(const RunOptions *o, const char *name)
{
    RunDist d = { DIST_UNIFORM, -1, 1 };
    for (int i = 0; i < o->ndists; i++)
        if (strcmp(o->dists[i].name, "*") == 0) d = o->dist_of[i];
    for (int i = 0; i < o->ndists; i++)
        if (strcmp(o->dists[i].name, name) == 0) d = o->dist_of[i];
    return d;
}

/* ---------------------------------------------------------------- names and files */

int run_find_tensor(const TirFunc *f, const char *name, const char *option, char *err, size_t errlen)
{
    for (unsigned p = 0; p < f->nparams; p++)
        if (strcmp(f->params[p].name, name) == 0) {
            if (f->params[p].type->kind == TK_TY_GL) return (int)p;
            snprintf(err, errlen, "%s %s: %s is a scalar parameter of kernel %s (set it with --set %s=VALUE)", option, name, name,
                     f->display, name);
            return -1;
        }
    size_t o = (size_t)snprintf(err, errlen, "%s %s: kernel %s has no tensor parameter '%s' (its tensors:", option, name, f->display, name);
    for (unsigned p = 0; p < f->nparams && o < errlen; p++)
        if (f->params[p].type->kind == TK_TY_GL) o += (size_t)snprintf(err + o, errlen - o, " %s", f->params[p].name);
    if (o < errlen) snprintf(err + o, errlen - o, ")");
    return -1;
}

/* Reads `path` for tensor parameter p and checks its shape against the bound one. */
static int read_for_tensor(const char *option, const char *path, const TirFunc *f, unsigned p, const int64_t *sizes,
                           TkNpyArray *a, char *err, size_t errlen)
{
    char why[400];
    if (tk_npy_read(path, a, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s %s: %s", option, f->params[p].name, why);
        return -1;
    }
    if (!tk_npy_is_floatlike(a->dtype)) {
        snprintf(err, errlen, "%s %s: %s: dtype '%s' is not supported; tkc reads <f4, <f8, <f2 and <u2 (bf16/f16 bit patterns)",
                 option, f->params[p].name, path, tk_npy_dtype_name(a->dtype));
        tk_npy_free(a);
        return -1;
    }
    const TkType *t = f->params[p].type;
    int64_t want[TK_GL_MAX_RANK];
    bool same = a->rank == t->rank;
    for (unsigned d = 0; d < t->rank; d++) {
        want[d] = tir_tensor_dim(f, p, d, sizes);
        if (same && a->shape[d] != want[d]) same = false;
    }
    if (!same) {
        char have[160], need[160];
        tk_npy_format_shape(a->shape, a->rank, have, sizeof have);
        tk_npy_format_shape(want, t->rank, need, sizeof need);
        snprintf(err, errlen, "%s %s=%s: the file's shape %s does not match tensor %s's shape %s", option, f->params[p].name, path,
                 have, f->params[p].name, need);
        tk_npy_free(a);
        return -1;
    }
    if (a->dtype == TK_NPY_U16 && t->elem == TK_TY_F32) {
        snprintf(err, errlen, "%s %s=%s: <u2 holds bf16/f16 bit patterns, but tensor %s is f32 (save <f4)", option,
                 f->params[p].name, path, f->params[p].name);
        tk_npy_free(a);
        return -1;
    }
    return 0;
}

/* Element i of a file for a tensor of type elem, as the tensor holds it
 * (rounded to elem, nearest even: through f32, as everywhere in TileKit). */
static double file_value(const TkNpyArray *a, TkTypeKind elem, int64_t i)
{
    double v = tk_npy_get(a, i);
    if (a->dtype != TK_NPY_U16) return v;
    uint16_t bits = (uint16_t)v;
    return elem == TK_TY_BF16 ? tk_bf16_to_f32(bits) : tk_f16_to_f32(bits);
}

int run_read_npy_values(const char *path, const TirFunc *f, unsigned p, const int64_t *sizes, double *out, char *err,
                        size_t errlen)
{
    TkNpyArray a;
    if (read_for_tensor("--expect", path, f, p, sizes, &a, err, errlen) != 0) return -1;
    for (int64_t i = 0; i < a.count; i++) out[i] = file_value(&a, f->params[p].type->elem, i);
    tk_npy_free(&a);
    return 0;
}

static int load_input(const char *path, const TirFunc *f, unsigned p, const int64_t *sizes, void *data, char *err, size_t errlen)
{
    TkNpyArray a;
    if (read_for_tensor("--input", path, f, p, sizes, &a, err, errlen) != 0) return -1;
    TkTypeKind elem = f->params[p].type->elem;
    if (a.dtype == TK_NPY_U16 || (a.dtype == TK_NPY_F16 && elem == TK_TY_F16) || (a.dtype == TK_NPY_F32 && elem == TK_TY_F32))
        memcpy(data, a.data, (size_t)a.count * tir_elem_size(elem));   /* the tensor's own representation */
    else
        for (int64_t i = 0; i < a.count; i++) tir_elem_set(elem, data, i, file_value(&a, elem, i));
    tk_npy_free(&a);
    return 0;
}

int run_write_outputs(const char *dir, const TirFunc *f, const RunArgs *A, char *err, size_t errlen)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "--output-dir: cannot create '%s': %s", dir, strerror(errno));
        return -1;
    }
    for (unsigned p = 0; p < f->nparams; p++) {
        const TkType *t = f->params[p].type;
        if (t->kind != TK_TY_GL) continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s.npy", dir, f->params[p].name) >= (int)sizeof path) {
            snprintf(err, errlen, "--output-dir: path too long");
            return -1;
        }
        int64_t shape[TK_GL_MAX_RANK];
        for (unsigned d = 0; d < t->rank; d++) shape[d] = A->args[p].shape[d];
        int rc;
        if (t->elem == TK_TY_BF16) {   /* NumPy has no bf16: write the exact f32 values */
            float *wide = malloc(sizeof(float) * (size_t)(A->count[p] ? A->count[p] : 1));
            if (!wide) {
                snprintf(err, errlen, "--output-dir: out of memory");
                return -1;
            }
            for (int64_t i = 0; i < A->count[p]; i++) wide[i] = (float)tir_elem_get(t->elem, A->data[p], i);
            rc = tk_npy_write(path, TK_NPY_F32, shape, t->rank, wide, err, errlen);
            free(wide);
        } else {
            rc = tk_npy_write(path, t->elem == TK_TY_F16 ? TK_NPY_F16 : TK_NPY_F32, shape, t->rank, A->data[p], err, errlen);
        }
        if (rc != 0) return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the arguments */

void run_free_args(RunArgs *A)
{
    for (unsigned p = 0; p < A->n; p++) {
        free(A->data[p]);
        free(A->initial[p]);
    }
    memset(A, 0, sizeof *A);
}

/* A tensor's memory, as the bench's peer drivers get theirs (bench/peers/
 * driver.c): from 4 MiB up, 2 MiB aligned and backed by huge pages where the
 * kernel offers them (madvise mode), so that streaming a weight matrix is not
 * a TLB miss every 4 KiB; else 64-byte aligned. Freed with free(). */
static void *alloc_tensor(size_t bytes)
{
    void *p = NULL;
    size_t big = (size_t)4 << 20, align = bytes >= big ? (size_t)2 << 20 : 64;
    if (posix_memalign(&p, align, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= big) (void)madvise(p, bytes, MADV_HUGEPAGE);   /* advice only: 4 KiB pages otherwise */
#endif
    return p;
}

static const char *input_file(const RunOptions *o, const char *name)
{
    for (int i = 0; i < o->ninputs; i++)
        if (strcmp(o->inputs[i].name, name) == 0) return o->inputs[i].value;
    return NULL;
}

static int set_scalar(const RunOptions *o, const TirFunc *f, unsigned p, RunArgs *A)
{
    const TkType *t = f->params[p].type;
    double v = t->kind == TK_TY_BOOL ? 0 : 1;
    size_t len = strlen(f->params[p].name);
    for (int s = 0; s < o->nsets; s++)
        if (strncmp(o->sets[s], f->params[p].name, len) == 0 && o->sets[s][len] == '=') {
            const char *val = o->sets[s] + len + 1;
            char *stop;
            v = strcmp(val, "true") == 0 ? 1 : strcmp(val, "false") == 0 ? 0 : strtod(val, &stop);
            if (strcmp(val, "true") != 0 && strcmp(val, "false") != 0 && (stop == val || *stop)) return -1;
        }
    A->scalar[p] = v;
    switch (t->kind) {
    case TK_TY_BOOL: A->scalar_mem[p][0] = v != 0; A->scalar[p] = v != 0; break;
    case TK_TY_I32: { int32_t x = (int32_t)v; memcpy(A->scalar_mem[p], &x, 4); A->scalar[p] = x; break; }
    case TK_TY_I64: { int64_t x = (int64_t)v; memcpy(A->scalar_mem[p], &x, 8); A->scalar[p] = (double)x; break; }
    case TK_TY_F32: { float x = (float)v; memcpy(A->scalar_mem[p], &x, 4); A->scalar[p] = x; break; }
    case TK_TY_BF16: { uint16_t x = tk_bf16_from_f32((float)v); memcpy(A->scalar_mem[p], &x, 2); A->scalar[p] = tk_bf16_to_f32(x); break; }
    case TK_TY_F16: { uint16_t x = tk_f16_from_f32((float)v); memcpy(A->scalar_mem[p], &x, 2); A->scalar[p] = tk_f16_to_f32(x); break; }
    default: break;
    }
    A->args[p].data = A->scalar_mem[p];
    return 0;
}

int run_make_args(const RunOptions *o, const TirFunc *f, const int64_t *sizes, RunArgs *A, char *err, size_t errlen)
{
    memset(A, 0, sizeof *A);
    if (f->nparams > RUN_MAX_PARAMS) {
        snprintf(err, errlen, "kernel %s has more than %d parameters", f->display, RUN_MAX_PARAMS);
        return RUN_USAGE;
    }
    /* every NAME must be a tensor of this kernel, before anything is allocated */
    const RunNamed *lists[] = { o->inputs, o->expects, o->dists };
    const int counts[] = { o->ninputs, o->nexpects, o->ndists };
    for (unsigned l = 0; l < 3; l++)
        for (int i = 0; i < counts[l]; i++)
            if (!(l == 2 && strcmp(lists[l][i].name, "*") == 0) && run_find_tensor(f, lists[l][i].name, lists[l][i].option, err, errlen) < 0)
                return RUN_USAGE;
    for (int s = 0; s < o->nsets; s++) {
        bool found = false;
        for (unsigned p = 0; p < f->nparams; p++) {
            size_t len = strlen(f->params[p].name);
            if (f->params[p].type->kind != TK_TY_GL && strncmp(o->sets[s], f->params[p].name, len) == 0 && o->sets[s][len] == '=')
                found = true;
        }
        if (!found) {
            snprintf(err, errlen, "--set %s: kernel %s has no scalar parameter of that name", o->sets[s], f->display);
            return RUN_USAGE;
        }
    }
    A->n = f->nparams;
    for (unsigned p = 0; p < f->nparams; p++) {
        const TkType *t = f->params[p].type;
        const char *name = f->params[p].name;
        if (t->kind != TK_TY_GL) {
            if (set_scalar(o, f, p, A) != 0) {
                snprintf(err, errlen, "--set %s: not a number (or true/false)", name);
                return RUN_USAGE;
            }
            continue;
        }
        int64_t n = tir_tensor_elements(f, p, sizes);
        size_t bytes = (size_t)(n > 0 ? n : 1) * tir_elem_size(t->elem);
        A->data[p] = alloc_tensor(bytes);
        A->initial[p] = malloc(bytes);
        A->count[p] = n;
        A->args[p].data = A->data[p];
        A->args[p].rank = t->rank;
        for (unsigned d = 0; d < t->rank; d++) A->args[p].shape[d] = tir_tensor_dim(f, p, d, sizes);
        if (!A->data[p] || !A->initial[p]) {
            snprintf(err, errlen, "out of memory for tensor %s (%lld elements)", name, (long long)n);
            return RUN_FAILED;
        }
        const char *file = input_file(o, name);
        if (file) {
            if (load_input(file, f, p, sizes, A->data[p], err, errlen) != 0) return RUN_USAGE;
        } else {
            /* each tensor its own stream: giving one tensor from a file leaves the others' values as they were */
            unsigned long long rng = splitmix(o->seed ^ splitmix(p + 1)) | 1;
            RunDist d = dist_for(o, name);
            for (int64_t i = 0; i < n; i++) tir_elem_set(t->elem, A->data[p], i, draw(&d, &rng));
        }
        memcpy(A->initial[p], A->data[p], bytes);
    }
    return RUN_OK;
}
