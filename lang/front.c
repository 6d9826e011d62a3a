/* front.c — drives lexer → parser → checker. The token stream is cut into
 * top-level items (at `;` or a closing `}` at brace depth 0) and each item
 * gets a fresh parser, so one malformed item never produces errors in the
 * next. */
#include "front.h"

#include <stdlib.h>
#include <string.h>

#include "arrays.h"
#include "checker.h"
#include "generic.h"
#include "grammar.h"
#include "lexer.h"
#include "parse.h"

static void init(TkFront *f)
{
    tk_arena_init(&f->arena);
    tk_diags_init(&f->diags, &f->src);
    f->items = NULL;
    f->loaded = true;
}

int tk_front_load(TkFront *f, const char *path)
{
    memset(f, 0, sizeof *f);
    if (tk_source_load(&f->src, path) != 0) return -1;
    init(f);
    return 0;
}

int tk_front_load_memory(TkFront *f, const char *name, const char *text, size_t len)
{
    memset(f, 0, sizeof *f);
    if (tk_source_from_memory(&f->src, name, text, len) != 0) return -1;
    init(f);
    return 0;
}

void tk_front_free(TkFront *f)
{
    if (!f->loaded) return;
    tk_diags_free(&f->diags);
    tk_arena_free(&f->arena);
    tk_source_free(&f->src);
    memset(f, 0, sizeof *f);
}

void tk_front_dump_tokens(TkFront *f, FILE *out)
{
    TkLexer lx;
    TkToken tok;
    int code;
    tk_lexer_init(&lx, &f->src, &f->arena, &f->diags);
    while ((code = tk_lex(&lx, &tok)) != 0) {
        uint32_t line, col;
        tk_source_position(&f->src, tok.span.begin, &line, &col);
        fprintf(out, "%u:%u %s '%.*s'\n", line, col, tk_token_spelling(code), (int)(tok.span.end - tok.span.begin),
                f->src.text + tok.span.begin);
    }
}

/* Parsing state across items. */
typedef struct {
    TkFront *f;
    void *parser;         /* NULL between items */
    TkParseCtx ctx;
    int depth;            /* brace depth inside the current item */
    TkSpan open_brace;    /* the outermost '{' of the item, for "never closed" */
    TkSpan prev;          /* the previous token */
    TkNode *items;
    int ntokens;          /* tokens of this item so far */
    int first_code;       /* its first token: CONST, FN, KERNEL, ... */
    TkToken name;         /* the identifier after it, if any */
} Driver;

static void feed(Driver *d, int code, TkToken tok)
{
    TkParseCtx *ctx = &d->ctx;
    if (ctx->failed) return;
    if (code) ctx->last_span = tok.span;
    tk_parser(d->parser, code, tok, ctx);
    if (ctx->overflow) {
        TkDiag *g = tk_error(ctx->diags, tok.span, "this item is nested too deeply");
        tk_diag_hint(g, "split the expression or the blocks into smaller pieces");
        ctx->overflow = false;
    }
}

static void finish_item(Driver *d, TkSpan at)
{
    TkToken eof;
    memset(&eof, 0, sizeof eof);
    eof.span.begin = eof.span.end = at.end;
    if (!d->ctx.failed && d->depth > 0 && !d->ctx.had_error) {
        uint32_t line, col;
        tk_source_position(&d->f->src, d->open_brace.begin, &line, &col);
        TkDiag *g = tk_error(&d->f->diags, eof.span, "unexpected end of input");
        /* Between statements the '}' is what is missing; inside one (say an
         * open '('), what the parser needs first. */
        if (tk_parser_accepts(d->parser, TK_T_RBRACE)) {
            tk_diag_expected(g, "'}'");
        } else {
            tk_parser_describe_expected(d->parser, g, 0);
        }
        tk_diag_hint(g, "the '{' at line %u is never closed", line);
        d->ctx.failed = true;
    }
    feed(d, 0, eof);
    if (!d->ctx.failed && d->ctx.items) {
        if (d->ctx.had_error)
            for (TkNode *n = d->ctx.items; n; n = n->next) n->broken = true;
        d->items = tk_list_append(d->items, d->ctx.items);
    } else if (d->name.text) {
        /* The item is lost, but its name is known: keep a broken placeholder so
         * that uses elsewhere do not report "unknown name" on top. */
        TkNodeKind kind = d->first_code == TK_T_CONST ? TK_N_CONST : d->first_code == TK_T_FN ? TK_N_FN : TK_N_KERNEL;
        TkNode *n = tk_node_new(&d->f->arena, kind, d->name.span);
        if (n) {
            n->name = d->name.text;
            n->broken = true;
            d->items = tk_list_append(d->items, n);
        }
    }
    tk_parserFree(d->parser, free);
    d->parser = NULL;
    d->depth = 0;
}

