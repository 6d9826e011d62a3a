/* lower.h — the passes from the checked AST down to TIR, each in its own file:
 *   ast_to_tir.c   checked AST → TIR (helpers inlined, constants folded)
 *   tir_verify.c   structural and type invariants, run between passes
 * Code generation for targets consumes the verified TIR (see targets/). */
#ifndef TK_LOWER_LOWER_H
#define TK_LOWER_LOWER_H

#include "ast.h"
#include "diag.h"
#include "tir.h"

/* Lowers every kernel of a checked program (no errors) into m, which uses
 * `arena` for its memory. Returns 0, or -1 after reporting into diags. */
int tir_from_ast(TirModule *m, TkArena *arena, const TkSource *src, TkDiags *diags, TkNode *items);

#endif
