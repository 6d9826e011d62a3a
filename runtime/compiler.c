/* compiler.c — tk/compiler.h over the front end, TIR, and the CPU target.
 * The pipeline is the one tkc runs: load → parse → check → TIR → verify →
 * JIT (cache) → lookup; a tk_program keeps the AST arena alive because the
 * kernels' parameter types live there. A program made by
 * tkr_compile_prebuilt (compiler_prebuilt.h) skips the JIT step: its kernels'
 * code is found in objects linked into libtk. */
#include "tk/compiler.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler_gpu.h"
#include "compiler_prebuilt.h"
#include "cpu_jit.h"
#include "emu.h"
#include "front.h"
#include "generic.h"
#include "target.h"
#include "lower.h"
#include "nvptx.h"
#include "tir_bind.h"

struct tk_kernel {
    tk_program *program;
    const TirFunc *fn;
    TkGridFn grid;
    TkBlockFn block;
    /* GPU targets compile each kernel on its own (compiler_gpu.h): the
     * emulator's host code, or PTX text for the driver to load */
    bool compiled;
    TkCpuModule *emu_code;
    char *ptx;
    uint64_t serial;
};

struct tk_program {
    TkFront front;
    TirModule tir;
    TkCpuModule *code;
    tk_kernel *kernels;
    unsigned nkernels;
    double compile_ms;
    bool cache_hit;
    /* the options again, for instances compiled on demand */
    char *target;
    int opt_level, no_cache;
    const char *keys[3];       /* target(...) keys of the target */
    const char *request;       /* the instance this (sub)program was compiled for */
    tk_program *instances;     /* on-demand instances (tk_program_kernel), each a program of one kernel */
    tk_program *next_instance;
    tkr_prebuilt_code prebuilt;   /* find NULL: the JIT */
    TkTargetKind kind;            /* CPU, or a GPU target (EMU, NVPTX) */
    bool lazy;                    /* GPU kernels are compiled at their first use */
    char error[2048];
};

static atomic_ulong jit_count;
static atomic_ulong kernel_serial;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

unsigned long tkr_compiler_jit_count(void) { return atomic_load(&jit_count); }

void tk_free(void *p) { free(p); }

static char *diagnostics_text(TkFront *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) return NULL;
    tk_diags_print_text(&f->diags, mem);
    fclose(mem);
    return buf;
}

static tk_status fail(tk_program *p, tk_status s, char **diagnostics)
{
    if (diagnostics && !*diagnostics && p->error[0]) *diagnostics = strdup(p->error);
    tk_program_free(p);
    return s;
}

static tk_status bind_kernels(tk_program *p, tk_program **out, char **diagnostics);
static tk_status bind_gpu_kernels(tk_program *p, tk_program **out, char **diagnostics);

static tk_status compile(tk_program *p, const tk_compile_options *opts, tk_program **out, char **diagnostics)
{
    p->opt_level = opts ? opts->opt_level : 0;
    p->no_cache = opts && opts->no_cache;
    if (opts && opts->target && !(p->target = strdup(opts->target))) {
        tk_program_free(p);
        return TK_ERR_OUT_OF_MEMORY;
    }
    const TkTarget *t = tk_target_find(p->target ? p->target : "host");
    p->kind = t ? t->kind : TK_TARGET_CPU;
    p->front.generic.ntarget_keys = tk_target_default_keys(t, p->keys);
    p->front.generic.target_keys = p->keys;
    p->front.generic.target_name = p->target ? p->target : "host";
    if (p->request) {
        p->front.generic.instances = (const char *const *)&p->request;
        p->front.generic.ninstances = 1;
        p->front.generic.only_requested = true;
    }
    tk_front_parse(&p->front);
    tk_front_check(&p->front);
    if (p->front.diags.errors) {
        if (diagnostics) *diagnostics = diagnostics_text(&p->front);
        tk_program_free(p);
        return TK_ERR_SOURCE;
    }
    if (tir_from_ast(&p->tir, &p->front.arena, &p->front.src, &p->front.diags, p->front.items) != 0 ||
        tir_verify(&p->tir, NULL) != 0) {
        snprintf(p->error, sizeof p->error, "internal error while lowering %s", p->front.src.name);
        return fail(p, TK_ERR_INTERNAL, diagnostics);
    }
    if (p->kind == TK_TARGET_EMU || p->kind == TK_TARGET_NVPTX) return bind_gpu_kernels(p, out, diagnostics);
    if (p->prebuilt.find) {
        bool complete = true;
        for (const TirFunc *f = p->tir.funcs; f && complete; f = f->next) {
            tk_grid_fn g;
            tk_block_fn b;
            complete = p->prebuilt.find(p->prebuilt.finder_ctx, f->name, &g, &b) == 0;
            if (!complete && !p->prebuilt.jit_fallback) {
                snprintf(p->error, sizeof p->error, "kernel %s of %s is not compiled ahead of time for %s", f->display,
                         p->front.src.name, p->prebuilt.target);
                return fail(p, TK_ERR_NOT_FOUND, diagnostics);
            }
        }
        if (complete) return bind_kernels(p, out, diagnostics);
    }
    atomic_fetch_add(&jit_count, 1);
    TkCpuJitOptions jo = {
        .target = p->target,
        .opt_level = opts && opts->opt_level > 0 ? opts->opt_level : 3,
        .no_cache = opts && opts->no_cache,
        .compile_ms = &p->compile_ms,
        .cache_hit = &p->cache_hit,
    };
    if (tk_cpu_jit(&p->tir, &jo, &p->code, p->error, sizeof p->error) != 0) {
        bool target = strstr(p->error, "target") != NULL;
        return fail(p, target ? TK_ERR_TARGET : TK_ERR_INTERNAL, diagnostics);
    }
    return bind_kernels(p, out, diagnostics);
}

