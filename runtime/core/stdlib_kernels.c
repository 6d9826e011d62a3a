/* stdlib_kernels.c — see stdlib_kernels.h. One process-wide table of
 * compiled stdlib files and looked-up kernels, under one lock: contexts
 * share the compiled code, and tk_program_kernel is not thread-safe. The
 * table lives until the process ends (it is reachable, never leaked). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_gpu.h"
#include "compiler_prebuilt.h"
#include "internal.h"
#include "stdlib_aot.h"
#include "stdlib_kernels.h"

extern const struct {
    const char *name;
    const char *text;
    size_t len;
} tkr_stdlib_sources[];

/* target: NULL for this CPU, else a GPU device's ("sm_80-emu", "sm_90") */
typedef struct {
    const char *file, *target;
    tk_program *program;
} File;

typedef struct {
    char *file, *name;
    const char *target;   /* a device's static string, or NULL */
    tk_kernel *kernel;
} Entry;

static struct {
    pthread_mutex_t lock;
    File files[48];
    unsigned nfiles;
    Entry *entries;
    size_t nentries, cap;
} lib = { PTHREAD_MUTEX_INITIALIZER, { { 0 } }, 0, NULL, 0, 0 };

static bool same_target(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

static tk_program *program_of(tk_context *ctx, const char *file, const char *target, tk_status *st)
{
    for (unsigned i = 0; i < lib.nfiles; i++)
        if (strcmp(lib.files[i].file, file) == 0 && same_target(lib.files[i].target, target)) return lib.files[i].program;
    unsigned s = 0;
    while (tkr_stdlib_sources[s].name && strcmp(tkr_stdlib_sources[s].name, file) != 0) s++;
    if (!tkr_stdlib_sources[s].name) {
        *st = tkr_error(ctx, TK_ERR_NOT_FOUND, "no stdlib file '%s' in this libtk", file);
        return NULL;
    }
    if (lib.nfiles == sizeof lib.files / sizeof lib.files[0]) {
        *st = tkr_error(ctx, TK_ERR_INTERNAL, "too many stdlib files");
        return NULL;
    }
    tk_program *p = NULL;
    char *diags = NULL;
    tk_status s2;
    if (target) {   /* a GPU device: each kernel compiled when an op first uses it */
        s2 = tkr_compile_gpu_lazy(tkr_stdlib_sources[s].name, tkr_stdlib_sources[s].text, tkr_stdlib_sources[s].len, target, &p, &diags);
        if (s2 != TK_OK) {
            *st = tkr_error(ctx, TK_ERR_INTERNAL, "stdlib %s does not compile for %s: %.600s", file, target, diags ? diags : "");
            free(diags);
            return NULL;
        }
        lib.files[lib.nfiles++] = (File){ tkr_stdlib_sources[s].name, target, p };
        return p;
    }
    /* the code compiled into libtk for this CPU's level (stdlib_aot.h), else the JIT for the host */
    TkrAotMode mode = tkr_aot_mode();
    const char *level = mode == TKR_AOT_OFF ? NULL : tkr_aot_level();
    if (level) {
        tkr_prebuilt_code code = { level, tkr_aot_find, (void *)tkr_stdlib_sources[s].name, mode != TKR_AOT_STRICT };
        s2 = tkr_compile_prebuilt(tkr_stdlib_sources[s].name, tkr_stdlib_sources[s].text, tkr_stdlib_sources[s].len, &code, &p,
                                  &diags);
    } else if (mode == TKR_AOT_STRICT) {
        *st = tkr_error(ctx, TK_ERR_NOT_FOUND, "stdlib %s: TK_STDLIB_AOT=strict, but this libtk has no stdlib code for this CPU", file);
        return NULL;
    } else {
        s2 = tk_compile_source(tkr_stdlib_sources[s].name, tkr_stdlib_sources[s].text, tkr_stdlib_sources[s].len, NULL, &p, &diags);
    }
    if (s2 != TK_OK) {
        *st = tkr_error(ctx, s2 == TK_ERR_SOURCE ? TK_ERR_INTERNAL : s2, "stdlib %s does not compile for this CPU: %.600s", file,
                        diags ? diags : "");
        free(diags);
        return NULL;
    }
    lib.files[lib.nfiles++] = (File){ tkr_stdlib_sources[s].name, NULL, p };
    return p;
}

tk_status tkr_stdlib_kernel(tk_context *ctx, const char *file, const char *name, tk_kernel **out)
{
    *out = NULL;
    pthread_mutex_lock(&lib.lock);
    tk_status st = TK_OK;
    const char *target = ctx->device->target;
    for (size_t i = 0; i < lib.nentries; i++)
        if (strcmp(lib.entries[i].name, name) == 0 && strcmp(lib.entries[i].file, file) == 0 && same_target(lib.entries[i].target, target)) {
            *out = lib.entries[i].kernel;
            pthread_mutex_unlock(&lib.lock);
            return TK_OK;
        }
    tk_program *p = program_of(ctx, file, target, &st);
    tk_kernel *k = p ? tk_program_kernel(p, name) : NULL;
    if (k && target && tkr_kernel_compile(k) != TK_OK) {   /* a GPU kernel's code, made once under the lock */
        char why[600];
        snprintf(why, sizeof why, "%s", tk_program_error(p));
        st = tkr_error(ctx, TK_ERR_INTERNAL, "stdlib %s: %s for %s: %s", file, name, target, why);
        k = NULL;
    }
    if (p && !k && !st) {
        char why[600];   /* the program's message may span lines ("cannot instantiate X:\n..."): one line on ctx */
        snprintf(why, sizeof why, "%s", tk_program_error(p));
        for (char *c = why; (c = strchr(c, '\n')) != NULL;) *c = ' ';
        st = tkr_error(ctx, TK_ERR_INTERNAL, "stdlib %s: %s%s", file, why,
                       tkr_aot_mode() == TKR_AOT_STRICT ? " (TK_STDLIB_AOT=strict: add it to runtime/core/stdlib_instances.txt)" : "");
    }
    if (k) {
        if (lib.nentries == lib.cap) {
            size_t cap = lib.cap ? 2 * lib.cap : 64;
            Entry *e = realloc(lib.entries, cap * sizeof *e);
            if (e) lib.entries = e, lib.cap = cap;
        }
        char *f = strdup(file), *n = strdup(name);
        if (lib.nentries < lib.cap && f && n) lib.entries[lib.nentries++] = (Entry){ f, n, target, k };
        else free(f), free(n);   /* not remembered: looked up again next time */
        *out = k;
    }
    pthread_mutex_unlock(&lib.lock);
    return st;
}

static tk_status launch_on(tk_context *ctx, tk_kernel *k, const char *label, const tk_arg *args, unsigned nargs, int threads)
{
    double t0 = ctx->profile ? tkr_now() : 0;
    char err[1024];
    tk_status s = ctx->device->run(ctx->device, k, args, nargs, threads, err, sizeof err);
    if (s != TK_OK) return tkr_error(ctx, s, "kernel %s: %s", label ? label : tk_kernel_name(k), err);
    if (ctx->profile) tkr_profile_record(ctx, "kernel", label ? label : tk_kernel_name(k), tkr_now() - t0);
    return TK_OK;
}

tk_status tkr_launch(tk_context *ctx, tk_kernel *k, const char *label, const tk_arg *args, unsigned nargs)
{
    return launch_on(ctx, k, label, args, nargs, ctx->threads);
}

tk_status tkr_launch_est(tk_context *ctx, tk_kernel *k, const char *label, const tk_arg *args, unsigned nargs, double est_ns)
{
    return launch_on(ctx, k, label, args, nargs, est_ns < TKR_SMALL_LAUNCH_NS ? 1 : ctx->threads);
}

void tkr_stdlib_free(tk_context *ctx) { (void)ctx; }
