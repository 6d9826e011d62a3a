/* tir_specialise.h — specialisation of symbolic sizes: when the sizes of a
 * launch are known before compiling (tkc run, libtk with
 * tk_compile_options.specialise), every SIZE op of the kernel becomes a
 * constant, so LLVM folds loop trip counts and edge masks. The calling
 * convention does not change (the sizes array is still passed, and ignored). */
#ifndef TK_LOWER_TIR_SPECIALISE_H
#define TK_LOWER_TIR_SPECIALISE_H

#include <stdint.h>

#include "tir.h"

/* Replaces the SIZE ops of f with its bound sizes (f->sizes->count values). */
void tir_specialise_sizes(TirFunc *f, const int64_t *sizes);

#endif