/* One tk_kernel per TIR function, its code from the JIT's module or the prebuilt finder. */
static tk_status bind_kernels(tk_program *p, tk_program **out, char **diagnostics)
{
    for (const TirFunc *f = p->tir.funcs; f; f = f->next) p->nkernels++;
    p->kernels = calloc(p->nkernels ? p->nkernels : 1, sizeof *p->kernels);
    if (!p->kernels) return fail(p, TK_ERR_OUT_OF_MEMORY, diagnostics);
    unsigned i = 0;
    for (const TirFunc *f = p->tir.funcs; f; f = f->next, i++) {
        tk_kernel *k = &p->kernels[i];
        k->program = p;
        k->fn = f;
        if (!p->code) {
            if (p->prebuilt.find(p->prebuilt.finder_ctx, f->name, &k->grid, &k->block) != 0) {
                snprintf(p->error, sizeof p->error, "kernel %s of %s vanished from the prebuilt code", f->display, p->front.src.name);
                return fail(p, TK_ERR_INTERNAL, diagnostics);
            }
        } else if (tk_cpu_lookup(p->code, f->name, &k->grid, &k->block, p->error, sizeof p->error) != 0)
            return fail(p, TK_ERR_INTERNAL, diagnostics);
    }
    *out = p;
    return TK_OK;
}

/* Code for one kernel of a GPU program, alone in its module: the emulator's
 * host code or PTX. Compiling a file's kernels one by one costs nothing more
 * than together, and lets the stdlib compile only the kernels an op uses
 * (attention.tk's packed forms keep LLVM busy for a minute). */
static int compile_gpu_kernel(tk_kernel *k, char *err, size_t errlen)
{
    tk_program *p = k->program;
    TirFunc *only = (TirFunc *)k->fn, *rest = only->next;
    TirModule one = p->tir;
    one.funcs = only;
    only->next = NULL;
    int rc;
    atomic_fetch_add(&jit_count, 1);
    if (p->kind == TK_TARGET_EMU) {
        rc = tk_emu_jit(&one, p->target, &k->emu_code, err, errlen);
        if (rc == 0) rc = tk_cpu_lookup(k->emu_code, only->name, &k->grid, &k->block, err, errlen);
    } else {
        size_t n = 0;
        FILE *text = open_memstream(&k->ptx, &n);
        rc = text ? tk_nvptx_emit(&one, p->target, TK_EMIT_ASM, text, err, errlen) : -1;
        if (text) fclose(text);
        if (!text) snprintf(err, errlen, "out of memory");
    }
    only->next = rest;
    if (rc != 0) return -1;
    k->compiled = true;
    k->serial = atomic_fetch_add(&kernel_serial, 1) + 1;
    return 0;
}

static tk_status bind_gpu_kernels(tk_program *p, tk_program **out, char **diagnostics)
{
    for (const TirFunc *f = p->tir.funcs; f; f = f->next) p->nkernels++;
    p->kernels = calloc(p->nkernels ? p->nkernels : 1, sizeof *p->kernels);
    if (!p->kernels) return fail(p, TK_ERR_OUT_OF_MEMORY, diagnostics);
    unsigned i = 0;
    double t0 = now_ms();
    for (const TirFunc *f = p->tir.funcs; f; f = f->next, i++) {
        p->kernels[i].program = p;
        p->kernels[i].fn = f;
        if (!p->lazy && compile_gpu_kernel(&p->kernels[i], p->error, sizeof p->error) != 0)
            return fail(p, TK_ERR_TARGET, diagnostics);
    }
    p->compile_ms = now_ms() - t0;
    *out = p;
    return TK_OK;
}

