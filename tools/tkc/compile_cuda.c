/* compile_cuda.c — see compile_cuda.h. The object is made by the CPU back
 * end, so it is an ordinary host object for the linker: the kernels' grid
 * functions are the CPU back end's own (each kernel compiled with an empty
 * body, its grid region kept, under the name NAME__cuda), and the PTX, the
 * cubin and the tk_rt_cuda_kernel records are constant globals added to the
 * same LLVM module. */
#define _GNU_SOURCE   /* mkstemps */
#include "compile_cuda.h"

#include <errno.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_jit.h"
#include "gpu_lower.h"
#include "nvptx.h"
#include "nvptx_mma.h"
#include "ptxas.h"
#include "target.h"
#include "tir_bind.h"

typedef struct {
    const TirModule *m;
    const char *ptx;
    size_t ptx_len;
    const unsigned char *cubin;
    size_t cubin_len;
    int sm;
    const char **names;   /* the kernels' names before the grid rename: their PTX entries */
    TkTmaPlan (*plans)[TK_TMA_MAX_MAPS];   /* per kernel, its TMA maps (gpu_tma.c), made before the bodies go */
    int *nplans;
} Extra;

static LLVMValueRef const_bytes(LLVMModuleRef mod, const char *name, const void *bytes, size_t n, bool nul)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMValueRef init = LLVMConstStringInContext2(ctx, bytes, n, !nul);
    LLVMValueRef g = LLVMAddGlobal(mod, LLVMTypeOf(init), name);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);   /* each object's own: several may be linked together */
    return g;
}

/* void NAME__cuda__tma(void *const *params, TkTmaDesc *descs): kernel f's
 * maps described from the launch's parameters (pointers to a tensor's
 * tk_cuda_ptr, then to each size), for tk_rt_cuda_launch to encode. */
static LLVMValueRef add_tma_fn(LLVMModuleRef mod, const TirFunc *f, const char *name, const TkTmaPlan *plans, int n)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0), i64 = LLVMInt64TypeInContext(ctx), dt = tk_gpu_tma_desc_type(ctx);
    LLVMTypeRef pt[2] = { ptr, ptr };
    char sym[600];
    snprintf(sym, sizeof sym, "%s__cuda__tma", name);
    LLVMValueRef fn = LLVMAddFunction(mod, sym, LLVMFunctionType(LLVMVoidTypeInContext(ctx), pt, 2, 0));
    LLVMSetLinkage(fn, LLVMPrivateLinkage);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
    LLVMValueRef params = LLVMGetParam(fn, 0), descs = LLVMGetParam(fn, 1);
    unsigned nsizes = f->sizes ? f->sizes->count : 0;
    LLVMValueRef sizes[TK_MAX_SIZES + 1];
    for (unsigned s = 0; s < nsizes && s < TK_MAX_SIZES; s++) {
        LLVMValueRef ix = LLVMConstInt(i64, f->nparams + s, 0);
        sizes[s] = LLVMBuildLoad2(b, i64, LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, ptr, params, &ix, 1, ""), ""), "");
    }
    TkGpuBuilder gb = { ctx, mod, b, NULL };
    for (int k = 0; k < n; k++) {
        LLVMValueRef ix = LLVMConstInt(i64, (unsigned long long)plans[k].param, 0), at = LLVMConstInt(i64, (unsigned long long)k, 0);
        LLVMValueRef addr = LLVMBuildLoad2(b, i64, LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, ptr, params, &ix, 1, ""), ""), "");
        tk_gpu_tma_fill(&gb, f, &plans[k], LLVMBuildIntToPtr(b, addr, ptr, ""), sizes, LLVMBuildGEP2(b, dt, descs, &at, 1, ""));
    }
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return fn;
}

/* The globals: the module's PTX and cubin, and per kernel NAME__cuda_kernel,
 * laid out as tk/rt.h's tk_rt_cuda_kernel { ptr, ptr, ptr, i64, i32, i32, ptr, i32, i32 }. */
static void add_globals(LLVMModuleRef mod, void *arg)
{
    const Extra *x = arg;
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0), i64 = LLVMInt64TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef fields[9] = { ptr, ptr, ptr, i64, i32, i32, ptr, i32, i32 };
    LLVMTypeRef rec = LLVMStructTypeInContext(ctx, fields, 9, 0);
    LLVMValueRef ptx = const_bytes(mod, "tk.ptx", x->ptx, x->ptx_len, true);
    LLVMValueRef cubin = x->cubin ? const_bytes(mod, "tk.cubin", x->cubin, x->cubin_len, false) : LLVMConstPointerNull(ptr);
    unsigned i = 0;
    for (const TirFunc *f = x->m->funcs; f; f = f->next, i++) {
        char sym[600];
        snprintf(sym, sizeof sym, "tk.name.%u", i);
        LLVMValueRef name = const_bytes(mod, sym, x->names[i], strlen(x->names[i]), true);
        int nt = x->nplans[i];
        LLVMValueRef tma = nt ? add_tma_fn(mod, f, x->names[i], x->plans[i], nt) : LLVMConstPointerNull(ptr);
        unsigned nparams = f->nparams + (f->sizes ? f->sizes->count : 0);
        LLVMValueRef v[9] = { name, ptx, cubin, LLVMConstInt(i64, x->cubin_len, 0), LLVMConstInt(i32, (unsigned long long)(32 * (f->warps > 0 ? f->warps : 1)), 0),
                              LLVMConstInt(i32, (unsigned long long)x->sm, 0), tma, LLVMConstInt(i32, (unsigned)nt, 0),
                              LLVMConstInt(i32, nparams, 0) };
        snprintf(sym, sizeof sym, "%s__cuda_kernel", x->names[i]);
        LLVMValueRef g = LLVMAddGlobal(mod, rec, sym);
        LLVMSetInitializer(g, LLVMConstNamedStruct(rec, v, 9));
        LLVMSetGlobalConstant(g, 1);
    }
}

