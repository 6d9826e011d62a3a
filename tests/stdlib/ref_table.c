/* ref_table.c — the family tables of references, in one list for
 * tk_ref_find and the generator's checks (see reference.h). */
#include <stddef.h>

#include "reference.h"

const TkRefKernel *const tk_ref_tables[] = {
    tk_ref_gemm, tk_ref_attention, tk_ref_ffn, tk_ref_norms, tk_ref_conv, NULL,
};
