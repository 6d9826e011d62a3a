/* run_cuda.c — see run_cuda.h. */
#include "run_cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_jit.h"
#include "nvptx.h"
#include "nvptx_mma.h"
#include "target.h"
#include "tir_bind.h"
#include "tir_interp.h"

/* the PTX of every kernel of m, NUL-terminated (free it) */
static char *ptx_of(TirModule *m, const char *target, char *err, size_t errlen)
{
    char *text = NULL;
    size_t n = 0;
    FILE *out = open_memstream(&text, &n);
    if (!out) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int rc = tk_nvptx_emit(m, target, TK_EMIT_ASM, out, err, errlen);
    fclose(out);
    if (rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int run_cuda_start(RunCuda *G, TirModule *m, const TirFunc *f, const char *target, RunArgs *A, const int64_t *sizes, char *err,
                   size_t errlen)
{
    memset(G, 0, sizeof *G);
    G->f = f;
    char *ptx = ptx_of(m, target, err, errlen);
    if (!ptx) return RUN_FAILED;
    if (tk_cuda_open(&G->cu, err, errlen) != 0 || tk_cuda_device(G->cu, G->device, sizeof G->device, &G->sm, err, errlen) != 0) {
        free(ptx);
        return RUN_FAILED;
    }
    int want = tk_nvptx_sm(target, NULL);
    if (G->sm < want) {
        snprintf(err, errlen, "%s is sm_%d; the kernel was compiled for %s", G->device, G->sm, target);
        free(ptx);
        return RUN_FAILED;
    }
    int rc = tk_cuda_load_ptx(G->cu, ptx, &G->mod, err, errlen);
    free(ptx);
    if (rc != 0) return RUN_FAILED;
    if (tir_interp_grid(f, A->scalar, sizes, G->grid, err, errlen) != 0) return RUN_FAILED;
    unsigned np = 0;
    for (unsigned p = 0; p < f->nparams; p++) {
        if (f->params[p].type->kind == TK_TY_GL) {
            G->bytes[p] = (size_t)A->count[p] * tir_elem_size(f->params[p].type->elem);
            if (tk_cuda_alloc(G->cu, G->bytes[p], &G->dptr[p], err, errlen) != 0 ||
                tk_cuda_copy_to(G->cu, G->dptr[p], A->args[p].data, G->bytes[p], err, errlen) != 0)
                return RUN_FAILED;
            G->params[np++] = &G->dptr[p];
        } else {
            G->params[np++] = A->args[p].data;   /* the scalar's value, in its kernel type */
        }
    }
    unsigned nsizes = f->sizes ? f->sizes->count : 0;
    for (unsigned s = 0; s < nsizes; s++) {
        G->sizes[s] = sizes[s];
        G->params[np++] = &G->sizes[s];
    }
    G->threads = (f->warps > 0 ? f->warps : 1) * 32;
    return RUN_OK;
}

int run_cuda_launch(void *ctx, char *err, size_t errlen)
{
    RunCuda *G = ctx;
    return tk_cuda_launch(G->mod, G->f->name, G->grid, G->threads, G->params, NULL, err, errlen);
}

int run_cuda_fetch(RunCuda *G, RunArgs *A, char *err, size_t errlen)
{
    for (unsigned p = 0; p < G->f->nparams; p++)
        if (G->dptr[p] && tk_cuda_copy_from(G->cu, A->args[p].data, G->dptr[p], G->bytes[p], err, errlen) != 0) return -1;
    return 0;
}

void run_cuda_end(RunCuda *G)
{
    if (!G->cu) return;
    for (unsigned p = 0; p < RUN_MAX_PARAMS; p++) tk_cuda_free(G->cu, G->dptr[p]);
    tk_cuda_unload(G->mod);
    tk_cuda_close(G->cu);
    memset(G, 0, sizeof *G);
}
