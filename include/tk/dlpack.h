/* tk/dlpack.h — sharing tensors' memory with NumPy, PyTorch, JAX, CuPy ...
 * through DLPack, without a copy. Ownership and errors as in tk/tensor.h.
 *
 * The DLPack structs below are ABI-compatible with dlpack.h 1.0 (written from
 * the specification: same members, order and types). A program that includes
 * the real dlpack.h (1.0 or later) before this header uses its definitions
 * instead; including it after this header is a no-op, as this header defines
 * its include guard. Version 0.x headers lack the versioned struct: #error.
 *
 * Export: tk_to_dlpack hands out a DLManagedTensorVersioned (Python capsule
 * name "dltensor_versioned") over the tensor's own memory, holding a
 * reference to the tensor until the consumer calls its deleter (from any
 * thread; the tensor's context must still be alive then).
 * tk_to_dlpack_legacy does the same with the unversioned DLManagedTensor
 * ("dltensor"), the only kind NumPy < 2.1 and PyTorch < 2.5 take.
 *
 * Import: tk_from_dlpack(_legacy) makes a tensor over the producer's memory;
 * when the tensor's storage goes (its last tensor or view released) the
 * producer's deleter runs, exactly once. On failure the managed tensor is
 * left untouched and still belongs to the caller (call its deleter, or try
 * something else). kDLCPU only; dtypes float 16/32/64, bfloat 16, int 8-64,
 * uint 8, bool (8-bit); one lane; strides >= 0 (NULL: contiguous); the data
 * (data + byte_offset) aligned to the element size; the read-only flag makes
 * a read-only tensor (tk_from_blob's TK_BLOB_READONLY).
 *
 * Strides are in elements on both sides, as in tk/tensor.h. */
#ifndef TK_DLPACK_H
#define TK_DLPACK_H

#include <stdint.h>

#include "tk/tensor.h"

#if defined(DLPACK_DLPACK_H_) && !defined(DLPACK_MAJOR_VERSION)
#error "tk/dlpack.h needs DLPack 1.0 or later; an older dlpack.h was included first"
#endif

#ifndef DLPACK_MAJOR_VERSION
#define DLPACK_DLPACK_H_   /* the real dlpack.h, included later, adds nothing */
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

typedef enum {
    kDLCPU = 1,
    kDLCUDA = 2,
    kDLCUDAHost = 3,
    kDLOpenCL = 4,
    kDLVulkan = 7,
    kDLMetal = 8,
    kDLVPI = 9,
    kDLROCM = 10,
    kDLROCMHost = 11,
    kDLExtDev = 12,
    kDLCUDAManaged = 13,
    kDLOneAPI = 14,
    kDLWebGPU = 15,
    kDLHexagon = 16,
    kDLMAIA = 17,
} DLDeviceType;

typedef struct {
    DLDeviceType device_type;
    int32_t device_id;
} DLDevice;

typedef enum {
    kDLInt = 0U,
    kDLUInt = 1U,
    kDLFloat = 2U,
    kDLOpaqueHandle = 3U,
    kDLBfloat = 4U,
    kDLComplex = 5U,
    kDLBool = 6U,
} DLDataTypeCode;

typedef struct {
    uint8_t code;    /* a DLDataTypeCode */
    uint8_t bits;
    uint16_t lanes;
} DLDataType;

typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;       /* in elements; NULL: compact row-major */
    uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)

typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

#ifdef __cplusplus
}
#endif
#endif /* DLPACK_MAJOR_VERSION */

#ifdef __cplusplus
extern "C" {
#endif

/* t's memory as a DLPack tensor (version 1.0; READ_ONLY set for read-only
 * tensors). *out belongs to the caller until it calls (*out)->deleter(*out)
 * or hands it to a consumer that will. data points at t's first element
 * (byte_offset 0); strides are t's. */
tk_status tk_to_dlpack(tk_context *ctx, const tk_tensor *t, DLManagedTensorVersioned **out);
/* The same as an unversioned DLManagedTensor, which cannot say "read-only":
 * a read-only tensor is refused (TK_ERR_UNSUPPORTED) rather than handed out
 * as writable memory. */
tk_status tk_to_dlpack_legacy(tk_context *ctx, const tk_tensor *t, DLManagedTensor **out);

/* A tensor over the managed tensor's memory, no copy; see the top. */
tk_status tk_from_dlpack(tk_context *ctx, DLManagedTensorVersioned *managed, tk_tensor **out);
tk_status tk_from_dlpack_legacy(tk_context *ctx, DLManagedTensor *managed, tk_tensor **out);

#ifdef __cplusplus
}
#endif

#endif