tk_status tk_compile_source(const char *name, const char *text, size_t len, const tk_compile_options *opts, tk_program **out,
                            char **diagnostics)
{
    if (diagnostics) *diagnostics = NULL;
    if (!out || (!text && len)) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    tk_program *p = calloc(1, sizeof *p);
    if (!p) return TK_ERR_OUT_OF_MEMORY;
    if (tk_front_load_memory(&p->front, name ? name : "<source>", text ? text : "", len) != 0) {
        free(p);
        return TK_ERR_OUT_OF_MEMORY;
    }
    return compile(p, opts, out, diagnostics);
}

tk_status tkr_compile_prebuilt(const char *name, const char *text, size_t len, const tkr_prebuilt_code *code, tk_program **out,
                               char **diagnostics)
{
    if (diagnostics) *diagnostics = NULL;
    if (!out || (!text && len) || !code || !code->find || !code->target) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    tk_program *p = calloc(1, sizeof *p);
    if (!p) return TK_ERR_OUT_OF_MEMORY;
    p->prebuilt = *code;
    if (tk_front_load_memory(&p->front, name ? name : "<source>", text ? text : "", len) != 0) {
        free(p);
        return TK_ERR_OUT_OF_MEMORY;
    }
    tk_compile_options o = { .target = code->target };
    return compile(p, &o, out, diagnostics);
}

tk_status tk_compile_file(const char *path, const tk_compile_options *opts, tk_program **out, char **diagnostics)
{
    if (diagnostics) *diagnostics = NULL;
    if (!out || !path) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    tk_program *p = calloc(1, sizeof *p);
    if (!p) return TK_ERR_OUT_OF_MEMORY;
    if (tk_front_load(&p->front, path) != 0) {
        if (diagnostics) {
            char msg[600];
            snprintf(msg, sizeof msg, "cannot read '%s': %s", path, strerror(errno));
            *diagnostics = strdup(msg);
        }
        free(p);
        return TK_ERR_NOT_FOUND;
    }
    return compile(p, opts, out, diagnostics);
}

void tk_program_free(tk_program *p)
{
    if (!p) return;
    while (p->instances) {
        tk_program *i = p->instances;
        p->instances = i->next_instance;
        tk_program_free(i);
    }
    free(p->target);
    free((char *)p->request);
    tk_cpu_module_free(p->code);
    for (unsigned i = 0; p->kernels && i < p->nkernels; i++) {
        tk_cpu_module_free(p->kernels[i].emu_code);
        free(p->kernels[i].ptx);
    }
    free(p->kernels);
    tk_front_free(&p->front);
    free(p);
}

double tk_program_compile_ms(const tk_program *p) { return p ? p->compile_ms : 0; }
int tk_program_cache_hit(const tk_program *p) { return p && p->cache_hit; }
unsigned tk_program_num_kernels(const tk_program *p) { return p ? p->nkernels : 0; }
const char *tk_program_kernel_name(const tk_program *p, unsigned i) { return p && i < p->nkernels ? p->kernels[i].fn->display : NULL; }
const char *tk_program_error(const tk_program *p) { return p ? p->error : "no program"; }

static const TkNode *generic_kernel(const tk_program *p, const char *name)
{
    for (const TkNode *it = p->front.items; it; it = it->next)
        if (it->kind == TK_N_KERNEL && it->generic && strcmp(it->name, name) == 0) return it;
    return NULL;
}

/* Compiles the source again with only instance `canon` (cached on disk like
 * any program) and keeps that program beside p. */
