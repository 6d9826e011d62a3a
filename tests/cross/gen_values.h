/* gen_values.h — the input values and default tolerances of the cross and
 * stdlib numeric tests' generator (gen.c): seeded random numbers, the value
 * generators a manifest's gen= option names, and per-type tolerances. */
#ifndef TK_TESTS_CROSS_GEN_VALUES_H
#define TK_TESTS_CROSS_GEN_VALUES_H

#include <stdint.h>

#include "types.h"

typedef enum { GEN_UNIFORM, GEN_SPECIALS, GEN_WIDE, GEN_TIES, GEN_SUBNORMAL, GEN_PICK } GenKind;

#define MAX_PICK 16

typedef struct {
    GenKind kind;
    double lo, hi;
    double pick[MAX_PICK];   /* GEN_PICK: the values to choose from */
    unsigned npick;
} Gen;

typedef struct {
    double rtol, atol;
    unsigned ulps;
} Tol;

/* xorshift*: the next number of state *s (never 0). */
uint64_t gen_rng_next(uint64_t *s);

/* FNV-1a of s (never 0): a seed from a case's text. */
uint64_t gen_hash_str(const char *s);

/* Element idx of a tensor filled by generator g. */
double gen_value(const Gen *g, int64_t idx, uint64_t *rng);

/* The tolerance of a tensor of element type elem filled by generator gen. */
Tol gen_default_tol(TkTypeKind elem, GenKind gen);

#endif
