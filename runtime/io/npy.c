/* npy.c — tk_load_npy / tk_save_npy over the shared codec (npy_codec.c). */
#include <stdlib.h>

#include "internal.h"
#include "npy_codec.h"
#include "tk/io.h"

static const struct {
    TkNpyDtype npy;
    tk_dtype dtype;
} map[] = {
    { TK_NPY_F32, TK_DTYPE_F32 }, { TK_NPY_F64, TK_DTYPE_F64 }, { TK_NPY_F16, TK_DTYPE_F16 }, { TK_NPY_U16, TK_DTYPE_BF16 },
    { TK_NPY_I8, TK_DTYPE_I8 },   { TK_NPY_I16, TK_DTYPE_I16 }, { TK_NPY_I32, TK_DTYPE_I32 }, { TK_NPY_I64, TK_DTYPE_I64 },
    { TK_NPY_U8, TK_DTYPE_U8 },   { TK_NPY_BOOL, TK_DTYPE_BOOL }, { TK_NPY_U32, TK_DTYPE_U32 }, { TK_NPY_U64, TK_DTYPE_U64 },
    /* u16 is written as <u2 as NumPy reads it, but a <u2 file reads as bf16 (the
     * runtime's convention for bf16 bits, first in this table so the load keeps it) */
    { TK_NPY_U16, TK_DTYPE_U16 },
};

static void free_npy_data(void *data, void *arg)
{
    (void)arg;
    free(data);
}

tk_status tk_load_npy(tk_context *ctx, const char *path, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!path) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_load_npy: path is NULL");
    if (!ctx->device->host_ops) {   /* read on the host, then moved: a GPU's tensors are its own memory */
        tk_tensor *h = NULL;
        return tkr_moved_from_host(ctx, tk_load_npy(ctx->host, path, &h), &h, out);
    }
    TkNpyArray a;
    char err[600];
    if (tk_npy_read(path, &a, err, sizeof err) != 0) return tkr_error(ctx, TK_ERR_IO, "tk_load_npy: %s", err);
    tk_dtype dt = TK_DTYPE_F32;
    for (unsigned i = sizeof map / sizeof map[0]; i-- > 0;)   /* the first match: <u2 → bf16 */
        if (map[i].npy == a.dtype) dt = map[i].dtype;
    /* the tensor takes over the codec's buffer: no second copy */
    tk_status s = tk_from_blob(ctx, a.data, dt, (int)a.rank, a.shape, NULL, TK_BLOB_WRITABLE, free_npy_data, NULL, out);
    if (s) tk_npy_free(&a);
    return s;
}

tk_status tk_save_npy(tk_context *ctx, const tk_tensor *t, const char *path)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    tk_status s = tkr_check_arg(ctx, "tk_save_npy", "t", t);
    if (s) return s;
    if (!path) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_save_npy: path is NULL");
    if (tkr_dtype_is_lowp(t->dtype))   /* ml_dtypes' arrays save as raw void bytes ('|V1'): nothing a reader can interpret */
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "tk_save_npy: .npy has no %s dtype: convert the tensor first (tk_to_dtype)",
                         tk_dtype_name(t->dtype));
    TkNpyDtype npy = TK_NPY_F32;
    for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].dtype == t->dtype) npy = map[i].npy;
    tk_tensor *c;
    if ((s = tkr_contiguous(ctx, t, &c))) return s;
    char err[600];
    int rc = tk_npy_write(path, npy, c->shape, (unsigned)c->ndim, tkr_ptr(c), err, sizeof err);
    tk_tensor_release(c);
    if (rc != 0) return tkr_error(ctx, TK_ERR_IO, "tk_save_npy: %s", err);
    return tkr_ok(ctx);
}