static tk_kernel *instantiate(tk_program *p, const char *canon)
{
    tk_program *q = calloc(1, sizeof *q);
    if (q) {
        q->prebuilt = p->prebuilt;   /* an instance of prebuilt code looks there first too */
        q->lazy = p->lazy;
    }
    if (!q || !(q->request = strdup(canon)) ||
        tk_front_load_memory(&q->front, p->front.src.name, p->front.src.text, p->front.src.len) != 0) {
        if (q) free((char *)q->request);
        free(q);
        snprintf(p->error, sizeof p->error, "out of memory instantiating %s", canon);
        return NULL;
    }
    tk_compile_options o = { .target = p->target, .opt_level = p->opt_level, .no_cache = p->no_cache };
    char *diags = NULL;
    tk_program *out = NULL;
    tk_status s = compile(q, &o, &out, &diags);   /* frees q on failure */
    if (s != TK_OK) {
        snprintf(p->error, sizeof p->error, "cannot instantiate %s:\n%s", canon, diags ? diags : "");
        free(diags);
        return NULL;
    }
    for (unsigned i = 0; i < out->nkernels; i++) {
        char c[512];
        if (tk_generic_canonical(out->kernels[i].fn->display, c, sizeof c) == 0 && strcmp(c, canon) == 0) {
            out->kernels[i].program = p;   /* its errors are p's */
            out->next_instance = p->instances;
            p->instances = out;
            return &out->kernels[i];
        }
    }
    tk_program_free(out);
    snprintf(p->error, sizeof p->error, "no kernel named '%s' in %s", canon, p->front.src.name);
    return NULL;
}

tk_kernel *tk_program_kernel(tk_program *p, const char *name)
{
    if (!p || !name) return NULL;
    char canon[512];
    if (tk_generic_canonical(name, canon, sizeof canon) != 0) snprintf(canon, sizeof canon, "%s", name);
    for (unsigned i = 0; i < p->nkernels; i++)
        if (strcmp(p->kernels[i].fn->display, canon) == 0) return &p->kernels[i];
    for (tk_program *q = p->instances; q; q = q->next_instance)
        for (unsigned i = 0; i < q->nkernels; i++)
            if (strcmp(q->kernels[i].fn->display, canon) == 0) return &q->kernels[i];
    /* an instance of a generic kernel, or its plain name without a default
     * instance (the front end says which parameter lacks a default) */
    char base[128];
    size_t n = strcspn(canon, "<");
    snprintf(base, sizeof base, "%.*s", (int)n, canon);
    if (generic_kernel(p, base)) return instantiate(p, canon);
    snprintf(p->error, sizeof p->error, "no kernel named '%s' in %s", name, p->front.src.name);
    return NULL;
}

int tk_program_generic_params(const tk_program *p, const char *kernel, tk_generic_param *params, unsigned max)
{
    const TkNode *k = p && kernel ? generic_kernel(p, kernel) : NULL;
    if (!k) {
        for (unsigned i = 0; p && kernel && i < p->nkernels; i++)
            if (strcmp(p->kernels[i].fn->display, kernel) == 0) return 0;   /* a plain kernel */
        return -1;
    }
    unsigned n = 0;
    for (const TkNode *g = k->c; g; g = g->next, n++) {
        if (n >= max || !params) continue;
        params[n].name = g->name;
        params[n].has_default = g->is_const;
        params[n].default_value = g->is_const ? g->ival : 0;
        params[n].is_bool = g->is_const && g->fval != 0;
    }
    return (int)n;
}

unsigned tk_kernel_num_params(const tk_kernel *k) { return k ? k->fn->nparams : 0; }
unsigned tk_kernel_num_sizes(const tk_kernel *k) { return k && k->fn->sizes ? k->fn->sizes->count : 0; }
unsigned tk_kernel_warps(const tk_kernel *k) { return k ? (unsigned)k->fn->warps : 0; }
const char *tk_kernel_name(const tk_kernel *k) { return k ? k->fn->display : ""; }
const char *tk_kernel_error(const tk_kernel *k) { return k ? k->program->error : "no kernel"; }

const char *tk_kernel_size_name(const tk_kernel *k, unsigned i)
{
    return k && k->fn->sizes && i < k->fn->sizes->count ? k->fn->sizes->names[i] : NULL;
}

static tk_dtype dtype_of(TkTypeKind k)
{
    switch (k) {
    case TK_TY_BOOL: return TK_DTYPE_BOOL;
    case TK_TY_I32: return TK_DTYPE_I32;
    case TK_TY_I64: return TK_DTYPE_I64;
    case TK_TY_F16: return TK_DTYPE_F16;
    case TK_TY_BF16: return TK_DTYPE_BF16;
    default: return TK_DTYPE_F32;
    }
}

tk_status tk_kernel_param(const tk_kernel *k, unsigned i, tk_param_info *info)
{
    if (!k || !info || i >= k->fn->nparams) return TK_ERR_INVALID_ARGUMENT;
    const TirParam *p = &k->fn->params[i];
    /* the spelling is kept in the program's arena-backed scratch: format on demand */
    static _Thread_local char type[256];
    tk_type_format(p->type, type, sizeof type);
    info->name = p->name;
    info->is_tensor = p->type->kind == TK_TY_GL;
    info->dtype = dtype_of(info->is_tensor ? p->type->elem : p->type->kind);
    info->rank = info->is_tensor ? p->type->rank : 0;
    info->type = type;
    return TK_OK;
}

