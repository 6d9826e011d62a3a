/* shape.h — symbolic dimension arithmetic.
 *
 * A dimension of a global tensor is a polynomial with integer coefficients
 * over the kernel's size variables (M, N, K, ...): `2*N`, `M*K + 1`, `64`.
 * Polynomials are kept in a canonical form (terms sorted, like terms merged,
 * no zero coefficients), so two dimensions are equal exactly when their
 * representations are equal: `N + N` and `2*N` compare equal.
 *
 * Values are small fixed-size structs (no allocation). Every operation that
 * could exceed the fixed capacity or overflow int64 returns false and leaves
 * the output unspecified; callers report "dimension expression too complex".
 */
#ifndef TK_LANG_SHAPE_H
#define TK_LANG_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TK_POLY_MAX_TERMS 8   /* terms per polynomial */
#define TK_MONO_MAX_VARS 4    /* variable factors per term (N*N counts 2) */

typedef uint16_t TkSizeVar;   /* index of a size variable in its kernel */

typedef struct {
    int64_t coef;                       /* never 0 in a canonical polynomial */
    uint8_t nvars;                      /* 0 for the constant term */
    TkSizeVar vars[TK_MONO_MAX_VARS];   /* ascending; repeats mean powers */
} TkMono;

typedef struct {
    uint8_t nterms;                     /* 0 means the polynomial 0 */
    TkMono terms[TK_POLY_MAX_TERMS];    /* canonical order, see shape.c */
} TkPoly;

/* Constructors. */
void tk_poly_const(TkPoly *out, int64_t value);
void tk_poly_var(TkPoly *out, TkSizeVar var);

/* Arithmetic; false on capacity overflow or int64 overflow. out may alias. */
bool tk_poly_add(TkPoly *out, const TkPoly *a, const TkPoly *b);
bool tk_poly_sub(TkPoly *out, const TkPoly *a, const TkPoly *b);
bool tk_poly_mul(TkPoly *out, const TkPoly *a, const TkPoly *b);

/* Structural questions. */
bool tk_poly_eq(const TkPoly *a, const TkPoly *b);
bool tk_poly_is_const(const TkPoly *p, int64_t *value);   /* value may be NULL */
bool tk_poly_is_var(const TkPoly *p, TkSizeVar *var);     /* exactly 1*v */
bool tk_poly_uses_var(const TkPoly *p, TkSizeVar var);

/* Substitute: every variable v with bound[v] true is replaced by values[v].
 * nvars is the length of both arrays; variables >= nvars stay symbolic. */
bool tk_poly_subst(TkPoly *out, const TkPoly *p, const TkPoly *values,
                   const bool *bound, size_t nvars);

/* Evaluate with every variable bound; false if a variable is missing
 * (index >= nvars) or on overflow. */
bool tk_poly_eval(const TkPoly *p, const int64_t *values, size_t nvars,
                  int64_t *out);

/* Print in .tk syntax (`2*N + 1`, `M*K`, `-N`, `0`), naming variables with
 * name(ctx, v). Returns the length snprintf would have produced. */
typedef const char *(*TkSizeVarName)(void *ctx, TkSizeVar var);
int tk_poly_format(const TkPoly *p, TkSizeVarName name, void *ctx,
                   char *buf, size_t bufsize);

#endif
