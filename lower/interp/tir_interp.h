/* tir_interp.h — the reference interpreter of TIR, in double precision.
 *
 * `tkc run --check` runs a kernel both JIT-compiled and here and compares.
 * The interpreter follows the language semantics (docs/LANGUAGE.md §4):
 *  - blocks run one after another (z outermost, x innermost);
 *  - the warps of a block run the code between two barrier statements (a
 *    SYNC, or a FOR/IF containing one) one after another, warp 0 first; a
 *    barrier FOR/IF is run once for the block, its bounds or condition taken
 *    from warp 0 (they are block-uniform);
 *  - per-warp slots (scalars, rt, rv) have one copy per warp, st/sv slots one
 *    per block; block-collective operations happen once, in warp 0: an st/sv
 *    declaration (VAR: zero-filled once, so that warp 1 does not wipe what
 *    warp 0 already loaded), a load or fill into an st/sv (SET of a LOAD or
 *    FILL), a store of an st/sv into a gl. Copying one shared tile into
 *    another (SET of any other value) is not collective (§4.2): every warp
 *    that executes it copies;
 *  - values are exact doubles, except that every op producing bf16/f16
 *    elements or scalars rounds its result to that type (RNE, through f32 as
 *    the real kernels compute it), loads from bf16/f16 tensors included; f32
 *    values are never rounded to f32 (constants, parameters, casts and
 *    arithmetic stay double);
 *  - integers wrap at their width; a division, remainder or cdiv by zero
 *    gives 0; float→int conversions truncate toward zero and saturate, NaN →
 *    0; max/min with one NaN give the other operand; relu(NaN) = 0;
 *  - gl loads and stores are masked: out-of-range elements read 0 / are not
 *    written; st/sv sub-tile coordinates and element indices out of range
 *    (which the checker rules out) are an error.
 * TIR that breaks the invariants of tir.h (an operand used before its
 * definition, a slot used before its VAR, mismatched shapes) is refused with
 * an error naming the instruction (%N as in `tkc --emit=tir`).
 * Memory: values are freed after their last use; all memory the interpreter
 * holds for slots and values is capped (TIR_INTERP_MAX_BYTES); a failed
 * allocation or the cap gives a clean error. */
#ifndef TK_LOWER_TIR_INTERP_H
#define TK_LOWER_TIR_INTERP_H

#include <stddef.h>
#include <stdint.h>

#include "tir.h"
#include "tir_bind.h"

/* Upper bound on what one tir_interp_run may allocate (slots and values). */
#define TIR_INTERP_MAX_BYTES ((size_t)4 << 30)

/* Runs kernel f over its whole grid in double precision. tensors[p] is, for each
 * tensor parameter p, an array of tir_tensor_elements(f,p,sizes) doubles holding
 * its contents (inputs read, outputs written in place); NULL for scalar params.
 * scalars[p] is the value of scalar parameter p (bool as 0/1). sizes are bound
 * (see tir_bind_sizes). Returns 0, or -1 with a one-line message in err. */
int tir_interp_run(const TirFunc *f, double **tensors, const double *scalars, const int64_t *sizes,
                   char *err, size_t errlen);

/* Error bounds: what a compiled kernel may differ from the interpreter by.
 *
 * tir_interp_run_bounded runs like tir_interp_run and also carries, for every
 * element of every value, a bound on |compiled - interpreted|, derived from
 * each op's documented error (docs/ARCHITECTURE.md, "Error bounds"): f32
 * rounding of every f32 result (the interpreter keeps doubles), the ulps of
 * exp/tanh/sigmoid/log, the summation order of reductions and mma, and a
 * rounding that may go the other way when a bf16/f16 result is rounded
 * from a value that already differs. Inputs propagate through each op by
 * its Lipschitz constant on [x - e, x + e]. Integers are exact: a float→int
 * conversion, a comparison or a float condition whose outcome the bounds
 * cannot decide makes the run `unreliable` (the first such op is named in
 * `why`), and so does a non-finite value computed from inexact inputs; an
 * element whose bound cannot be given is +inf.
 *
 * err[p], for every tensor parameter p, has as many doubles as tensors[p]:
 * on entry the bound of the initial contents (usually zeros: inputs are exact),
 * on return the bound of the final contents. NULL err[p] for scalars. */
typedef struct {
    double **err;          /* per parameter, as above */
    int unreliable;        /* set when integer results or control flow depend on rounding */
    char why[256];         /* the first reason, naming the op (%N as in --emit=tir) */
} TirInterpBounds;

int tir_interp_run_bounded(const TirFunc *f, double **tensors, TirInterpBounds *bounds, const double *scalars,
                           const int64_t *sizes, char *err, size_t errlen);

/* The grid of kernel f for these scalars and sizes (what a GPU launcher
 * needs on the host), without running any block. 0, or -1 with a message. */
int tir_interp_grid(const TirFunc *f, const double *scalars, const int64_t *sizes, int64_t grid[3], char *err, size_t errlen);

/* x rounded to bfloat16 / binary16 (round to nearest even), returned as a
 * double. Like the kernels, x is first rounded to f32, then to the 16-bit
 * type. NaN stays NaN; overflow gives ±inf. */
double tir_round_bf16(double x);
double tir_round_f16(double x);

#endif