static bool on_later_line(const TkSource *src, TkSpan prev, TkSpan tok)
{
    uint32_t l1, c1, l2, c2;
    tk_source_position(src, prev.end, &l1, &c1);
    tk_source_position(src, tok.begin, &l2, &c2);
    return l2 > l1;
}

/* One token: start an item if needed, repair a missing ';' at a line break,
 * feed it, and close the item at its last token. */
static void take(Driver *d, int code, TkToken tok)
{
    if (!d->parser) {
        d->parser = tk_parserAlloc(malloc);
        if (!d->parser) {
            tk_error(&d->f->diags, tok.span, "out of memory");
            return;
        }
        memset(&d->ctx, 0, sizeof d->ctx);
        d->ctx.arena = &d->f->arena;
        d->ctx.diags = &d->f->diags;
        d->depth = 0;
        d->ntokens = 0;
        d->first_code = code;
        memset(&d->name, 0, sizeof d->name);
    } else if (!d->ctx.failed && !tk_parser_recovering(d->parser) && !tk_parser_accepts(d->parser, code) &&
               tk_parser_accepts(d->parser, TK_T_SEMI) && on_later_line(&d->f->src, d->prev, tok.span)) {
        /* The most common slip: a statement's ';' forgotten at the end of a line.
         * Not while the parser is recovering from a syntax error in this
         * statement: it is skipping to the statement's ';' (which is why ';'
         * is acceptable), and a ';' inserted there would end the skipping
         * early and report a second error for the same slip. */
        TkSpan at = { d->prev.end, d->prev.end + 1 };
        TkDiag *g = tk_error(&d->f->diags, at, "missing ';' at the end of the line");
        tk_diag_expected(g, "';'");
        tk_diag_found(g, "%s on the next line", tk_token_spelling(code));
        TkToken semi = tok;
        semi.span = at;
        take(d, TK_T_SEMI, semi);
        if (!d->parser) {   /* the ';' ended the item: start the next one with this token */
            take(d, code, tok);
            return;
        }
    }
    /* Text the lexer reported and dropped (a stray '@', a non-ASCII name)
     * usually breaks the statement's syntax as well: "unexpected integer"
     * after `1 @ 2` says nothing new. The next syntax error in this
     * statement is therefore not reported; the parser still recovers from
     * it as usual and the item counts as broken. (The lexer keeps returning
     * only valid tokens; an error token would have to be accepted by every
     * grammar rule or fail the statement even where the dropped character
     * did not matter.) */
    if (tok.after_dropped) d->ctx.quiet = true;
    feed(d, code, tok);
    if (code == TK_T_SEMI || code == TK_T_LBRACE || code == TK_T_RBRACE) d->ctx.quiet = false;   /* statement boundary */
    if (++d->ntokens == 2 && (code == TK_T_IDENT || code == TK_T_GIDENT) &&
        (d->first_code == TK_T_CONST || d->first_code == TK_T_FN || d->first_code == TK_T_KERNEL))
        d->name = tok;
    d->prev = tok.span;
    if (code == TK_T_LBRACE && d->depth++ == 0) d->open_brace = tok.span;
    bool end = false;
    if (code == TK_T_RBRACE) end = --d->depth <= 0;
    if (code == TK_T_SEMI && d->depth == 0) end = true;
    if (end) finish_item(d, tok.span);
}

