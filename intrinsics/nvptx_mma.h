/* nvptx_mma.h — NVIDIA tensor-core instructions as TileKit base tiles, in the
 * shared form of gpu_mma.h: which SM they need, their fragment layouts (lane
 * maps, transcribed from the PTX ISA's "Matrix Fragments for mma.m16n8k16"
 * figures) and their LLVM emitters. The only place that names an NVPTX
 * matrix intrinsic. */
#ifndef TK_INTRINSICS_NVPTX_MMA_H
#define TK_INTRINSICS_NVPTX_MMA_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu_mma.h"

typedef struct {
    TkGpuMma mma;
    int min_sm;            /* the first SM that has it: 80 means sm_80 and later */
    const char *ptx;       /* the PTX instruction */
    const char *layout;    /* the fragment layout in one line */
    const char *meaning;
} TkNvptxMma;

/* The whole table, preferred rows first. */
const TkNvptxMma *tk_nvptx_mma_table(unsigned *count);

/* The SM number of a processor name: "sm_80" → 80, "sm_90a" → 90; 0 if it
 * is not of that form. *arch_specific: the "a" suffix (sm_90a). */
int tk_nvptx_sm(const char *proc, bool *arch_specific);

/* 0 if row r may be emitted for `proc`; else -1 and a one-line reason. */
int tk_nvptx_mma_check(const TkNvptxMma *r, const char *proc, char *err, size_t errlen);

/* The rows `proc` has, in table order, into out[0 .. max); returns how many. */
unsigned tk_nvptx_mma_rows(const char *proc, TkGpuMma *out, unsigned max);

#endif
