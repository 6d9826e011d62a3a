/* tkrun — load an ONNX model and run it on the CPU (tk/onnx.h).
 *
 *   tkrun MODEL.onnx [--input NAME=FILE.pb|FILE.npy]... [--output-dir DIR] [--npy]
 *         [--dim NAME=V]... [--seed N] [--bench N] [--threads N] [--profile]
 *         [--no-fuse] [--bf16] [--no-plan] [--fuse-ffn=auto|always|never] [--json] [--dump[=PASSES]] [--check-infer] [--list-ops]
 *
 * Inputs not given are made from the model's input types: seeded random
 * normal floats, small random ints, symbolic dims from --dim (else 1, said
 * on stderr). Each output is written as DIR/<name>.pb (and .npy with --npy).
 * Exit status: 0 ran, 1 the model or an input is bad (the message says what),
 * 2 usage. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tk/io.h"
#include "tk/onnx.h"
#include "tk/ops.h"
#include "tk/shape.h"
#include "tk/tensor.h"

#define MAX_ARGS 64

typedef struct {
    const char *name, *value;
} Pair;

typedef struct {
    const char *model, *out_dir;
    Pair inputs[MAX_ARGS], dims[MAX_ARGS];
    int ninputs, ndims;
    uint64_t seed;
    int bench, threads;
    bool profile, no_fuse, bf16, no_plan, json, npy, list_ops, check_infer;
    tk_onnx_ffn_mode fuse_ffn;
    const char *dump;
} Options;

static void usage(FILE *f)
{
    fprintf(f, "usage: tkrun MODEL.onnx [--input NAME=FILE.pb|FILE.npy]... [--output-dir DIR] [--npy]\n"
               "             [--dim NAME=V]... [--seed N] [--bench N] [--threads N] [--profile]\n"
               "             [--no-fuse] [--bf16] [--no-plan] [--fuse-ffn=auto|always|never] [--json]\n"
               "             [--dump[=read,sort,fold,infer,fuse,plan|all]] [--check-infer] [--list-ops]\n"
               "\n"
               "  --input NAME=FILE   a graph input from an ONNX TensorProto .pb or a .npy file\n"
               "                      (inputs not given: seeded random values of the model's types)\n"
               "  --dim NAME=V        the size of symbolic dim NAME for made-up inputs (default 1)\n"
               "  --output-dir DIR    write each output as DIR/<name>.pb (default .)\n"
               "  --npy               also write DIR/<name>.npy\n"
               "  --bench N           run N more times and print the median and spread\n"
               "  --threads N         threads (default: $TK_NUM_THREADS or one per core)\n"
               "  --profile           a time table per node and per kernel\n"
               "  --no-fuse           run node by node, no fused kernels (to compare)\n"
               "  --bf16              opt-in: 2-d convolutions in bf16 (weights rounded at load, inputs\n"
               "                      at each conv, f32 between the other ops); results differ from f32\n"
               "  --no-plan           no memory plan: every intermediate from the allocator (to compare)\n"
               "  --fuse-ffn=MODE     Linear -> act -> Linear and SwiGLU as one tk_ffn: auto (where its tiles\n"
               "                      are at least half filled, the default), always, never\n"
               "  --json              print a JSON summary on stdout instead of text\n"
               "  --dump[=PASSES]     print the graph after the passes (default all) on stderr;\n"
               "                      infer: every value's inferred type and shape; plan: the memory plan\n"
               "  --check-infer       compare every value a run makes with its inferred type and shape\n"
               "  --list-ops          print the supported ops and opsets, and exit\n");
}

/* "12.3 MiB" or "4.0 KiB" */
static const char *human_bytes(size_t bytes, char *buf, size_t len)
{
    if (bytes >= (1 << 20)) snprintf(buf, len, "%.1f MiB", (double)bytes / (1 << 20));
    else snprintf(buf, len, "%.1f KiB", (double)bytes / 1024);
    return buf;
}

static bool split_pair(const char *arg, Pair *p)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) return false;
    p->name = strndup(arg, (size_t)(eq - arg));
    p->value = eq + 1;
    return p->name != NULL;
}