/* The names of generic helpers (`fn NAME<`), found by a first lexing pass
 * whose diagnostics are dropped (the real pass reports them). */
typedef struct {
    TkArena arena;
    const char **names;
    unsigned count;
} GenericNames;

static void find_generic_names(TkFront *f, GenericNames *g)
{
    TkDiags quiet;
    TkLexer lx;
    TkToken tok;
    int code, prev2 = 0, prev1 = 0;
    const char *name = NULL;
    unsigned cap = 0;
    tk_arena_init(&g->arena);
    g->names = NULL;
    g->count = 0;
    tk_diags_init(&quiet, &f->src);
    tk_lexer_init(&lx, &f->src, &g->arena, &quiet);
    while ((code = tk_lex(&lx, &tok)) != 0) {
        if (code == TK_T_LT && prev1 == TK_T_IDENT && prev2 == TK_T_FN && name) {
            if (g->count == cap) {
                unsigned ncap = cap ? cap * 2 : 8;
                const char **n = tk_arena_alloc(&g->arena, sizeof *n * ncap);
                if (!n) break;
                if (g->count) memcpy(n, g->names, sizeof *n * g->count);
                g->names = n;
                cap = ncap;
            }
            g->names[g->count++] = name;
        }
        prev2 = prev1;
        prev1 = code;
        name = code == TK_T_IDENT ? tok.text : NULL;
    }
    tk_diags_free(&quiet);
}

static bool is_generic_name(const GenericNames *g, const char *name)
{
    for (unsigned i = 0; name && i < g->count; i++)
        if (strcmp(g->names[i], name) == 0) return true;
    return false;
}

unsigned tk_front_parse(TkFront *f)
{
    TkLexer lx;
    TkToken tok, held;
    Driver d;
    GenericNames generic;
    memset(&d, 0, sizeof d);
    d.f = f;
    find_generic_names(f, &generic);
    tk_lexer_init(&lx, &f->src, &f->arena, &f->diags);
    /* One token is held back: a generic helper's name followed by '<' is
     * fed as GIDENT, which the grammar reads as `name<args>(...)`. */
    int code, held_code = 0;
    while ((code = tk_lex(&lx, &tok)) != 0) {
        if (held_code == TK_T_IDENT && code == TK_T_LT && is_generic_name(&generic, held.text)) held_code = TK_T_GIDENT;
        if (held_code) take(&d, held_code, held);
        held_code = code;
        held = tok;
    }
    if (held_code) take(&d, held_code, held);
    tk_arena_free(&generic.arena);
    if (d.parser) {
        TkSpan end = { f->src.len, f->src.len };
        finish_item(&d, end);
    }
    f->items = d.items;
    return f->diags.errors;
}

unsigned tk_front_check(TkFront *f)
{
    /* compile-time parameters: clone each requested kernel instance (the
     * checker makes helper instances at their calls, and expands their
     * arrays there) */
    if (tk_generic_expand(&f->arena, &f->diags, &f->items, &f->generic) < 0) tk_error(&f->diags, (TkSpan){ 0, 0 }, "out of memory");
    /* Arrays become plain declarations first: the checker never sees one.
     * Templates are left alone (a length may name a compile-time parameter);
     * their instances, bound, are expanded. */
    bool oom = false;
    for (TkNode *it = f->items; it; it = it->next)
        if (tk_arrays_expand(&f->arena, &f->diags, f->items, it) < 0) oom = true;
    if (oom) tk_error(&f->diags, (TkSpan){ 0, 0 }, "out of memory");
    if (tk_check_program(&f->arena, &f->diags, f->items) < 0) tk_error(&f->diags, (TkSpan){ 0, 0 }, "out of memory");
    tk_diags_sort(&f->diags);
    return f->diags.errors;
}
