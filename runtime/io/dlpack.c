/* dlpack.c — tk_to_dlpack / tk_from_dlpack and their legacy (unversioned)
 * twins: the tensor's memory handed to another framework and back, never
 * copied. Export keeps a reference to the tensor in the managed tensor (the
 * consumer's deleter call releases it); import makes a blob tensor whose
 * storage deleter calls the producer's deleter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tk/dlpack.h"

/* ------------------------------------------------------------ dtypes */

static const struct {
    tk_dtype dtype;
    uint8_t code, bits;
} dl_types[] = {
    { TK_DTYPE_F32, kDLFloat, 32 }, { TK_DTYPE_F64, kDLFloat, 64 }, { TK_DTYPE_F16, kDLFloat, 16 },
    { TK_DTYPE_BF16, kDLBfloat, 16 }, { TK_DTYPE_I8, kDLInt, 8 },   { TK_DTYPE_I16, kDLInt, 16 },
    { TK_DTYPE_I32, kDLInt, 32 },   { TK_DTYPE_I64, kDLInt, 64 },   { TK_DTYPE_U8, kDLUInt, 8 },
    { TK_DTYPE_BOOL, kDLBool, 8 },  { TK_DTYPE_U16, kDLUInt, 16 }, { TK_DTYPE_U32, kDLUInt, 32 }, { TK_DTYPE_U64, kDLUInt, 64 },
};
#define NUM_DL_TYPES (sizeof dl_types / sizeof dl_types[0])

static const char *dl_code_name(uint8_t code)
{
    switch (code) {
    case kDLInt: return "int";
    case kDLUInt: return "uint";
    case kDLFloat: return "float";
    case kDLOpaqueHandle: return "opaque handle";
    case kDLBfloat: return "bfloat";
    case kDLComplex: return "complex";
    case kDLBool: return "bool";
    }
    return "unknown type code";
}

/* ------------------------------------------------------------ export */

/* The managed tensor is the first member, so the deleter's `self` is the holder. */
typedef struct {
    DLManagedTensorVersioned managed;
    int64_t shape[TK_MAX_DIMS], strides[TK_MAX_DIMS];
} ExportVersioned;

typedef struct {
    DLManagedTensor managed;
    int64_t shape[TK_MAX_DIMS], strides[TK_MAX_DIMS];
} ExportLegacy;

static void delete_export_versioned(DLManagedTensorVersioned *self)
{
    if (!self) return;
    tk_tensor_release(self->manager_ctx);
    free(self);
}

static void delete_export_legacy(DLManagedTensor *self)
{
    if (!self) return;
    tk_tensor_release(self->manager_ctx);
    free(self);
}

static void describe(const tk_tensor *t, DLTensor *dl, int64_t *shape, int64_t *strides)
{
    for (size_t i = 0; i < NUM_DL_TYPES; i++)
        if (dl_types[i].dtype == t->dtype) dl->dtype = (DLDataType){ dl_types[i].code, dl_types[i].bits, 1 };
    memcpy(shape, t->shape, sizeof t->shape);
    memcpy(strides, t->strides, sizeof t->strides);
    dl->data = tkr_ptr(t);
    dl->device = (DLDevice){ kDLCPU, 0 };
    dl->ndim = t->ndim;
    dl->shape = shape;
    dl->strides = strides;
    dl->byte_offset = 0;
}

tk_status tk_to_dlpack(tk_context *ctx, const tk_tensor *t, DLManagedTensorVersioned **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    tk_status s = tkr_check_arg(ctx, "tk_to_dlpack", "t", t);
    if (s) return s;
    if (tkr_dtype_is_lowp(t->dtype))
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "tk_to_dlpack: %s has no DLPack type here: convert the tensor first", tk_dtype_name(t->dtype));
    ExportVersioned *e = calloc(1, sizeof *e);
    if (!e) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "tk_to_dlpack: out of memory");
    e->managed.version = (DLPackVersion){ 1, 0 };
    e->managed.manager_ctx = tk_tensor_retain((tk_tensor *)t);
    e->managed.deleter = delete_export_versioned;
    e->managed.flags = t->storage->readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
    describe(t, &e->managed.dl_tensor, e->shape, e->strides);
    *out = &e->managed;
    return tkr_ok(ctx);
}

tk_status tk_to_dlpack_legacy(tk_context *ctx, const tk_tensor *t, DLManagedTensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    tk_status s = tkr_check_arg(ctx, "tk_to_dlpack_legacy", "t", t);
    if (s) return s;
    if (tkr_dtype_is_lowp(t->dtype))
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "tk_to_dlpack_legacy: %s has no DLPack type here: convert the tensor first", tk_dtype_name(t->dtype));
    if (t->storage->readonly)
        return tkr_error(ctx, TK_ERR_UNSUPPORTED,
                         "tk_to_dlpack_legacy: t is read-only and an unversioned DLManagedTensor cannot say so; use tk_to_dlpack "
                         "(DLPack 1.0) or a tk_clone of it");
    ExportLegacy *e = calloc(1, sizeof *e);
    if (!e) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "tk_to_dlpack_legacy: out of memory");
    e->managed.manager_ctx = tk_tensor_retain((tk_tensor *)t);
    e->managed.deleter = delete_export_legacy;
    describe(t, &e->managed.dl_tensor, e->shape, e->strides);
    *out = &e->managed;
    return tkr_ok(ctx);
}

