/* tir_layout.h — layout assignment: an rt tile that is only ever loaded and
 * then used as the B operand of mma gets the physical layout the target's
 * micro-kernel reads, so the load writes it in that layout and the mma packs
 * nothing. Logical meaning is unchanged (the interpreter ignores `pack`). */
#ifndef TK_LOWER_TIR_LAYOUT_H
#define TK_LOWER_TIR_LAYOUT_H

#include "tir.h"

/* Which packing (VNNI or ROWS, as the KN variant) the target wants for B of
 * an mma whose A/B elements are `elem`; TIR_PACK_NONE for none. */
typedef TirPack (*TirPackChooser)(void *ctx, TkTypeKind elem);

void tir_assign_layouts(TirFunc *f, TirPackChooser choose, void *ctx);

/* Index of logical element (i, j) of tile type t stored with packing `pack`,
 * or -1 for TIR_PACK_NONE (use the type's own layout). */
int64_t tir_pack_index(TirPack pack, const TkType *t, int64_t i, int64_t j);

#endif
