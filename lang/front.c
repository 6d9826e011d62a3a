/* front.c — drives lexer → parser → checker. The token stream is cut into
 * top-level items (at `;` or a closing `}` at brace depth 0) and each item
 * gets a fresh parser, so one malformed item never produces errors in the
 * next. */
#include "front.h"

#include <stdlib.h>
#include <string.h>

#include "checker.h"
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

/* Feed one token; returns false once this item's parse has failed. */
static bool feed(void *parser, TkParseCtx *ctx, int code, TkToken tok)
{
    if (ctx->failed) return false;
    if (code) ctx->last_span = tok.span;
    tk_parser(parser, code, tok, ctx);
    if (ctx->overflow) {
        TkDiag *g = tk_error(ctx->diags, tok.span, "this item is nested too deeply");
        tk_diag_hint(g, "split the expression or the blocks into smaller pieces");
        ctx->overflow = false;
    }
    return !ctx->failed;
}

static void finish_item(TkFront *f, void **parser, TkParseCtx *ctx, TkNode **tail_head)
{
    TkToken eof;
    memset(&eof, 0, sizeof eof);
    eof.span = ctx->last_span;
    eof.span.begin = eof.span.end;
    feed(*parser, ctx, 0, eof);
    if (!ctx->failed && ctx->items) *tail_head = tk_list_append(*tail_head, ctx->items);
    tk_parserFree(*parser, free);
    *parser = NULL;
    (void)f;
}

unsigned tk_front_parse(TkFront *f)
{
    TkLexer lx;
    TkToken tok;
    tk_lexer_init(&lx, &f->src, &f->arena, &f->diags);
    TkNode *items = NULL;
    void *parser = NULL;
    TkParseCtx ctx;
    int depth = 0;
    int code;
    while ((code = tk_lex(&lx, &tok)) != 0) {
        if (!parser) {
            parser = tk_parserAlloc(malloc);
            if (!parser) {
                tk_error(&f->diags, tok.span, "out of memory");
                break;
            }
            memset(&ctx, 0, sizeof ctx);
            ctx.arena = &f->arena;
            ctx.diags = &f->diags;
        }
        feed(parser, &ctx, code, tok);
        if (code == TK_T_LBRACE) depth++;
        bool end = false;
        if (code == TK_T_RBRACE) end = --depth <= 0;
        if (code == TK_T_SEMI && depth == 0) end = true;
        if (end) {
            depth = 0;
            finish_item(f, &parser, &ctx, &items);
        }
    }
    if (parser) {
        ctx.last_span.begin = ctx.last_span.end = f->src.len;
        finish_item(f, &parser, &ctx, &items);
    }
    f->items = items;
    return f->diags.errors;
}

unsigned tk_front_check(TkFront *f)
{
    if (tk_check_program(&f->arena, &f->diags, f->items) < 0) tk_error(&f->diags, (TkSpan){ 0, 0 }, "out of memory");
    tk_diags_sort(&f->diags);
    return f->diags.errors;
}
