/* file_map.h — a read-only memory mapping of a whole file, refcounted, so
 * tensors that point into it (safetensors weights, ONNX initializers) keep it
 * alive after the file's handle is freed. */
#ifndef TK_RUNTIME_IO_FILE_MAP_H
#define TK_RUNTIME_IO_FILE_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "tk/tensor.h"

typedef struct TkrFileMap TkrFileMap;
struct TkrFileMap {
    const uint8_t *data;
    size_t len;
    /* private */
    long refs;
};

/* Maps `path` (a regular file; an empty one maps to data == NULL, len 0)
 * with one reference. Errors name `op` and the path. */
tk_status tkr_file_map(tk_context *ctx, const char *op, const char *path, TkrFileMap **out);
void tkr_file_map_retain(TkrFileMap *m);
void tkr_file_map_release(TkrFileMap *m);
/* A tensor over [p, p + bytes) of the mapping, read-only; it holds its own
 * reference on the mapping. */
tk_status tkr_file_map_tensor(tk_context *ctx, TkrFileMap *m, const void *p, tk_dtype dtype, int ndim, const int64_t *shape,
                              tk_tensor **out);

#endif
