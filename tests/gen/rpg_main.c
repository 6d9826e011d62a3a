/* rpg_main.c — tk_rpg: print the random program of a seed (tests/gen/rpg.h).
 *
 *   tk_rpg SEED [--stmts N] [--case]
 *
 * writes the .tk source to stdout; --case prints only its case line,
 * "KERNEL SIZES SCALARS", for tk_cross_gen's manifest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpg.h"

int main(int argc, char **argv)
{
    RpgOptions o = { 0 };
    int have_seed = 0, case_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stmts") == 0 && i + 1 < argc) o.max_stmts = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--case") == 0) case_only = 1;
        else if (!have_seed && argv[i][0] != '-') o.seed = strtoull(argv[i], NULL, 0), have_seed = 1;
        else {
            fprintf(stderr, "usage: tk_rpg SEED [--stmts N] [--case]\n");
            return 2;
        }
    }
    if (!have_seed) {
        fprintf(stderr, "usage: tk_rpg SEED [--stmts N] [--case]\n");
        return 2;
    }
    RpgProgram p;
    if (rpg_generate(&o, &p) != 0) {
        fprintf(stderr, "tk_rpg: out of memory\n");
        return 1;
    }
    if (case_only) printf("%s %s %s\n", p.kernel, p.sizes, p.scalars);
    else fputs(p.source, stdout);
    rpg_free(&p);
    return 0;
}
