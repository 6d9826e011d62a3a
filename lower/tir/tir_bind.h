/* tir_bind.h — binding a kernel's arguments at launch: the shapes of the
 * tensors give the size variables, and then every dimension of every tensor
 * parameter must agree with its gl type. Shared by every backend and the
 * reference interpreter. */
#ifndef TK_LOWER_TIR_BIND_H
#define TK_LOWER_TIR_BIND_H

#include <stddef.h>
#include <stdint.h>

#include "tir.h"

#define TK_MAX_SIZES 64

/* One kernel argument. Tensors: contiguous row-major data of the parameter's
 * element type (f32 = float, bf16/f16 = 16-bit patterns) and its shape.
 * Scalars: `data` points to a value of the parameter's type (bool = uint8_t). */
typedef struct {
    void *data;
    int64_t shape[TK_GL_MAX_RANK];
    unsigned rank;
} TkArg;

/* Fills sizes[0 .. f->sizes->count) from the arguments and checks every
 * tensor's rank and dims. Returns 0, or -1 with a one-line message in err
 * naming the parameter and the dimension that disagrees. */
int tir_bind_sizes(const TirFunc *f, const TkArg *args, unsigned nargs, int64_t *sizes, char *err, size_t errlen);

/* Number of elements of tensor parameter p under the bound sizes (0 if not a tensor). */
int64_t tir_tensor_elements(const TirFunc *f, unsigned p, const int64_t *sizes);
/* Dimension d of tensor parameter p under the bound sizes. */
int64_t tir_tensor_dim(const TirFunc *f, unsigned p, unsigned d, const int64_t *sizes);

/* Host-side access to one element of a tensor of element type k (f32, or
 * bf16/f16 bit patterns), as a double; storing rounds to nearest even. */
double tir_elem_get(TkTypeKind k, const void *data, int64_t i);
void tir_elem_set(TkTypeKind k, void *data, int64_t i, double v);
size_t tir_elem_size(TkTypeKind k);

#endif
