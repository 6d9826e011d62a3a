/* tk/types.h — what every TileKit API shares: the status every call returns
 * and the element types of kernels' parameters and of runtime tensors.
 * Values are never renumbered: new ones are appended. */
#ifndef TK_TYPES_H
#define TK_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TK_OK = 0,
    TK_ERR_INVALID_ARGUMENT,   /* a NULL where a value is needed, a wrong shape or count */
    TK_ERR_SOURCE,             /* the .tk source has errors: see the diagnostics */
    TK_ERR_NOT_FOUND,          /* no kernel of that name, or a file that cannot be read */
    TK_ERR_TARGET,             /* the target is unknown or cannot run here */
    TK_ERR_OUT_OF_MEMORY,
    TK_ERR_INTERNAL,           /* a bug in TileKit: please report it with what you ran */
    TK_ERR_SHAPE,              /* shapes that do not fit the op (broadcasting, matmul dims, views) */
    TK_ERR_DTYPE,              /* an element type the op does not take, or two that do not match */
    TK_ERR_INDEX,              /* an axis or index out of range */
    TK_ERR_IO,                 /* a file that cannot be read or written, or is malformed */
    TK_ERR_UNSUPPORTED,        /* valid, but not implemented (the message says what) */
} tk_status;

/* Element types. Kernel parameters use BOOL, I32, I64, F32, F16, BF16;
 * runtime tensors take all of them (U16/U32/U64 and the low-precision types: runtime tensors only). */
typedef enum {
    TK_DTYPE_BOOL,
    TK_DTYPE_I32,
    TK_DTYPE_I64,
    TK_DTYPE_F32,
    TK_DTYPE_F16,
    TK_DTYPE_BF16,
    TK_DTYPE_F64,
    TK_DTYPE_I8,
    TK_DTYPE_I16,
    TK_DTYPE_U8,
    TK_DTYPE_U16,
    TK_DTYPE_U32,
    TK_DTYPE_U64,
    /* Low-precision storage types (runtime tensors only; ONNX's FLOAT8*, FLOAT4E2M1,
     * INT4/UINT4/INT2/UINT2). One element per byte in memory, the sub-byte ones
     * too (f4e2m1 as its 4-bit code, i4/i2 as a sign-extended int8, u4/u2 as a
     * uint8); only TensorProto I/O packs them. They convert to and from every
     * dtype (tk_to_dtype); arithmetic on them is refused with TK_ERR_DTYPE. */
    TK_DTYPE_F8E4M3FN,
    TK_DTYPE_F8E4M3FNUZ,
    TK_DTYPE_F8E5M2,
    TK_DTYPE_F8E5M2FNUZ,
    TK_DTYPE_F8E8M0,
    TK_DTYPE_F4E2M1,
    TK_DTYPE_I4,
    TK_DTYPE_U4,
    TK_DTYPE_I2,
    TK_DTYPE_U2,
} tk_dtype;

#define TK_NUM_DTYPES 23

#ifdef __cplusplus
}
#endif

#endif
