/* ptxas.h — the CUDA toolkit's PTX assembler, where it is installed: for
 * `tkc --stats` (its -v report) and `tkc -c --target=sm_*` (a cubin). */
#ifndef TK_TOOLS_TKC_PTXAS_H
#define TK_TOOLS_TKC_PTXAS_H

#include <stddef.h>

/* $TK_PTXAS ("none": do without), else ptxas from PATH or the toolkit's usual
 * place; NULL if there is none. */
const char *tkc_find_ptxas(char *buf, size_t len);

/* ptxas -arch=ARCH [-v] PTX -o OUT, its messages into log (a file path).
 * 0 when it succeeded. */
int tkc_run_ptxas(const char *ptxas, const char *arch, const char *ptx, const char *out, int verbose, const char *log);

#endif
