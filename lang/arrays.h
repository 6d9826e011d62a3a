/* arrays.h — arrays of constant length (`rt<f32,16,64> acc[4];`), expanded
 * before checking into one plain declaration per element, with constant
 * indices rewritten to the elements and the `for` loops that index arrays
 * unrolled. The checker, the interpreter and the emitters see only plain
 * tiles. */
#ifndef TK_LANG_ARRAYS_H
#define TK_LANG_ARRAYS_H

#include "arena.h"
#include "ast.h"
#include "diag.h"

/* Expand the arrays of one FN/KERNEL item in place. `program` is the item
 * list the item belongs to (its top-level consts that come before `item` are
 * constants here too); it may be NULL. An item without arrays is left
 * untouched. Errors are reported to `diags` and mark the item broken, so the
 * checker skips its body; item->source keeps the body as written for the AST
 * printer. Returns the number of errors reported, or -1 when out of memory. */
int tk_arrays_expand(TkArena *arena, TkDiags *diags, const TkNode *program, TkNode *item);

#endif
