/* graph_infer_sym.h — graph_infer.c's symbolic sizes (graph_infer_sym.c):
 * made in a model's arena, NULL for unknown (every function takes NULL and
 * gives NULL), compared by their canonical text. */
#ifndef TK_RUNTIME_ONNX_GRAPH_INFER_SYM_H
#define TK_RUNTIME_ONNX_GRAPH_INFER_SYM_H

#include "onnx_ir.h"

#define TKO_SMALL_SIZES 65   /* the sizes 0 .. 64, made once per maker */

typedef struct {
    TkoArena *arena;
    bool oom;                /* an allocation failed (the sizes it would have made are NULL) */
    const TkoSym *small[TKO_SMALL_SIZES];
} TkoSymMaker;

const TkoSym *tko_sym_const(TkoSymMaker *c, int64_t v);
const TkoSym *tko_sym_name(TkoSymMaker *c, const char *name);   /* name must outlive the model's arena use */
bool tko_sym_is_const(const TkoSym *s, int64_t *v);
bool tko_sym_eq(const TkoSym *x, const TkoSym *y);               /* both known and the same */
const TkoSym *tko_sym_add(TkoSymMaker *c, const TkoSym *x, const TkoSym *y, int64_t ysign);   /* x + ysign*y */
const TkoSym *tko_sym_addc(TkoSymMaker *c, const TkoSym *x, int64_t k);
const TkoSym *tko_sym_mul(TkoSymMaker *c, const TkoSym *x, const TkoSym *y);
const TkoSym *tko_sym_divc(TkoSymMaker *c, const TkoSym *x, int64_t d);      /* floor(x / d), d > 0 */
const TkoSym *tko_sym_ceildiv(TkoSymMaker *c, const TkoSym *x, int64_t d);   /* ceil(x / d), d > 0 */
/* x / y where y divides x exactly as written (a constant, or a monomial every term of x holds); else NULL. */
const TkoSym *tko_sym_div(TkoSymMaker *c, const TkoSym *x, const TkoSym *y);
/* The name when s is just one dim name, else NULL. */
const char *tko_sym_bare_name(const TkoSym *s);
bool tko_sym_eval(const TkoSym *s, bool (*lookup)(void *arg, const char *name, int64_t *size), void *arg, int64_t *out);

/* printf into buf[*at .. len), advancing *at; stops quietly at the end (the text is cut). */
void tko_sym_append(char *buf, size_t len, size_t *at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
