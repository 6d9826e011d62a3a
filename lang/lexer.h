/* lexer.h — turns source text into tokens (lexer.re, compiled by re2c).
 * Token codes are the TK_T_* values lemon writes into grammar.h. */
#ifndef TK_LANG_LEXER_H
#define TK_LANG_LEXER_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"
#include "source.h"

typedef struct {
    TkSpan span;
    const char *text;   /* identifiers: NUL-terminated copy in the arena */
    int64_t ival;       /* INT */
    double fval;        /* FLOAT */
    bool bad;           /* INT/FLOAT already reported (malformed, too large, out
                           of range): its value is a stand-in */
    bool after_dropped; /* the lexer reported and dropped text (a bad character,
                           non-ASCII text, a NUL byte) just before this token */
} TkToken;

typedef struct {
    const TkSource *src;
    TkArena *arena;
    TkDiags *diags;
    const char *cursor;
    const char *limit;  /* src->text + src->len, where the NUL sentinel sits */
} TkLexer;

void tk_lexer_init(TkLexer *lx, const TkSource *src, TkArena *arena, TkDiags *diags);
/* Next token code, 0 at end of input. Bad characters and malformed literals
 * are reported and skipped, so the result is always a valid token stream;
 * the token after skipped text has after_dropped set, and a malformed
 * literal comes back as a number token with bad set. */
int tk_lex(TkLexer *lx, TkToken *tok);
/* How a token code is written in source, for messages ("';'", "identifier"). */
const char *tk_token_spelling(int code);

#endif
