/* run.h — `tkc run`: compile a kernel, run it on the CPU with seeded random
 * inputs, optionally check it against the double-precision interpreter, and
 * report compiled / correct / error / time / GFLOP/s / % of peak. */
#ifndef TK_TOOLS_TKC_RUN_H
#define TK_TOOLS_TKC_RUN_H

int tkc_run(int argc, char **argv);

/* Prints the full usage of `tkc run` to stdout (`tkc help run`, `tkc run --help`). */
void tkc_run_help(void);

#endif
