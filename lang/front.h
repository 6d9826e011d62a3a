/* front.h — the front end as one unit: load a file, lex, parse, check.
 * This is what tkc and libtk call; each stage is also callable alone so
 * that `tkc --emit=tokens|ast` can stop early. */
#ifndef TK_LANG_FRONT_H
#define TK_LANG_FRONT_H

#include <stdbool.h>
#include <stdio.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "generic.h"
#include "source.h"

typedef struct {
    TkSource src;
    TkArena arena;
    TkDiags diags;
    TkNode *items;      /* the AST after tk_front_parse */
    TkGenericOptions generic;   /* kernel instances to make, target keys: set before tk_front_check */
    bool loaded;
} TkFront;

/* Read a file (0, or -1 with errno). */
int tk_front_load(TkFront *f, const char *path);
/* Use text in memory under a display name (0, or -1 out of memory). */
int tk_front_load_memory(TkFront *f, const char *name, const char *text, size_t len);
void tk_front_free(TkFront *f);

/* Print one token per line: line:col kind text. */
void tk_front_dump_tokens(TkFront *f, FILE *out);
/* Lex and parse; returns the number of errors so far. */
unsigned tk_front_parse(TkFront *f);
/* Check the parsed program; returns the number of errors so far. */
unsigned tk_front_check(TkFront *f);

/* ast_print.c: print the AST back as .tk source (comments are not kept). */
void tk_ast_print(const TkNode *items, FILE *out);

#endif
