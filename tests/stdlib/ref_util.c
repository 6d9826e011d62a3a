/* ref_util.c — lookups and activation functions shared by the stdlib
 * kernels' references (see reference.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

/* A name the reference asks for and the case does not have: a bug in the
 * reference (or a kernel signature that changed under it). Say which, and
 * stop: a made-up value would give a wrong expected result. */
static void missing(const TkRefCall *call, const char *what, const char *name)
{
    fprintf(stderr, "reference of %s: the kernel has no %s '%s' (", call->kernel, what, name);
    if (strcmp(what, "tensor") == 0)
        for (unsigned i = 0; i < call->ntensors; i++) fprintf(stderr, "%s%s", i ? ", " : "tensors: ", call->tensors[i].name);
    else if (strcmp(what, "scalar parameter") == 0)
        for (unsigned i = 0; i < call->nscalars; i++) fprintf(stderr, "%s%s", i ? ", " : "scalars: ", call->scalars[i].name);
    else
        for (unsigned i = 0; i < call->nsizes; i++) fprintf(stderr, "%s%s", i ? ", " : "sizes: ", call->sizes[i].name);
    fprintf(stderr, ")\n");
    exit(2);
}

TkRefTensor *tk_ref_tensor(TkRefCall *call, const char *name)
{
    for (unsigned i = 0; i < call->ntensors; i++)
        if (strcmp(call->tensors[i].name, name) == 0) return &call->tensors[i];
    missing(call, "tensor", name);
    return NULL;
}

TkRefTensor *tk_ref_tensor_rank(TkRefCall *call, const char *name, unsigned rank)
{
    TkRefTensor *t = tk_ref_tensor(call, name);
    if (t->rank != rank) {
        fprintf(stderr, "reference of %s: tensor '%s' has rank %u, the reference expects %u\n", call->kernel, name, t->rank, rank);
        exit(2);
    }
    return t;
}

double *tk_ref_data(TkRefCall *call, const char *name) { return tk_ref_tensor(call, name)->data; }

double tk_ref_scalar(TkRefCall *call, const char *name)
{
    for (unsigned i = 0; i < call->nscalars; i++)
        if (strcmp(call->scalars[i].name, name) == 0) return call->scalars[i].value;
    missing(call, "scalar parameter", name);
    return 0;
}

int64_t tk_ref_size(TkRefCall *call, const char *name)
{
    for (unsigned i = 0; i < call->nsizes; i++)
        if (strcmp(call->sizes[i].name, name) == 0) return (int64_t)call->sizes[i].value;
    missing(call, "size", name);
    return 0;
}

/* LANGUAGE.md §6.5 */
double tk_ref_relu(double x) { return x > 0 ? x : 0; }

double tk_ref_gelu(double x)
{
    const double sqrt_2_over_pi = 0.79788456080286535588;   /* √(2/π) */
    return 0.5 * x * (1 + tanh(sqrt_2_over_pi * (x + 0.044715 * x * x * x)));
}

double tk_ref_silu(double x) { return x / (1 + exp(-x)); }

tk_ref_fn tk_ref_find(const char *kernel)
{
    for (unsigned t = 0; tk_ref_tables[t]; t++)
        for (const TkRefKernel *r = tk_ref_tables[t]; r->kernel; r++)
            if (strcmp(r->kernel, kernel) == 0) return r->fn;
    return NULL;
}

enum { PANEL = 32 };   /* columns per panel of a packed plane */

/* Where element (r, c) of a packed plane of R rows and C columns lives,
 * relative to the plane's start: its panel (PANEL columns, the last one
 * possibly narrower) begins after PANEL·R elements per earlier panel; inside
 * it, a row is `width` elements — or, with pairs, rows 2i and 2i+1 share a
 * run of 2·width where their elements alternate, except an odd last row. */
int64_t tk_ref_packed_at(int64_t r, int64_t c, int64_t R, int64_t C, bool pairs)
{
    int64_t panel = c / PANEL, col = c - panel * PANEL;
    int64_t width = C - panel * PANEL < PANEL ? C - panel * PANEL : PANEL;
    int64_t start = panel * PANEL * R;
    bool paired_row = pairs && r < R - R % 2;
    if (paired_row) return start + (r / 2) * 2 * width + 2 * col + r % 2;
    return start + r * width + col;
}

int64_t tk_ref_packed_b_index(const TkRefTensor *P, int64_t k, int64_t j, bool pairs)
{
    int64_t NB = P->shape[0], KT = P->shape[1], R = P->shape[2], C = P->shape[3];
    if (k < 0 || j < 0 || k / R >= KT || j / C >= NB) return -1;
    return ((j / C) * KT + k / R) * R * C + tk_ref_packed_at(k % R, j % C, R, C, pairs);
}