/* ptxas's cubin of the PTX for arch: 0 and the bytes (malloc'd), 1 without ptxas, -1 when it failed (err). */
static int assemble(const char *arch, const char *ptx, size_t ptx_len, unsigned char **out, size_t *out_len, char *err, size_t errlen)
{
    *out = NULL;
    *out_len = 0;
    char pbuf[4096];
    const char *ptxas = tkc_find_ptxas(pbuf, sizeof pbuf);
    if (!ptxas) return 1;
    char in[] = "/tmp/tk_cubin_XXXXXX.ptx";
    int fd = mkstemps(in, 4);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary file: %s", strerror(errno));
        return -1;
    }
    bool wrote = write(fd, ptx, ptx_len) == (ssize_t)ptx_len;
    close(fd);
    char cubin[64], log[64];
    snprintf(cubin, sizeof cubin, "%.*s.cubin", (int)(strlen(in) - 4), in);
    snprintf(log, sizeof log, "%.*s.log", (int)(strlen(in) - 4), in);
    int rc = -1;
    if (!wrote) {
        snprintf(err, errlen, "cannot write %s", in);
    } else if (tkc_run_ptxas(ptxas, arch, in, cubin, 0, log) != 0) {
        char msg[600] = "";
        FILE *l = fopen(log, "r");
        size_t n = l ? fread(msg, 1, sizeof msg - 1, l) : 0;
        if (l) fclose(l);
        msg[n] = '\0';
        snprintf(err, errlen, "%s rejected the PTX for %s (a bug in tkc: please report it): %s", ptxas, arch, msg);
    } else {
        FILE *c = fopen(cubin, "rb");
        if (c && fseek(c, 0, SEEK_END) == 0) {
            long size = ftell(c);
            rewind(c);
            *out = size > 0 ? malloc((size_t)size) : NULL;
            if (*out && fread(*out, 1, (size_t)size, c) == (size_t)size) {
                *out_len = (size_t)size;
                rc = 0;
            }
        }
        if (c) fclose(c);
        if (rc != 0) {
            free(*out);
            *out = NULL;
            snprintf(err, errlen, "cannot read ptxas's output %s", cubin);
        }
    }
    unlink(in);
    unlink(cubin);
    unlink(log);
    return rc;
}

int tkc_compile_cuda(TirModule *m, const char *target, FILE *obj, char *err, size_t errlen)
{
    char *ptx = NULL;
    size_t ptx_len = 0;
    FILE *text = open_memstream(&ptx, &ptx_len);
    if (!text) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = tk_nvptx_emit(m, target, TK_EMIT_ASM, text, err, errlen);
    fclose(text);
    if (rc != 0) {
        free(ptx);
        return rc;
    }
    unsigned char *cubin = NULL;
    size_t cubin_len = 0;
    if (assemble(target, ptx, ptx_len, &cubin, &cubin_len, err, errlen) < 0) {
        free(ptx);
        return -1;
    }
    /* the host half: each kernel's grid region alone, its body emptied */
    unsigned n = 0;
    for (const TirFunc *f = m->funcs; f; f = f->next) n++;
    const char **names = calloc(n ? n : 1, sizeof *names);
    char **renamed = calloc(n ? n : 1, sizeof *renamed);
    TkTmaPlan(*plans)[TK_TMA_MAX_MAPS] = calloc(n ? n : 1, sizeof *plans);
    int *nplans = calloc(n ? n : 1, sizeof *nplans);
    TkGpuTarget gt = { &tk_gpu_nvptx, target, 32 };
    unsigned i = 0;
    for (TirFunc *f = m->funcs; f && names && renamed && plans && nplans; f = f->next, i++) {
        nplans[i] = tk_gpu_tma_plan(f, &gt, plans[i], TK_TMA_MAX_MAPS);
        names[i] = f->name;
        renamed[i] = malloc(strlen(f->name) + 8);
        if (!renamed[i]) break;
        sprintf(renamed[i], "%s__cuda", f->name);
        f->name = renamed[i];
        f->body.first = f->body.last = NULL;
        f->shared_bytes = 0;
    }
    if (!names || !renamed || !plans || !nplans || i < n) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    } else {
        Extra x = { m, ptx, ptx_len, cubin, cubin_len, tk_nvptx_sm(target, NULL), names, plans, nplans };
        TkCpuJitOptions jo = { .opt_level = 2, .extend = (void (*)(struct LLVMOpaqueModule *, void *))add_globals, .extend_arg = &x };
        rc = tk_cpu_emit(m, &jo, TK_EMIT_OBJ, obj, err, errlen) == 0 ? 0 : -1;
    }
    i = 0;
    for (TirFunc *f = m->funcs; f && names; f = f->next, i++) f->name = names[i];   /* the arena's strings again */
    for (unsigned k = 0; k < n && renamed; k++) free(renamed[k]);
    free(names);
    free(renamed);
    free(plans);
    free(nplans);
    free(cubin);
    free(ptx);
    return rc;
}