tk_status tk_kernel_launch(tk_kernel *k, const tk_arg *args, unsigned nargs, int threads)
{
    if (!k || (!args && nargs)) return TK_ERR_INVALID_ARGUMENT;
    tk_program *p = k->program;
    p->error[0] = '\0';
    if (nargs != k->fn->nparams) {
        snprintf(p->error, sizeof p->error, "kernel %s takes %u arguments, got %u", k->fn->name, k->fn->nparams, nargs);
        return TK_ERR_INVALID_ARGUMENT;
    }
    if (nargs > 64) return TK_ERR_INVALID_ARGUMENT;
    TkArg targs[64];
    void *ptrs[64];
    for (unsigned i = 0; i < nargs; i++) {
        targs[i].data = args[i].data;
        targs[i].rank = args[i].rank;
        memcpy(targs[i].shape, args[i].shape, sizeof targs[i].shape);
        ptrs[i] = args[i].data;
        if (k->fn->params[i].type->kind != TK_TY_GL && args[i].rank != 0) {
            snprintf(p->error, sizeof p->error, "argument %s of kernel %s is a scalar: pass it with TK_SCALAR", k->fn->params[i].name,
                     k->fn->name);
            return TK_ERR_INVALID_ARGUMENT;
        }
    }
    int64_t sizes[TK_MAX_SIZES];
    if (tir_bind_sizes(k->fn, targs, nargs, sizes, p->error, sizeof p->error) != 0) return TK_ERR_INVALID_ARGUMENT;
    if (p->kind == TK_TARGET_NVPTX) {
        snprintf(p->error, sizeof p->error,
                 "kernel %s was compiled for %s: it runs on an NVIDIA GPU, through tk_call on a context of device TK_DEVICE_CUDA",
                 k->fn->display, p->target);
        return TK_ERR_TARGET;
    }
    if (p->kind == TK_TARGET_EMU && !k->compiled && compile_gpu_kernel(k, p->error, sizeof p->error) != 0) return TK_ERR_TARGET;
    if (tk_cpu_launch(k->grid, k->block, ptrs, sizes, threads, p->error, sizeof p->error) != 0) return TK_ERR_INVALID_ARGUMENT;
    /* an emulated block that failed (lanes that never met) stops where it is: say so */
    if (p->kind == TK_TARGET_EMU && tk_emu_take_error(p->error, sizeof p->error)) return TK_ERR_INTERNAL;
    return TK_OK;
}

/* ------------------------------------------------------------ compiler_gpu.h */

tk_status tkr_compile_gpu_lazy(const char *name, const char *text, size_t len, const char *target, tk_program **out, char **diagnostics)
{
    if (diagnostics) *diagnostics = NULL;
    if (!out || (!text && len) || !target) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    tk_program *p = calloc(1, sizeof *p);
    if (!p) return TK_ERR_OUT_OF_MEMORY;
    p->lazy = true;
    if (tk_front_load_memory(&p->front, name ? name : "<source>", text ? text : "", len) != 0) {
        free(p);
        return TK_ERR_OUT_OF_MEMORY;
    }
    tk_compile_options o = { .target = target };
    return compile(p, &o, out, diagnostics);
}

tk_status tkr_kernel_compile(tk_kernel *k)
{
    tk_program *p = k->program;
    if (k->compiled || (p->kind != TK_TARGET_EMU && p->kind != TK_TARGET_NVPTX)) return TK_OK;
    return compile_gpu_kernel(k, p->error, sizeof p->error) == 0 ? TK_OK : TK_ERR_TARGET;
}

const TirFunc *tkr_kernel_tir(const tk_kernel *k) { return k->fn; }
const char *tkr_kernel_target(const tk_kernel *k) { return k->program->target; }
TkTargetKind tkr_kernel_target_kind(const tk_kernel *k) { return k->program->kind; }

tk_status tkr_kernel_ptx(tk_kernel *k, const char **ptx, uint64_t *serial)
{
    *ptx = NULL;
    tk_program *p = k->program;
    if (p->kind != TK_TARGET_NVPTX) {
        snprintf(p->error, sizeof p->error, "kernel %s was compiled for %s, not for an NVIDIA GPU", k->fn->display,
                 p->target ? p->target : "the host");
        return TK_ERR_TARGET;
    }
    if (!k->compiled && compile_gpu_kernel(k, p->error, sizeof p->error) != 0) return TK_ERR_TARGET;
    *ptx = k->ptx;
    *serial = k->serial;
    return TK_OK;
}
