/* shape.c — symbolic dimension arithmetic (see shape.h).
 *
 * Canonical form of a TkPoly:
 *   - every term has a non-zero coefficient, and its vars[0..nvars) ascend;
 *   - no two terms have the same variables (like terms are merged);
 *   - terms are ordered by DESCENDING degree (nvars), and terms of equal
 *     degree by ascending lexicographic order of their vars arrays; so the
 *     constant term, if any, is LAST.  With M=0, N=1:
 *         M*M, M*N, N*N, M, N, 1
 *     This is the order people write polynomials in, and tk_poly_format
 *     prints terms in it: `N*N + 2*N + 1`, `M*K - 3`.
 * Vars slots at index >= nvars are zeroed by every operation here but are
 * never compared, so hand-built values need not zero them.
 *
 * Intermediate results are built in a wider scratch sum (SCRATCH_TERMS) so
 * that terms which cancel do not count against TK_POLY_MAX_TERMS; only the
 * final result has to fit.  int64 overflow is checked on every step, so a
 * sum whose partial result overflows fails even if the final value would
 * fit; that is conservative, and callers treat it as "too complex".
 */
#include "shape.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* A product of two full polynomials has at most MAX_TERMS^2 distinct terms. */
#define SCRATCH_TERMS (TK_POLY_MAX_TERMS * TK_POLY_MAX_TERMS)

typedef struct {
    size_t nterms;
    TkMono terms[SCRATCH_TERMS];   /* canonical order, coefficients != 0 */
} TermSum;

/* Negative when a precedes b in canonical order, 0 for like terms. */
static int mono_compare(const TkMono *a, const TkMono *b)
{
    if (a->nvars != b->nvars)
        return a->nvars > b->nvars ? -1 : 1;
    for (uint8_t i = 0; i < a->nvars; i++) {
        if (a->vars[i] != b->vars[i])
            return a->vars[i] < b->vars[i] ? -1 : 1;
    }
    return 0;
}

/* Add (or subtract) one term into the sum, keeping it canonical. */
static bool sum_accumulate(TermSum *sum, const TkMono *mono, bool subtract)
{
    size_t pos = 0;
    int order = 1;
    while (pos < sum->nterms &&
           (order = mono_compare(&sum->terms[pos], mono)) < 0)
        pos++;

    if (pos < sum->nterms && order == 0) {
        int64_t merged;
        bool overflow =
            subtract ? __builtin_sub_overflow(sum->terms[pos].coef, mono->coef, &merged)
                     : __builtin_add_overflow(sum->terms[pos].coef, mono->coef, &merged);
        if (overflow)
            return false;
        if (merged == 0) {
            memmove(&sum->terms[pos], &sum->terms[pos + 1],
                    (sum->nterms - pos - 1) * sizeof sum->terms[0]);
            sum->nterms--;
        } else {
            sum->terms[pos].coef = merged;
        }
        return true;
    }

    int64_t coef = mono->coef;
    /* -INT64_MIN does not exist. */
    if (subtract && __builtin_sub_overflow((int64_t)0, mono->coef, &coef))
        return false;
    if (coef == 0)
        return true;
    if (sum->nterms == SCRATCH_TERMS)
        return false;
    memmove(&sum->terms[pos + 1], &sum->terms[pos],
            (sum->nterms - pos) * sizeof sum->terms[0]);
    TkMono *slot = &sum->terms[pos];
    memset(slot, 0, sizeof *slot);
    slot->coef = coef;
    slot->nvars = mono->nvars;
    memcpy(slot->vars, mono->vars, mono->nvars * sizeof mono->vars[0]);
    sum->nterms++;
    return true;
}

static bool sum_accumulate_poly(TermSum *sum, const TkPoly *p, bool subtract)
{
    for (uint8_t i = 0; i < p->nterms; i++) {
        if (!sum_accumulate(sum, &p->terms[i], subtract))
            return false;
    }
    return true;
}

