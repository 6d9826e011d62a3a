/* npy_codec.h — reading and writing NumPy .npy files: the format `tkc run
 * --input`, `--expect` and `--output-dir` speak and the tensor runtime's
 * tk_load_npy/tk_save_npy read and write, so that tensors can come from (and
 * go back to) NumPy or PyTorch without a library. One codec for both.
 *
 * What is accepted: format versions 1.0, 2.0 and 3.0; C order; little-endian
 * element types <f4 (f32), <f8 (f64), <u2 (16-bit patterns), <f2 (IEEE
 * half), |i1 <i2 <i4 <i8 |u1 <u4 <u8 (integers) and |b1 (bool); any rank up to TK_NPY_MAX_RANK; the data must be exactly what the
 * shape says (no more, no less). Anything else — Fortran order, big-endian,
 * another dtype, a truncated or malformed header — is refused with a message
 * naming the file and what is wrong. Nothing here aborts or leaks. */
#ifndef TK_RUNTIME_IO_NPY_CODEC_H
#define TK_RUNTIME_IO_NPY_CODEC_H

#include <stddef.h>
#include <stdint.h>

#define TK_NPY_MAX_RANK 8

typedef enum {
    TK_NPY_F32, TK_NPY_F64, TK_NPY_U16, TK_NPY_F16,
    TK_NPY_I8, TK_NPY_I16, TK_NPY_I32, TK_NPY_I64, TK_NPY_U8, TK_NPY_BOOL,
    TK_NPY_U32, TK_NPY_U64,
} TkNpyDtype;

typedef struct {
    TkNpyDtype dtype;
    unsigned rank;
    int64_t shape[TK_NPY_MAX_RANK];
    int64_t count;    /* product of the shape (1 for rank 0) */
    void *data;       /* count elements of dtype, little-endian as in the file; free with tk_npy_free */
} TkNpyArray;

/* Reads `path` into *out. 0, or -1 with a one-line message in err (which
 * names the file); *out then owns nothing. */
int tk_npy_read(const char *path, TkNpyArray *out, char *err, size_t errlen);

/* Writes `count` = product(shape) elements of `dtype` as a version 1.0 file
 * (the header padded so that the data starts 64-byte aligned, as NumPy does).
 * 0, or -1 with a message. */
int tk_npy_write(const char *path, TkNpyDtype dtype, const int64_t *shape, unsigned rank, const void *data, char *err,
                 size_t errlen);

void tk_npy_free(TkNpyArray *a);

/* "<f4", "<f8", "<u2", "<f2", "|i1", "<i2", "<i4", "<i8", "|u1", "|b1", "<u4", "<u8". */
const char *tk_npy_dtype_name(TkNpyDtype d);
size_t tk_npy_dtype_size(TkNpyDtype d);

/* Element i as a double: floats and integers by value, u16 as the integer. */
/* True for the float types and <u2 (what tkc run feeds to tile tensors). */
int tk_npy_is_floatlike(TkNpyDtype d);
double tk_npy_get(const TkNpyArray *a, int64_t i);

/* "(3, 4)" — NumPy's way of writing a shape. */
void tk_npy_format_shape(const int64_t *shape, unsigned rank, char *buf, size_t len);

#endif
