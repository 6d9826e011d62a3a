/* compiler.c — tk/compiler.h over the front end, TIR, and the CPU target.
 * The pipeline is the one tkc runs: load → parse → check → TIR → verify →
 * JIT (cache) → lookup; a tk_program keeps the AST arena alive because the
 * kernels' parameter types live there. */
#include "tk/compiler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_jit.h"
#include "front.h"
#include "lower.h"
#include "tir_bind.h"

struct tk_kernel {
    tk_program *program;
    const TirFunc *fn;
    TkGridFn grid;
    TkBlockFn block;
};

struct tk_program {
    TkFront front;
    TirModule tir;
    TkCpuModule *code;
    tk_kernel *kernels;
    unsigned nkernels;
    double compile_ms;
    bool cache_hit;
    char error[512];
};

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

static tk_status compile(tk_program *p, const tk_compile_options *opts, tk_program **out, char **diagnostics)
{
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
    TkCpuJitOptions jo = {
        .target = opts ? opts->target : NULL,
        .opt_level = opts && opts->opt_level > 0 ? opts->opt_level : 3,
        .no_cache = opts && opts->no_cache,
        .compile_ms = &p->compile_ms,
        .cache_hit = &p->cache_hit,
    };
    if (tk_cpu_jit(&p->tir, &jo, &p->code, p->error, sizeof p->error) != 0) {
        bool target = strstr(p->error, "target") != NULL;
        return fail(p, target ? TK_ERR_TARGET : TK_ERR_INTERNAL, diagnostics);
    }
    for (const TirFunc *f = p->tir.funcs; f; f = f->next) p->nkernels++;
    p->kernels = calloc(p->nkernels ? p->nkernels : 1, sizeof *p->kernels);
    if (!p->kernels) return fail(p, TK_ERR_OUT_OF_MEMORY, diagnostics);
    unsigned i = 0;
    for (const TirFunc *f = p->tir.funcs; f; f = f->next, i++) {
        tk_kernel *k = &p->kernels[i];
        k->program = p;
        k->fn = f;
        if (tk_cpu_lookup(p->code, f->name, &k->grid, &k->block, p->error, sizeof p->error) != 0)
            return fail(p, TK_ERR_INTERNAL, diagnostics);
    }
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
    tk_cpu_module_free(p->code);
    free(p->kernels);
    tk_front_free(&p->front);
    free(p);
}

double tk_program_compile_ms(const tk_program *p) { return p ? p->compile_ms : 0; }
int tk_program_cache_hit(const tk_program *p) { return p && p->cache_hit; }
unsigned tk_program_num_kernels(const tk_program *p) { return p ? p->nkernels : 0; }
const char *tk_program_kernel_name(const tk_program *p, unsigned i) { return p && i < p->nkernels ? p->kernels[i].fn->name : NULL; }
const char *tk_program_error(const tk_program *p) { return p ? p->error : "no program"; }

tk_kernel *tk_program_kernel(tk_program *p, const char *name)
{
    if (!p || !name) return NULL;
    for (unsigned i = 0; i < p->nkernels; i++)
        if (strcmp(p->kernels[i].fn->name, name) == 0) return &p->kernels[i];
    snprintf(p->error, sizeof p->error, "no kernel named '%s' in %s", name, p->front.src.name);
    return NULL;
}

unsigned tk_kernel_num_params(const tk_kernel *k) { return k ? k->fn->nparams : 0; }
unsigned tk_kernel_num_sizes(const tk_kernel *k) { return k && k->fn->sizes ? k->fn->sizes->count : 0; }
unsigned tk_kernel_warps(const tk_kernel *k) { return k ? (unsigned)k->fn->warps : 0; }

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
    if (tk_cpu_launch(k->grid, k->block, ptrs, sizes, threads, p->error, sizeof p->error) != 0) return TK_ERR_INVALID_ARGUMENT;
    return TK_OK;
}
