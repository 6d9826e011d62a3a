/* parse.h — the interface between the driver (front.c) and the lemon
 * parser (grammar.y). */
#ifndef TK_LANG_PARSE_H
#define TK_LANG_PARSE_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "diag.h"
#include "lexer.h"

typedef struct {
    TkArena *arena;
    TkDiags *diags;
    TkNode *items;        /* what the parse produced */
    bool failed;          /* unrecoverable syntax error in this item */
    bool overflow;        /* parser stack overflow */
    bool too_deep;        /* reported an over-deep expression already */
    bool had_error;       /* a syntax error was reported (and recovered from) in this item */
    TkSpan last_span;     /* span of the last token fed (for errors at end of input) */
} TkParseCtx;

void *tk_parserAlloc(void *(*mallocProc)(size_t));
void tk_parserFree(void *parser, void (*freeProc)(void *));
void tk_parser(void *parser, int code, TkToken token, TkParseCtx *ctx);
/* Would the parser, in its current state, accept this token? (exact: it
 * simulates the reductions). Used to repair a missing ';'. */
int tk_parser_accepts(void *parser, int code);

#endif
