/* dt_config.c — see dt_config.h. */
#define _GNU_SOURCE
#include "dt_config.h"
#include "emu.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu_jit.h"
#include "dt_case.h"
#include "target.h"
#include "../common/link_shared.h"

#ifndef DT_CC
#define DT_CC "cc"   /* links AOT objects into shared objects */
#endif

const DtConfig dt_configs[] = {
    { "jit-host-O3-specialised", NULL, 3, true, false, 2, false },
    { "jit-host-O3", NULL, 3, false, false, 2, false },
    { "jit-host-O0", NULL, 0, false, false, 2, false },
    { "jit-x86-64", "x86-64", 3, false, false, 2, false },
    { "jit-x86-64-avx2", "x86-64-avx2", 3, false, false, 2, false },
    { "jit-x86-64-avx512", "x86-64-avx512", 3, false, false, 2, false },
    { "jit-x86-64-avx512bf16", "x86-64-avx512bf16", 3, false, false, 2, false },
    { "jit-x86-64-amx", "x86-64-amx", 3, false, false, 2, false },
    { "aot-host", NULL, 3, false, true, 2, false },
    { "emu-sm80", "sm_80-emu", 3, false, false, 2, true },
};
const unsigned dt_nconfigs = sizeof dt_configs / sizeof dt_configs[0];

const DtConfig *dt_config_find(const char *name)
{
    for (unsigned i = 0; i < dt_nconfigs; i++)
        if (strcmp(dt_configs[i].name, name) == 0) return &dt_configs[i];
    return NULL;
}

bool dt_config_available(const DtConfig *c, char *why, size_t len)
{
    if (!c->target || c->emu) return true;   /* the emulator runs anywhere */
    const TkTarget *t = tk_target_find(c->target);
    TkResolvedTarget rt;
    if (!t || tk_target_resolve(t, &rt, why, len) != 0) {
        if (!t) snprintf(why, len, "no target %s", c->target);
        return false;
    }
    bool here = tk_target_runs_here(&rt);
    tk_target_resolved_free(&rt);
    if (!here) snprintf(why, len, "this CPU cannot run %s code", c->target);
    return here;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int compile_aot(TirModule *m, const TkCpuJitOptions *jo, const char *kernel, DtCompiled *out, char *err, size_t errlen)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out->dir, sizeof out->dir, "%s/tk_difftest_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(out->dir)) {
        snprintf(err, errlen, "cannot create %s: %s", out->dir, strerror(errno));
        out->dir[0] = '\0';
        return -1;
    }
    char obj[600], so[600], log[600];
    snprintf(obj, sizeof obj, "%s/k.o", out->dir);
    snprintf(so, sizeof so, "%s/k.so", out->dir);
    snprintf(log, sizeof log, "%s/link.log", out->dir);
    FILE *fp = fopen(obj, "wb");
    if (!fp) {
        snprintf(err, errlen, "cannot write %s: %s", obj, strerror(errno));
        return -1;
    }
    int rc = tk_cpu_emit(m, jo, TK_EMIT_OBJ, fp, err, errlen);
    if (fclose(fp) != 0 && rc == 0) {
        snprintf(err, errlen, "cannot write %s", obj);
        rc = -1;
    }
    if (rc != 0 || tk_test_link_shared(DT_CC, obj, so, log, err, errlen) != 0) return -1;
    out->so = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!out->so) {
        const char *e = dlerror();
        snprintf(err, errlen, "dlopen(%s): %s", so, e ? e : "?");
        return -1;
    }
    char sym[300];
    snprintf(sym, sizeof sym, "%s__grid", kernel);
    void *g = dlsym(out->so, sym);
    snprintf(sym, sizeof sym, "%s__block", kernel);
    void *b = dlsym(out->so, sym);
    if (!g || !b) {
        snprintf(err, errlen, "the object defines no %s__%s", kernel, g ? "block" : "grid");
        return -1;
    }
    /* POSIX dlsym requires object → function pointer conversions to work */
    memcpy(&out->grid, &g, sizeof out->grid);
    memcpy(&out->block, &b, sizeof out->block);
    return 0;
}

int dt_compile(const DtConfig *c, const char *name, const char *text, const char *kernel, const int64_t *sizes, unsigned nsizes,
               DtCompiled *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    DtProgram p;
    if (dt_program_load(&p, name, text, err, errlen) != DT_LOAD_OK) {
        dt_program_free(&p);
        return -1;
    }
    TkCpuJitOptions jo = { .target = c->target, .opt_level = c->opt_level, .no_cache = true };
    if (c->specialise) {
        jo.specialise_kernel = kernel;
        jo.specialise_sizes = sizes;
        jo.specialise_count = nsizes;
    }
    double t0 = now_ms();
    int rc;
    if (c->aot) {
        rc = compile_aot(&p.m, &jo, kernel, out, err, errlen);
    } else if (c->emu) {
        TkCpuModule *mod = NULL;
        rc = tk_emu_jit(&p.m, c->target, &mod, err, errlen);
        out->mod = mod;
        if (rc == 0 && tk_cpu_lookup(mod, kernel, &out->grid, &out->block, err, errlen) != 0) rc = -1;
    } else {
        TkCpuModule *mod = NULL;
        rc = tk_cpu_jit(&p.m, &jo, &mod, err, errlen);
        out->mod = mod;
        if (rc == 0) rc = tk_cpu_lookup(mod, kernel, &out->grid, &out->block, err, errlen);
    }
    out->compile_ms = now_ms() - t0;
    dt_program_free(&p);
    if (rc != 0) dt_compiled_free(out);
    return rc == 1 ? 1 : rc != 0 ? -1 : 0;
}

void dt_compiled_free(DtCompiled *o)
{
    if (o->mod) tk_cpu_module_free(o->mod);
    if (o->so) dlclose(o->so);
    if (o->dir[0]) {
        char path[600];
        static const char *const files[] = { "k.o", "k.so", "link.log" };
        for (unsigned i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/%s", o->dir, files[i]);
            unlink(path);
        }
        rmdir(o->dir);
    }
    memset(o, 0, sizeof *o);
}
