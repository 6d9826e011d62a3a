/* tk/io.h — tensors to and from files. Ownership and errors as in tk/tensor.h.
 * A malformed file is TK_ERR_IO with a message naming the problem; a valid
 * one holding what the runtime cannot represent is TK_ERR_UNSUPPORTED.
 * (Sharing memory with NumPy and PyTorch, DLPack, is in tk/dlpack.h.)
 *
 * .npy: every runtime dtype; bf16 is written as <u2 (its bit patterns, as
 * NumPy has no bf16) and a <u2 file is read as bf16 — so is a u16 tensor's,
 * which is written as <u2 too (u32 and u64 are <u4 and <u8). Format versions 1.0-3.0,
 * C order, little-endian.
 *
 * ONNX TensorProto (.pb): one serialised onnx.TensorProto, as the ONNX test
 * suites store inputs and outputs (test_data_set_0/input_0.pb). Data types
 * FLOAT DOUBLE FLOAT16 BFLOAT16 INT8 INT16 INT32 INT64 UINT8 UINT16 UINT32
 * UINT64 BOOL; the data from raw_data or the typed fields (float_data,
 * int32_data, int64_data, double_data, uint64_data; packed or not). Others
 * (STRING, complex, float8, int4, ...), external data and segments are
 * TK_ERR_UNSUPPORTED.
 *
 * safetensors: the file is mapped read-only and tensors point into the
 * mapping (no copy; read-only tensors, as tk_from_blob with
 * TK_BLOB_READONLY). A tensor keeps the mapping alive, so the file handle may
 * be freed before the tensors taken from it. Dtypes F32 F64 F16 BF16 I8 I16
 * I32 I64 U8 U16 U32 U64 BOOL; a tensor of another valid safetensors dtype
 * (F8_E4M3, ...) is TK_ERR_UNSUPPORTED when asked for, and the rest of the file stays
 * readable. */
#ifndef TK_IO_H
#define TK_IO_H

#include "tk/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

tk_status tk_load_npy(tk_context *ctx, const char *path, tk_tensor **out);
tk_status tk_save_npy(tk_context *ctx, const tk_tensor *t, const char *path);

/* ---------------------------------------------------------------- ONNX TensorProto */

tk_status tk_load_onnx_tensor(tk_context *ctx, const char *path, tk_tensor **out);
/* The same, and the TensorProto's name into *name (may be NULL: not wanted),
 * a string the caller frees with free(); "" when the file names none. */
tk_status tk_load_onnx_tensor_named(tk_context *ctx, const char *path, tk_tensor **out, char **name);
/* Writes dims, data_type, name (NULL: none) and raw_data. */
tk_status tk_save_onnx_tensor(tk_context *ctx, const tk_tensor *t, const char *path, const char *name);

/* ---------------------------------------------------------------- safetensors */

typedef struct tk_safetensors tk_safetensors;

/* Maps the file and checks its whole header (JSON: every tensor's dtype,
 * shape and data_offsets within the file and not overlapping, bytes matching
 * the shape). The handle is freed with tk_safetensors_free. */
tk_status tk_load_safetensors(tk_context *ctx, const char *path, tk_safetensors **out);
/* NULL is fine. Tensors taken from the file stay valid. */
void tk_safetensors_free(tk_safetensors *f);
/* The tensors, in the header's order. name(i) is NULL for i out of range;
 * names live as long as the handle. */
size_t tk_safetensors_count(const tk_safetensors *f);
const char *tk_safetensors_name(const tk_safetensors *f, size_t i);
/* The tensor called name, a read-only view of the mapping (TK_ERR_NOT_FOUND
 * if there is none). Data that is not aligned to its element size (a file
 * whose header is not padded to 8 bytes) is copied into a new tensor instead. */
tk_status tk_safetensors_get(tk_context *ctx, const tk_safetensors *f, const char *name, tk_tensor **out);
/* "__metadata__": the value of key, or NULL; and the keys by index (NULL out of range). */
const char *tk_safetensors_metadata(const tk_safetensors *f, const char *key);
size_t tk_safetensors_metadata_count(const tk_safetensors *f);
const char *tk_safetensors_metadata_key(const tk_safetensors *f, size_t i);
/* Writes n tensors under their names (unique, not empty, not "__metadata__").
 * As the safetensors library does, the data has no gaps and is laid out
 * largest element size first (the given order among equal sizes), and the
 * header is padded to 8 bytes, so every tensor is aligned in the file. */
tk_status tk_save_safetensors(tk_context *ctx, const char *path, const char *const *names, const tk_tensor *const *tensors,
                              size_t n);

#ifdef __cplusplus
}
#endif

#endif
