/* onnx_tensor.h — one ONNX TensorProto decoded from bytes, for the .pb files
 * (onnx_tensor.c's tk_load_onnx_tensor) and the ONNX model loader's
 * initializers and Constant attributes. */
#ifndef TK_RUNTIME_IO_ONNX_TENSOR_H
#define TK_RUNTIME_IO_ONNX_TENSOR_H

#include <stddef.h>
#include <stdint.h>

#include "file_map.h"
#include "tk/tensor.h"

/* Where the bytes come from. map: the bytes lie in this mapping, so raw_data
 * aligned to its element size becomes a read-only view of it (no copy).
 * external: resolves a tensor stored outside (data_location EXTERNAL, the
 * `location` key relative to the model's folder) to a mapping the caller keeps
 * alive while decoding; NULL refuses external data. */
typedef struct {
    TkrFileMap *map;
    tk_status (*external)(void *arg, const char *location, TkrFileMap **out);
    void *arg;
} TkrOnnxSource;

/* Decodes buf[0, len). `op` and `what` name it in messages ("tk_onnx_load",
 * "initializer 'w' of 'm.onnx'"). name/name_len (may be NULL) receive the
 * TensorProto's name, pointing into buf. src may be NULL (always copy). */
tk_status tkr_onnx_tensor_decode(tk_context *ctx, const char *op, const char *what, const TkrOnnxSource *src,
                                 const uint8_t *buf, size_t len, tk_tensor **out, const uint8_t **name, size_t *name_len);

/* ONNX TensorProto.DataType <-> ours: -1 where we have no such dtype. */
int tkr_onnx_dtype(int64_t onnx_type);
int tkr_onnx_type_of(tk_dtype d);
const char *tkr_onnx_type_name(int64_t onnx_type);

#endif
