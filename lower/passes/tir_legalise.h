/* tir_legalise.h — legalisation: every mma is bound to one base operation of
 * the target's intrinsics table (a CPU micro-kernel row, later an MFMA/WMMA
 * row), after checking that its tiles split into that operation's block. The
 * choice is recorded on the op (`base_op`, shown in dumps as `base=NAME`)
 * and the emitter uses it; an mma no row can take gets the portable path
 * (CPU) — or, for a target without one, a diagnostic before any code is
 * generated, never an LLVM abort. */
#ifndef TK_LOWER_TIR_LEGALISE_H
#define TK_LOWER_TIR_LEGALISE_H

#include <stddef.h>

#include "tir.h"

/* The target's answer for one mma: its row (NULL: none fits) and the row's
 * name; returns -1 with a message if the target cannot do this mma at all. */
typedef int (*TirMmaSelector)(void *ctx, const TirInstr *mma, const void **row, const char **name, char *err, size_t errlen);

int tir_legalise(TirFunc *f, TirMmaSelector select, void *ctx, char *err, size_t errlen);

#endif