/* The capacity check happens here, after all cancellation. */
static bool sum_to_poly(TkPoly *out, const TermSum *sum)
{
    if (sum->nterms > TK_POLY_MAX_TERMS)
        return false;
    memset(out, 0, sizeof *out);
    out->nterms = (uint8_t)sum->nterms;
    memcpy(out->terms, sum->terms, sum->nterms * sizeof sum->terms[0]);
    return true;
}

/* Product of two terms: multiply coefficients, merge the sorted var lists. */
static bool mono_mul(TkMono *out, const TkMono *a, const TkMono *b)
{
    /* The top-degree terms of a product never cancel (Z[vars] has no zero
     * divisors), so an over-long monomial here means the result is too big. */
    if (a->nvars + b->nvars > TK_MONO_MAX_VARS)
        return false;
    int64_t coef;
    if (__builtin_mul_overflow(a->coef, b->coef, &coef))
        return false;

    memset(out, 0, sizeof *out);
    out->coef = coef;
    uint8_t ia = 0, ib = 0, n = 0;
    while (ia < a->nvars || ib < b->nvars) {
        bool take_a = ib == b->nvars ||
                      (ia < a->nvars && a->vars[ia] <= b->vars[ib]);
        out->vars[n++] = take_a ? a->vars[ia++] : b->vars[ib++];
    }
    out->nvars = n;
    return true;
}

void tk_poly_const(TkPoly *out, int64_t value)
{
    memset(out, 0, sizeof *out);
    if (value != 0) {
        out->nterms = 1;
        out->terms[0].coef = value;
    }
}

void tk_poly_var(TkPoly *out, TkSizeVar var)
{
    memset(out, 0, sizeof *out);
    out->nterms = 1;
    out->terms[0].coef = 1;
    out->terms[0].nvars = 1;
    out->terms[0].vars[0] = var;
}

bool tk_poly_add(TkPoly *out, const TkPoly *a, const TkPoly *b)
{
    TermSum sum = {0};
    return sum_accumulate_poly(&sum, a, false) &&
           sum_accumulate_poly(&sum, b, false) && sum_to_poly(out, &sum);
}

bool tk_poly_sub(TkPoly *out, const TkPoly *a, const TkPoly *b)
{
    TermSum sum = {0};
    return sum_accumulate_poly(&sum, a, false) &&
           sum_accumulate_poly(&sum, b, true) && sum_to_poly(out, &sum);
}

bool tk_poly_mul(TkPoly *out, const TkPoly *a, const TkPoly *b)
{
    TermSum sum = {0};
    for (uint8_t i = 0; i < a->nterms; i++) {
        for (uint8_t j = 0; j < b->nterms; j++) {
            TkMono product;
            if (!mono_mul(&product, &a->terms[i], &b->terms[j]) ||
                !sum_accumulate(&sum, &product, false))
                return false;
        }
    }
    return sum_to_poly(out, &sum);
}

bool tk_poly_eq(const TkPoly *a, const TkPoly *b)
{
    if (a->nterms != b->nterms)
        return false;
    for (uint8_t i = 0; i < a->nterms; i++) {
        if (a->terms[i].coef != b->terms[i].coef ||
            mono_compare(&a->terms[i], &b->terms[i]) != 0)
            return false;
    }
    return true;
}

bool tk_poly_is_const(const TkPoly *p, int64_t *value)
{
    int64_t constant;
    if (p->nterms == 0)
        constant = 0;
    else if (p->nterms == 1 && p->terms[0].nvars == 0)
        constant = p->terms[0].coef;
    else
        return false;
    if (value)
        *value = constant;
    return true;
}

bool tk_poly_is_var(const TkPoly *p, TkSizeVar *var)
{
    if (p->nterms != 1 || p->terms[0].nvars != 1 || p->terms[0].coef != 1)
        return false;
    if (var)
        *var = p->terms[0].vars[0];
    return true;
}

