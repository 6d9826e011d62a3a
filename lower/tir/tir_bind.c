/* tir_bind.c — see tir_bind.h. */
#include "tir_bind.h"

#include <stdio.h>
#include <string.h>

#include "tk/dtype.h"

int tir_bind_sizes(const TirFunc *f, const TkArg *args, unsigned nargs, int64_t *sizes, char *err, size_t errlen)
{
    unsigned nsizes = f->sizes ? f->sizes->count : 0;
    bool bound[TK_MAX_SIZES] = { false };
    if (nsizes > TK_MAX_SIZES) {
        snprintf(err, errlen, "kernel %s has more than %d sizes", f->name, TK_MAX_SIZES);
        return -1;
    }
    if (nargs != f->nparams) {
        snprintf(err, errlen, "kernel %s takes %u arguments, got %u", f->name, f->nparams, nargs);
        return -1;
    }
    for (unsigned p = 0; p < f->nparams; p++) {
        const TkType *t = f->params[p].type;
        if (t->kind != TK_TY_GL) continue;
        if (args[p].rank != t->rank) {
            snprintf(err, errlen, "tensor %s of kernel %s has rank %u, but the kernel wants rank %u", f->params[p].name,
                     f->name, args[p].rank, t->rank);
            return -1;
        }
        for (unsigned d = 0; d < t->rank; d++) {
            TkSizeVar v;
            if (tk_poly_is_var(&t->gdims[d], &v) && v < nsizes && !bound[v]) {
                if (args[p].shape[d] < 0 || args[p].shape[d] > INT32_MAX) {
                    snprintf(err, errlen, "tensor %s: dimension %u = %lld is out of range for size %s", f->params[p].name, d,
                             (long long)args[p].shape[d], f->sizes->names[v]);
                    return -1;
                }
                sizes[v] = args[p].shape[d];
                bound[v] = true;
            }
        }
    }
    for (unsigned v = 0; v < nsizes; v++) {
        if (!bound[v]) {
            snprintf(err, errlen, "size %s of kernel %s is not bound by any tensor", f->sizes->names[v], f->name);
            return -1;
        }
    }
    for (unsigned p = 0; p < f->nparams; p++) {
        const TkType *t = f->params[p].type;
        if (!args[p].data && (t->kind != TK_TY_GL || tir_tensor_elements(f, p, sizes) > 0)) {
            snprintf(err, errlen, "argument %s of kernel %s has no data", f->params[p].name, f->name);
            return -1;
        }
        if (t->kind != TK_TY_GL) continue;
        for (unsigned d = 0; d < t->rank; d++) {
            int64_t want;
            if (!tk_poly_eval(&t->gdims[d], sizes, nsizes, &want)) {
                snprintf(err, errlen, "tensor %s: dimension %u overflows", f->params[p].name, d);
                return -1;
            }
            if (want != args[p].shape[d]) {
                char dim[96];
                tk_type_format(t, dim, sizeof dim);
                snprintf(err, errlen, "tensor %s (%s): dimension %u is %lld, but the bound sizes make it %lld",
                         f->params[p].name, dim, d, (long long)args[p].shape[d], (long long)want);
                return -1;
            }
        }
    }
    return 0;
}

int64_t tir_tensor_dim(const TirFunc *f, unsigned p, unsigned d, const int64_t *sizes)
{
    const TkType *t = f->params[p].type;
    int64_t v = 0;
    if (t->kind != TK_TY_GL || d >= t->rank) return 0;
    if (!tk_poly_eval(&t->gdims[d], sizes, f->sizes ? f->sizes->count : 0, &v)) return 0;
    return v;
}

int64_t tir_tensor_elements(const TirFunc *f, unsigned p, const int64_t *sizes)
{
    const TkType *t = f->params[p].type;
    if (t->kind != TK_TY_GL) return 0;
    int64_t n = 1;
    for (unsigned d = 0; d < t->rank; d++) {
        int64_t dim = tir_tensor_dim(f, p, d, sizes);
        if (__builtin_mul_overflow(n, dim, &n)) return 0;
    }
    return n;
}

double tir_elem_get(TkTypeKind k, const void *data, int64_t i)
{
    switch (k) {
    case TK_TY_F32: return ((const float *)data)[i];
    case TK_TY_BF16: return tk_bf16_to_f32(((const uint16_t *)data)[i]);
    case TK_TY_F16: return tk_f16_to_f32(((const uint16_t *)data)[i]);
    default: return 0;
    }
}

void tir_elem_set(TkTypeKind k, void *data, int64_t i, double v)
{
    switch (k) {
    case TK_TY_F32: ((float *)data)[i] = (float)v; break;
    case TK_TY_BF16: ((uint16_t *)data)[i] = tk_bf16_from_f32((float)v); break;
    case TK_TY_F16: ((uint16_t *)data)[i] = tk_f16_from_f32((float)v); break;
    default: break;
    }
}

size_t tir_elem_size(TkTypeKind k) { return k == TK_TY_F32 ? 4 : 2; }
