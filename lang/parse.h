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
    bool quiet;           /* the lexer dropped text in this statement: the next
                             syntax error is its consequence, not reported */
    TkSpan last_span;     /* span of the last token fed (for errors at end of input) */
} TkParseCtx;

void *tk_parserAlloc(void *(*mallocProc)(size_t));
void tk_parserFree(void *parser, void (*freeProc)(void *));
void tk_parser(void *parser, int code, TkToken token, TkParseCtx *ctx);
/* Would the parser, in its current state, accept this token? (exact: it
 * simulates the reductions). Used to repair a missing ';'. */
int tk_parser_accepts(void *parser, int code);
/* Is the parser recovering from a syntax error, i.e. skipping tokens to the
 * end of the broken statement? */
int tk_parser_recovering(void *parser);
/* Attach the expected/found lines of a syntax error at token `code` (0: end
 * of input) to g, from what the parser would accept now. */
void tk_parser_describe_expected(void *parser, TkDiag *g, int code);

#endif