/* ------------------------------------------------------------ import */

static void call_versioned_deleter(void *data, void *arg)
{
    (void)data;
    DLManagedTensorVersioned *m = arg;
    if (m->deleter) m->deleter(m);
}

static void call_legacy_deleter(void *data, void *arg)
{
    (void)data;
    DLManagedTensor *m = arg;
    if (m->deleter) m->deleter(m);
}

/* Checks a DLTensor against what a tensor can be; its dtype on success. */
static tk_status check_dl(tk_context *ctx, const char *op, const DLTensor *dl, tk_dtype *dtype)
{
    if (dl->device.device_type != kDLCPU)
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "%s: the tensor is on device type %d (id %d); only kDLCPU memory is imported", op,
                         (int)dl->device.device_type, (int)dl->device.device_id);
    if (dl->dtype.lanes != 1)
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "%s: dtype %s%u with %u lanes; only 1 lane is supported", op,
                         dl_code_name(dl->dtype.code), dl->dtype.bits, dl->dtype.lanes);
    size_t k = 0;
    while (k < NUM_DL_TYPES && !(dl_types[k].code == dl->dtype.code && dl_types[k].bits == dl->dtype.bits)) k++;
    if (k == NUM_DL_TYPES)
        return tkr_error(ctx, TK_ERR_UNSUPPORTED,
                         "%s: dtype %s%u is not supported (float16/32/64, bfloat16, int8/16/32/64, uint8/16/32/64, bool8 are)", op,
                         dl_code_name(dl->dtype.code), dl->dtype.bits);
    *dtype = dl_types[k].dtype;
    if (dl->ndim < 0 || dl->ndim > TK_MAX_DIMS)
        return tkr_error(ctx, dl->ndim < 0 ? TK_ERR_INVALID_ARGUMENT : TK_ERR_UNSUPPORTED, "%s: %d dims (a tensor has 0 .. %d)", op,
                         (int)dl->ndim, TK_MAX_DIMS);
    if (dl->ndim > 0 && !dl->shape) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: shape is NULL for %d dims", op, (int)dl->ndim);
    char shp[160];
    tkr_shape_str(dl->ndim, dl->shape, shp, sizeof shp);
    for (int d = 0; d < dl->ndim; d++) {
        if (dl->shape[d] < 0)
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: shape %s has a negative size in dim %d", op, shp, d);
        if (dl->strides && dl->strides[d] < 0)
            return tkr_error(ctx, TK_ERR_UNSUPPORTED,
                             "%s: stride %lld of dim %d (shape %s) is negative; TileKit strides are >= 0: pass a copy "
                             "(np.ascontiguousarray, torch's .contiguous())",
                             op, (long long)dl->strides[d], d, shp);
    }
    uintptr_t first = (uintptr_t)dl->data + (uintptr_t)dl->byte_offset;
    if (first % tk_dtype_size(*dtype))
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "%s: the data (%p + byte_offset %llu) is not aligned to its %zu-byte elements", op,
                         dl->data, (unsigned long long)dl->byte_offset, tk_dtype_size(*dtype));
    return TK_OK;
}

static tk_status import(tk_context *ctx, const char *op, const DLTensor *dl, bool readonly, void (*deleter)(void *, void *),
                        void *managed, tk_tensor **out)
{
    tk_dtype dtype = TK_DTYPE_F32;   /* set by check_dl on success */
    if (!ctx->device->host_ops)
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "%s: host memory cannot become a tensor of device %s: import it into a CPU context and move it with tk_tensor_to",
                         op, ctx->device->name);
    tk_status s = check_dl(ctx, op, dl, &dtype);
    if (s) return s;
    char *first = dl->data ? (char *)dl->data + dl->byte_offset : NULL;
    s = tk_from_blob(ctx, first, dtype, dl->ndim, dl->shape, dl->strides, readonly ? TK_BLOB_READONLY : TK_BLOB_WRITABLE, deleter,
                     managed, out);
    if (s) {   /* tk_from_blob's message, under our name */
        char why[600];
        snprintf(why, sizeof why, "%s", tk_last_error(ctx));
        return tkr_error(ctx, s, "%s: %s", op, why);
    }
    return s;
}

tk_status tk_from_dlpack(tk_context *ctx, DLManagedTensorVersioned *managed, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!managed) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_from_dlpack: managed is NULL");
    if (managed->version.major != DLPACK_MAJOR_VERSION)
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "tk_from_dlpack: DLPack version %u.%u; this reader takes %d.x", managed->version.major,
                         managed->version.minor, DLPACK_MAJOR_VERSION);
    return import(ctx, "tk_from_dlpack", &managed->dl_tensor, managed->flags & DLPACK_FLAG_BITMASK_READ_ONLY,
                  call_versioned_deleter, managed, out);
}

tk_status tk_from_dlpack_legacy(tk_context *ctx, DLManagedTensor *managed, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!managed) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_from_dlpack_legacy: managed is NULL");
    return import(ctx, "tk_from_dlpack_legacy", &managed->dl_tensor, false, call_legacy_deleter, managed, out);
}
