/* dt_case.h — one program and one case of the differential test: the source
 * checked and lowered to TIR, seeded inputs, the interpreter's results with
 * their error bounds (tir_interp_run_bounded), and the comparison of a
 * compiled kernel's results with them.
 *
 * The pass rule, per element of every tensor (inputs too: a kernel must not
 * write into them), with want the interpreter's value and b its bound:
 *   |got - round(want)| <= b + (f32 ? 2^-24·|want| : 0)
 * (the interpreter keeps f32 values in double; round() is to the tensor's
 * element type), NaN must meet NaN and ±inf must be equal. An element
 * whose bound is +inf (none could be given) is not compared, only counted. */
#ifndef TK_TESTS_GEN_DT_CASE_H
#define TK_TESTS_GEN_DT_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "front.h"
#include "tir.h"
#include "tir_bind.h"

#define DT_MAX_PARAMS 64

/* A source checked and lowered (each compile takes its own: the target's passes rewrite TIR). */
typedef struct {
    TkFront fe;
    TirModule m;
    bool lowered;
} DtProgram;

typedef enum { DT_LOAD_OK, DT_LOAD_REJECTED, DT_LOAD_INTERNAL } DtLoad;

/* Checks and lowers text. REJECTED: the front end reported errors (the
 * first is in err); INTERNAL: lowering or verification failed. */
DtLoad dt_program_load(DtProgram *p, const char *name, const char *text, char *err, size_t errlen);
void dt_program_free(DtProgram *p);
const TirFunc *dt_program_kernel(const DtProgram *p, const char *kernel);

typedef struct {
    bool tensor;
    TkTypeKind type;       /* a tensor's element type, or the scalar's */
    unsigned rank;
    int64_t shape[4];
    int64_t count;
    void *init;            /* tensors: initial contents in the element type */
    void *data;            /* the buffer a kernel runs on */
    double *want, *bound;  /* the interpreter's final contents and their bounds */
    unsigned char scalar[8];
    char name[64];
} DtParam;

typedef struct {
    unsigned nparams;
    DtParam p[DT_MAX_PARAMS];
    void *args[DT_MAX_PARAMS];
    int64_t sizes[TK_MAX_SIZES];
    unsigned nsizes;
    bool unreliable;       /* the bounds cannot decide an integer or a branch: not a usable case */
    char why[256];
    int64_t unbounded;     /* output elements without a bound */
} DtCase;

/* Binds SIZES ("M=17,N=3") and SCALARS ("s0=0.5,flag=true" or "-"), makes
 * inputs uniform in [-1, 1) from seed (rounded to each tensor's type; outputs
 * start random too), runs the interpreter with bounds. 0, or -1 with err. */
int dt_case_make(DtCase *c, const TirFunc *f, const char *sizes, const char *scalars, uint64_t seed, char *err, size_t errlen);
/* Puts the initial contents back into the run buffers. */
void dt_case_reset(DtCase *c);
void dt_case_free(DtCase *c);

typedef struct {
    int64_t bad, checked;
    int64_t exact;         /* elements whose bound is 0: they must match bit for bit */
    double use;            /* the largest |got - want| / bound over elements with a bound > 0: how tight the bounds are */
    char where[160];       /* the first bad element: "Y2[3, 17]" */
    double got, want, allowed;
} DtCompare;

/* Compares the run buffers with the interpreter. Returns the number of bad elements. */
int64_t dt_case_compare(const DtCase *c, DtCompare *r);
/* A copy of every tensor's run buffer (free with free), and whether the run
 * buffers are bitwise equal to such a copy (where: the first difference). */
void *dt_case_save(const DtCase *c);
bool dt_case_same_bits(const DtCase *c, const void *saved, char *where, size_t len);

#endif
