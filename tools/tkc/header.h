/* header.h — `tkc -c` writes NAME.h beside NAME.o: one typed launch function
 * per kernel over the calling convention of tk/rt.h. */
#ifndef TK_TOOLS_TKC_HEADER_H
#define TK_TOOLS_TKC_HEADER_H

#include <stdio.h>

#include "tir.h"

void tkc_write_header(const TirModule *m, const char *guard_name, FILE *out);
/* The header of `tkc -c --target=sm_*` (compile_cuda.h): NAME_cuda(...) per kernel. */
void tkc_write_cuda_header(const TirModule *m, const char *guard_name, const char *target, FILE *out);

#endif
