/* emu_tma.h — the emulator's Hopper tensor memory accelerator: one tile-mode
 * tensor copy from global to shared memory (cp.async.bulk.tensor.{1..5}d
 * .shared::cluster.global.tile), written from NVIDIA's PTX ISA and CUDA
 * driver documentation and not from the compiler's TMA lowering, whose box
 * placement and swizzle it is meant to check.
 *
 * The map is the lowering's own description (gpu_tma_desc.h) standing in for
 * the opaque CUtensorMap; base is a host address. Only the zero-fill
 * out-of-bounds mode and 16-byte swizzle atomicity exist here: they are the
 * only ones the lowering asks for. */
#ifndef TK_TARGETS_EMU_TMA_H
#define TK_TARGETS_EMU_TMA_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_tma_desc.h"

/* One tile-mode tensor copy of map m: the box whose first element is at tensor
 * coordinates coords[0 .. m->rank) (innermost first; may be negative or past the
 * end: those elements arrive as zeros) written to the block's shared memory
 * `shared` (shared_bytes long) at byte offset dst. Returns the bytes the copy
 * delivers (its transaction count: every box element, the zero-filled ones too,
 * times elem_bytes), or -1 with a one-line message in err and shared untouched.
 * Byte offsets from `shared` are the shared-memory addresses the swizzle sees. */
long tk_emu_tma_load(const TkTmaDesc *m, const int32_t *coords, int64_t dst, unsigned char *shared, int64_t shared_bytes,
                     char *err, size_t errlen);

#endif
