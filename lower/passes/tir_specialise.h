/* tir_specialise.h — specialisation of symbolic sizes: when the sizes of a
 * launch are known before compiling (tkc run), every SIZE op of the kernel
 * becomes a constant, so LLVM folds loop trip counts and the edge tests built
 * from them. The calling convention does not change: the sizes array is still
 * passed, and tensor dimensions (strides, bounds) are still read from it.
 * Making those constants too (2026-12-02) shrank gemm_bf16_packed's object by
 * a quarter but made it 1.5% slower at 1024³ (9 of 10 alternating rounds), and
 * the 32³/64³ kernels no faster, so they stay loads. */
#ifndef TK_LOWER_TIR_SPECIALISE_H
#define TK_LOWER_TIR_SPECIALISE_H

#include <stdint.h>

#include "tir.h"

/* Replaces the SIZE ops of f with its bound sizes (f->sizes->count values). */
void tir_specialise_sizes(TirFunc *f, const int64_t *sizes);

#endif