bool tk_poly_uses_var(const TkPoly *p, TkSizeVar var)
{
    for (uint8_t i = 0; i < p->nterms; i++) {
        for (uint8_t k = 0; k < p->terms[i].nvars; k++) {
            if (p->terms[i].vars[k] == var)
                return true;
        }
    }
    return false;
}

bool tk_poly_subst(TkPoly *out, const TkPoly *p, const TkPoly *values,
                   const bool *bound, size_t nvars)
{
    /* Nothing is written to out until the end: out may alias p or values[i]. */
    TermSum sum = {0};
    for (uint8_t i = 0; i < p->nterms; i++) {
        const TkMono *term = &p->terms[i];
        TkPoly term_value;
        tk_poly_const(&term_value, term->coef);
        for (uint8_t k = 0; k < term->nvars; k++) {
            TkSizeVar var = term->vars[k];
            TkPoly factor;
            if (var < nvars && bound[var])
                factor = values[var];
            else
                tk_poly_var(&factor, var);
            if (!tk_poly_mul(&term_value, &term_value, &factor))
                return false;
        }
        if (!sum_accumulate_poly(&sum, &term_value, false))
            return false;
    }
    return sum_to_poly(out, &sum);
}

bool tk_poly_eval(const TkPoly *p, const int64_t *values, size_t nvars,
                  int64_t *out)
{
    int64_t total = 0;
    for (uint8_t i = 0; i < p->nterms; i++) {
        const TkMono *term = &p->terms[i];
        int64_t term_value = term->coef;
        for (uint8_t k = 0; k < term->nvars; k++) {
            if (term->vars[k] >= nvars)
                return false;
            if (__builtin_mul_overflow(term_value, values[term->vars[k]], &term_value))
                return false;
        }
        if (__builtin_add_overflow(total, term_value, &total))
            return false;
    }
    *out = total;
    return true;
}

/* snprintf-style output: counts everything, stores what fits, keeps a NUL. */
typedef struct {
    char *buf;
    size_t size;
    size_t len;   /* length the full output would have */
} FormatSink;

static void sink_put(FormatSink *sink, const char *text)
{
    size_t text_len = strlen(text);
    if (sink->len + 1 < sink->size) {
        size_t room = sink->size - 1 - sink->len;
        size_t copied = text_len < room ? text_len : room;
        memcpy(sink->buf + sink->len, text, copied);
        sink->buf[sink->len + copied] = '\0';
    }
    sink->len += text_len;
}

int tk_poly_format(const TkPoly *p, TkSizeVarName name, void *ctx,
                   char *buf, size_t bufsize)
{
    FormatSink sink = {buf, buf ? bufsize : 0, 0};
    if (sink.size > 0)
        buf[0] = '\0';
    if (p->nterms == 0)
        sink_put(&sink, "0");

    for (uint8_t i = 0; i < p->nterms; i++) {
        const TkMono *term = &p->terms[i];
        bool negative = term->coef < 0;
        /* Unsigned magnitude: |INT64_MIN| does not fit in int64. */
        uint64_t magnitude = negative ? (uint64_t)0 - (uint64_t)term->coef
                                      : (uint64_t)term->coef;
        if (i == 0)
            sink_put(&sink, negative ? "-" : "");
        else
            sink_put(&sink, negative ? " - " : " + ");

        bool print_coef = term->nvars == 0 || magnitude != 1;
        if (print_coef) {
            char digits[24];
            snprintf(digits, sizeof digits, "%" PRIu64, magnitude);
            sink_put(&sink, digits);
        }
        for (uint8_t k = 0; k < term->nvars; k++) {
            if (k > 0 || print_coef)
                sink_put(&sink, "*");
            const char *var_name = name(ctx, term->vars[k]);
            sink_put(&sink, var_name ? var_name : "?");
        }
    }
    return sink.len > INT_MAX ? -1 : (int)sink.len;
}