static int parse(int argc, char **argv, Options *o)
{
    memset(o, 0, sizeof *o);
    o->out_dir = ".";
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if ((strcmp(a, "--input") == 0 || strcmp(a, "-i") == 0) && next) {
            if (o->ninputs == MAX_ARGS || !split_pair(argv[++i], &o->inputs[o->ninputs++])) {
                fprintf(stderr, "tkrun: --input wants NAME=FILE, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--dim") == 0 && next) {
            if (o->ndims == MAX_ARGS || !split_pair(argv[++i], &o->dims[o->ndims++])) {
                fprintf(stderr, "tkrun: --dim wants NAME=SIZE, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--output-dir") == 0 && next) o->out_dir = argv[++i];
        else if (strcmp(a, "--seed") == 0 && next) o->seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(a, "--bench") == 0 && next) o->bench = atoi(argv[++i]);
        else if (strcmp(a, "--threads") == 0 && next) o->threads = atoi(argv[++i]);
        else if (strcmp(a, "--profile") == 0) o->profile = true;
        else if (strcmp(a, "--no-fuse") == 0) o->no_fuse = true;
        else if (strcmp(a, "--bf16") == 0) o->bf16 = true;
        else if (strcmp(a, "--no-plan") == 0) o->no_plan = true;
        else if (strcmp(a, "--fuse-ffn=auto") == 0) o->fuse_ffn = TK_ONNX_FFN_AUTO;
        else if (strcmp(a, "--fuse-ffn=always") == 0) o->fuse_ffn = TK_ONNX_FFN_ALWAYS;
        else if (strcmp(a, "--fuse-ffn=never") == 0) o->fuse_ffn = TK_ONNX_FFN_NEVER;
        else if (strcmp(a, "--json") == 0) o->json = true;
        else if (strcmp(a, "--npy") == 0) o->npy = true;
        else if (strcmp(a, "--list-ops") == 0) o->list_ops = true;
        else if (strcmp(a, "--check-infer") == 0) o->check_infer = true;
        else if (strcmp(a, "--dump") == 0) o->dump = "all";
        else if (strncmp(a, "--dump=", 7) == 0) o->dump = a + 7;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (a[0] != '-' && !o->model) o->model = a;
        else {
            fprintf(stderr, "tkrun: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (o->bench < 0 || o->threads < 0) {
        fprintf(stderr, "tkrun: --bench and --threads want a count >= 0\n");
        return 2;
    }
    if (!o->model && !o->list_ops) {
        usage(stderr);
        return 2;
    }
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A made-up input: its declared shape with symbolic dims from --dim (or 1). */
static tk_status make_input(tk_context *ctx, const Options *o, const tk_value_info *info, uint64_t seed, tk_tensor **out)
{
    int64_t shape[TK_MAX_DIMS];
    int nd = info->ndim < 0 ? 0 : info->ndim;
    for (int d = 0; d < nd; d++) {
        shape[d] = info->dims[d];
        if (shape[d] >= 0) continue;
        const char *sym = info->dim_names[d];
        shape[d] = 1;
        bool given = false;
        for (int k = 0; sym && k < o->ndims; k++)
            if (strcmp(o->dims[k].name, sym) == 0) shape[d] = strtoll(o->dims[k].value, NULL, 10), given = true;
        if (!given)
            fprintf(stderr, "tkrun: input '%s' dim %d (%s) set to 1 (--dim %s=N to choose)\n", info->name, d, sym ? sym : "unnamed",
                    sym ? sym : "NAME");
    }
    tk_dtype dt = info->dtype;
    if (tk_dtype_is_float(dt)) {
        tk_tensor *f;
        tk_status s = tk_randn(ctx, TK_DTYPE_F32, nd, shape, seed, &f);
        if (s || dt == TK_DTYPE_F32) {
            *out = s ? NULL : f;
            return s;
        }
        s = tk_to_dtype(ctx, f, dt, out);
        tk_tensor_release(f);
        return s;
    }
    /* ints: 0..9 (a valid index for most index inputs), bools: a coin */
    tk_tensor *f, *fl;
    tk_status s = tk_rand(ctx, TK_DTYPE_F32, nd, shape, seed, 0, dt == TK_DTYPE_BOOL ? 2 : 10, &f);
    if (s) return s;
    s = tk_unary(ctx, TK_FLOOR, f, &fl);
    tk_tensor_release(f);
    if (s) return s;
    s = tk_to_dtype(ctx, fl, dt, out);
    tk_tensor_release(fl);
    return s;
}

static tk_status load_input(tk_context *ctx, const char *path, tk_tensor **out)
{
    return ends_with(path, ".npy") ? tk_load_npy(ctx, path, out) : tk_load_onnx_tensor(ctx, path, out);
}

/* An output name made safe as a file name. */
static void file_name(char *dst, size_t len, const char *dir, const char *name, const char *ext)
{
    char safe[256];
    size_t k = 0;
    for (const char *p = name; *p && k + 1 < sizeof safe; p++)
        safe[k++] = (*p == '/' || *p == '\\' || *p == ':' || (unsigned char)*p < 32) ? '_' : *p;
    safe[k] = 0;
    if (!k || strcmp(safe, ".") == 0 || strcmp(safe, "..") == 0) snprintf(safe, sizeof safe, "output");
    snprintf(dst, len, "%s/%s%s", dir, safe, ext);
}

/* mkdir -p: the folder and its parents (existing ones are fine). */
static bool make_dirs(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return false;
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return false;
            *p = '/';
        }
    return mkdir(buf, 0777) == 0 || errno == EEXIST;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void describe(tk_context *ctx, const tk_tensor *t, char *buf, size_t len)
{
    int nd = tk_tensor_ndim(t);
    size_t n = (size_t)snprintf(buf, len, "%s[", tk_dtype_name(tk_tensor_dtype(t)));
    for (int d = 0; d < nd && n < len; d++) n += (size_t)snprintf(buf + n, len - n, d ? ", %lld" : "%lld", (long long)tk_tensor_shape(t)[d]);
    if (n < len) n += (size_t)snprintf(buf + n, len - n, "]");
    tk_tensor *f;
    if (n < len && tk_tensor_numel(t) > 0 && tk_to_dtype(ctx, t, TK_DTYPE_F64, &f) == TK_OK) {
        int64_t count = tk_tensor_numel(t), show = count < 6 ? count : 6;
        double vals[6], sum = 0;
        tk_tensor *flat;
        if (tk_reshape(ctx, f, 1, &count, &flat) == TK_OK) {
            for (int64_t i = 0; i < show; i++) tk_item(ctx, flat, &i, &vals[i]);
            tk_tensor *s;
            if (tk_sum(ctx, flat, NULL, &s) == TK_OK) {
                tk_item(ctx, s, NULL, &sum);
                tk_tensor_release(s);
            }
            tk_tensor_release(flat);
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "  sum %.6g  first", sum);
            for (int64_t i = 0; i < show && n < len; i++) n += (size_t)snprintf(buf + n, len - n, " %.5g", vals[i]);
        }
        tk_tensor_release(f);
    }
}

int main(int argc, char **argv)
{
    Options o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if (o.list_ops) {
        tk_onnx_list_ops(stdout);
        return 0;
    }
    tk_context *ctx;
    if (tk_context_create(&(tk_context_opts){ .threads = o.threads, .profile = o.profile }, &ctx) != TK_OK) {
        fprintf(stderr, "tkrun: cannot create a context\n");
        return 1;
    }
    tk_model *m = NULL;
    tk_tensor **in = NULL, **out = NULL;
    int nin = 0, nout = 0;
    rc = 1;
    double t0 = now_ms();
    if (tk_onnx_load(ctx, o.model, &(tk_onnx_opts){ .no_fuse = o.no_fuse, .bf16 = o.bf16, .fuse_ffn = o.fuse_ffn, .dump = o.dump, .check_infer = o.check_infer, .no_plan = o.no_plan }, &m) != TK_OK) {
        fprintf(stderr, "tkrun: %s\n", tk_last_error(ctx));
        goto done;
    }
    double load_ms = now_ms() - t0;
    nin = tk_model_num_inputs(m), nout = tk_model_num_outputs(m);
    in = calloc((size_t)nin + 1, sizeof *in), out = calloc((size_t)nout + 1, sizeof *out);
    if (!in || !out) goto done;
    for (int k = 0; k < o.ninputs; k++) {   /* every --input names an input */
        bool found = false;
        for (int i = 0; i < nin; i++) {
            tk_value_info info;
            tk_model_input(m, i, &info);
            found |= strcmp(info.name, o.inputs[k].name) == 0;
        }
        if (!found) {
            fprintf(stderr, "tkrun: --input %s: the model has no input of that name (it has", o.inputs[k].name);
            for (int i = 0; i < nin; i++) {
                tk_value_info info;
                tk_model_input(m, i, &info);
                fprintf(stderr, " '%s'", info.name);
            }
            fprintf(stderr, ")\n");
            goto done;
        }
    }
    for (int i = 0; i < nin; i++) {
        tk_value_info info;
        tk_model_input(m, i, &info);
        const char *file = NULL;
        for (int k = 0; k < o.ninputs; k++)
            if (strcmp(o.inputs[k].name, info.name) == 0) file = o.inputs[k].value;
        tk_status s = file ? load_input(ctx, file, &in[i]) : make_input(ctx, &o, &info, o.seed + (uint64_t)i, &in[i]);
        if (s) {
            fprintf(stderr, "tkrun: input '%s': %s\n", info.name, tk_last_error(ctx));
            goto done;
        }
    }
    t0 = now_ms();
    if (tk_model_run(m, in, out) != TK_OK) {
        fprintf(stderr, "tkrun: %s\n", tk_last_error(ctx));
        goto done;
    }
    double first_ms = now_ms() - t0;
    double *times = o.bench ? calloc((size_t)o.bench, sizeof *times) : NULL;
    for (int r = 0; r < o.bench && times; r++) {
        tk_tensor **again = calloc((size_t)nout + 1, sizeof *again);
        double t1 = now_ms();
        tk_status s = again ? tk_model_run(m, in, again) : TK_ERR_OUT_OF_MEMORY;
        times[r] = now_ms() - t1;
        for (int k = 0; again && k < nout; k++) tk_tensor_release(again[k]);
        free(again);
        if (s) {
            fprintf(stderr, "tkrun: run %d: %s\n", r + 2, tk_last_error(ctx));
            free(times);
            goto done;
        }
        if (!o.json && r == 0 && times[0] * o.bench > 3000)
            fprintf(stderr, "tkrun: %d runs of about %.0f ms each...\n", o.bench, times[0]);
    }
    if (o.bench && times) qsort(times, (size_t)o.bench, sizeof *times, cmp_double);
    if (!make_dirs(o.out_dir)) {
        fprintf(stderr, "tkrun: cannot make the output folder '%s': %s\n", o.out_dir, strerror(errno));
        goto done;
    }
    if (o.json) printf("{\"model\": \"%s\", \"load_ms\": %.3f, \"first_run_ms\": %.3f", o.model, load_ms, first_ms);
    else printf("%s: loaded in %.1f ms, first run %.2f ms\n", o.model, load_ms, first_ms);
    if (o.bench && times) {
        double med = times[o.bench / 2], lo = times[0], hi = times[o.bench - 1];
        if (o.json) printf(", \"bench\": {\"runs\": %d, \"median_ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f}", o.bench, med, lo, hi);
        else printf("bench: %d runs, median %.3f ms (min %.3f, max %.3f, spread %.1f%%)\n", o.bench, med, lo, hi, 100 * (hi - lo) / med);
    }
    free(times);
    /* what the context allocated at its peak: activations, inputs and the weights' kernel
     * layouts (packed, HWIO); initializers viewed in the mapped file are not counted */
    tk_memory_stats mem;
    tk_memory_stats_get(ctx, &mem);
    /* and the memory plan's arena: the planned peak of the intermediates, inside the peak above */
    tk_model_memory_stats plan;
    tk_model_memory(m, &plan);
    if (o.json)
        printf(", \"peak_tensor_bytes\": %zu, \"arena_bytes\": %zu, \"planned_bytes\": %zu, \"planned_values\": %d, \"plan_misses\": %d",
               mem.peak_bytes, plan.arena_bytes, plan.planned_bytes, plan.planned_values, plan.plan_misses);
    else {
        char peak[32], arena[32], sum[32];
        printf("tensor memory: peak %s allocated (activations, inputs, weight layouts; mapped weights not counted)\n",
               human_bytes(mem.peak_bytes, peak, sizeof peak));
        if (o.no_plan) printf("memory plan: off (--no-plan)\n");
        else
            printf("memory plan: arena %s for %d intermediates of %s%s\n", human_bytes(plan.arena_bytes, arena, sizeof arena),
                   plan.planned_values, human_bytes(plan.planned_bytes, sum, sizeof sum),
                   plan.plan_misses ? " (a run missed the plan: see tk_model_memory)" : "");
    }
    if (o.json) printf(", \"outputs\": [");
    for (int k = 0; k < nout; k++) {
        tk_value_info info;
        tk_model_output(m, k, &info);
        char path[4096], desc[512];
        file_name(path, sizeof path, o.out_dir, info.name, ".pb");
        if (tk_save_onnx_tensor(ctx, out[k], path, info.name) != TK_OK) {
            fprintf(stderr, "tkrun: %s\n", tk_last_error(ctx));
            goto done;
        }
        if (o.npy) {
            file_name(path, sizeof path, o.out_dir, info.name, ".npy");
            if (tk_save_npy(ctx, out[k], path) != TK_OK) {
                fprintf(stderr, "tkrun: %s\n", tk_last_error(ctx));
                goto done;
            }
        }
        describe(ctx, out[k], desc, sizeof desc);
        if (o.json) printf("%s{\"name\": \"%s\", \"file\": \"%s\", \"value\": \"%s\"}", k ? ", " : "", info.name, path, desc);
        else printf("  %s = %s  -> %s\n", info.name, desc, path);
    }
    if (o.json) printf("]}\n");
    rc = 0;
done:
    for (int i = 0; in && i < nin; i++) tk_tensor_release(in[i]);
    for (int k = 0; out && k < nout; k++) tk_tensor_release(out[k]);
    free(in);
    free(out);
    tk_model_free(m);
    for (int k = 0; k < o.ninputs; k++) free((char *)o.inputs[k].name);
    for (int k = 0; k < o.ndims; k++) free((char *)o.dims[k].name);
    tk_context_free(ctx);   /* prints the profile table with --profile */
    return rc;
}
