/* diag.h — diagnostics: collected during a compilation, printed as text
 * (file:line:col, source line, caret, expected/found/hint) or JSON lines. */
#ifndef TK_LANG_DIAG_H
#define TK_LANG_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "source.h"

typedef enum { TK_SEV_ERROR, TK_SEV_WARNING, TK_SEV_NOTE } TkSeverity;

typedef struct TkDiag {
    TkSeverity severity;
    TkSpan span;
    char *message;
    char *expected;   /* optional, NULL when absent */
    char *found;
    char *hint;
    char *note;       /* where it happened, e.g. "in instance gemm<100,192,256>" */
} TkDiag;

typedef struct {
    const TkSource *src;
    TkDiag *items;
    unsigned count, cap;
    unsigned errors;
    unsigned max_errors;   /* stop recording after this many errors (0 = 100) */
    bool overflowed;       /* an error was dropped because of max_errors */
    bool oom;              /* a message could not be stored */
} TkDiags;

void tk_diags_init(TkDiags *d, const TkSource *src);
void tk_diags_free(TkDiags *d);

/* Record an error; returns it so that expected/found/hint can be attached,
 * or NULL if it was dropped (too many errors, out of memory). The setters
 * accept NULL and do nothing then. */
TkDiag *tk_error(TkDiags *d, TkSpan span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
TkDiag *tk_warning(TkDiags *d, TkSpan span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void tk_diag_expected(TkDiag *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tk_diag_found(TkDiag *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tk_diag_hint(TkDiag *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tk_diag_note(TkDiag *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Sort by position (stable), so that passes reporting in different orders
 * still print in source order. */
void tk_diags_sort(TkDiags *d);
void tk_diags_print_text(const TkDiags *d, FILE *out);
void tk_diags_print_json(const TkDiags *d, FILE *out);

#endif
