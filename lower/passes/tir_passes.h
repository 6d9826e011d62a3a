/* tir_passes.h — the passes between AST→TIR and code generation, run in
 * order with the verifier after each, and printable after any of them:
 *
 *   lower         (ast_to_tir.c)  checked AST → TIR
 *   forward       (tir_forward.c) tiles set once to an element-wise value (lets)
 *                                 read as that value: no slot, so they fuse
 *   plan-shared   (tir_passes.c)  offsets of st/sv tiles in the block's shared
 *                                 arena; refuses a kernel over the target's limit
 *   legalise      (tir_legalise.c) each mma bound to a base operation of the
 *                                 target's intrinsics table
 *   layout        (tir_layout.c)  mma B operands loaded in the micro-kernel's packing
 *
 * `tkc --emit=tir -d` prints the TIR after every pass; `--dump=NAME,...`
 * after the named ones. */
#ifndef TK_LOWER_TIR_PASSES_H
#define TK_LOWER_TIR_PASSES_H

#include <stdbool.h>
#include <stdio.h>

#include "tir.h"
#include "tir_layout.h"
#include "tir_legalise.h"

typedef struct {
    int64_t shared_limit;        /* bytes of shared memory a block may use (0: no limit) */
    const char *shared_what;     /* how the target calls it, for the message ("LDS") */
    TirMmaSelector select_mma;   /* NULL: mma ops keep no base operation */
    void *select_ctx;
    TirPackChooser choose_pack;  /* NULL: no layout assignment */
    void *choose_ctx;
    FILE *dump;                  /* where dumps go (NULL: none) */
    const char *dump_after;      /* "all", or comma-separated pass names */
    bool with_source;            /* dumps show .tk lines */
} TirPassOptions;

/* tir_forward.c: the forward pass on one kernel (0, or -1 out of memory). */
int tir_forward_lets(TirFunc *f);

/* Runs forward, plan-shared, legalise and layout on every kernel of m, verifying after each.
 * Returns 0, or -1 with a message in err (a kernel over the shared limit, or
 * a verifier failure, which is a compiler bug). */
int tir_run_passes(TirModule *m, const TirPassOptions *o, char *err, size_t errlen);

/* Dump m after `pass` if the options ask for it. */
void tir_dump_after(const TirModule *m, const TirPassOptions *o, const char *pass);

#endif
