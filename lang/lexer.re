/* lexer.re — the .tk lexer, compiled by re2c. Rules are listed in
 * docs/LANGUAGE.md §Lexical structure. The input is NUL-terminated; a NUL
 * before the end is an error, the one at the end is end of input. */
#include "lexer.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"

void tk_lexer_init(TkLexer *lx, const TkSource *src, TkArena *arena, TkDiags *diags)
{
    lx->src = src;
    lx->arena = arena;
    lx->diags = diags;
    lx->cursor = src->text;
    lx->limit = src->text + src->len;
}

static TkSpan span_of(const TkLexer *lx, const char *b, const char *e)
{
    TkSpan s = { (uint32_t)(b - lx->src->text), (uint32_t)(e - lx->src->text) };
    return s;
}

/* Decimal or hex integer; reports values that do not fit in i64. */
static int64_t int_value(TkLexer *lx, const char *b, const char *e, bool *bad)
{
    bool hex = e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X');
    uint64_t v = 0, base = hex ? 16 : 10;
    for (const char *p = hex ? b + 2 : b; p < e; p++) {
        unsigned d = (unsigned)(*p >= 'a' ? *p - 'a' + 10 : *p >= 'A' ? *p - 'A' + 10 : *p - '0');
        if (v > (UINT64_MAX - d) / base || v * base + d > (uint64_t)INT64_MAX) {
            TkDiag *g = tk_error(lx->diags, span_of(lx, b, e), "integer literal is too large");
            tk_diag_hint(g, "integers must fit in i64 (at most 9223372036854775807)");
            *bad = true;
            return 0;
        }
        v = v * base + d;
    }
    return (int64_t)v;
}

/* Float literals have no length limit: short ones are copied to the stack,
 * long ones (e.g. 1.000...0 with hundreds of digits) to the arena. */
static double float_value(TkLexer *lx, const char *b, const char *e, bool *bad)
{
    char small[128];
    size_t n = (size_t)(e - b);
    char *buf = n < sizeof small ? small : tk_arena_strndup(lx->arena, b, n);
    if (!buf) {
        tk_error(lx->diags, span_of(lx, b, e), "out of memory");
        *bad = true;
        return 0.0;
    }
    if (buf == small) {
        memcpy(small, b, n);
        small[n] = '\0';
    }
    errno = 0;
    double v = strtod(buf, NULL);
    if (errno == ERANGE && isinf(v)) {
        TkDiag *g = tk_error(lx->diags, span_of(lx, b, e), "float literal is out of range");
        tk_diag_hint(g, "write `inf` for infinity");
        *bad = true;
        return 0.0;
    }
    return v;   /* underflow to a subnormal or zero is fine */
}

/*!re2c
    re2c:api:style = free-form;
    re2c:define:YYCTYPE = "unsigned char";
    re2c:define:YYCURSOR = cur;
    re2c:define:YYMARKER = mar;
    re2c:yyfill:enable = 0;
    re2c:flags:utf-8 = 0;

    digit = [0-9];
    hex = [0-9a-fA-F];
    ident = [A-Za-z_][A-Za-z0-9_]*;
    exponent = [eE] [+-]? digit+;
    decfloat = digit+ "." digit+ exponent? | digit+ exponent;
    hexfloat = "0" [xX] hex+ ("." hex*)? [pP] [+-]? digit+;
*/

int tk_lex(TkLexer *lx, TkToken *tok)
{
    const unsigned char *cur = (const unsigned char *)lx->cursor, *mar, *start;
    memset(tok, 0, sizeof *tok);
    for (;;) {
        start = cur;
#define TOKEN(code) do { lx->cursor = (const char *)cur; tok->span = span_of(lx, (const char *)start, (const char *)cur); return (code); } while (0)
        /*!re2c
            [ \t\r\n\f\v]+   { continue; }
            "//" [^\n\x00]*  { continue; }
            "/*" {
                /* block comment: find the closing mark by hand (not nested) */
                const char *close = NULL;
                for (const char *p = (const char *)cur; p + 1 < lx->limit; p++)
                    if (p[0] == '*' && p[1] == '/') { close = p; break; }
                if (!close) {
                    TkDiag *g = tk_error(lx->diags, span_of(lx, (const char *)start, (const char *)start + 2), "unterminated comment");
                    tk_diag_hint(g, "close it with */");
                    cur = (const unsigned char *)lx->limit;
                } else {
                    cur = (const unsigned char *)close + 2;
                }
                continue;
            }
            "\x00" {
                if ((const char *)cur - 1 >= lx->limit) {   /* the sentinel: end of input */
                    cur--;
                    lx->cursor = (const char *)cur;
                    tok->span = span_of(lx, (const char *)cur, (const char *)cur);
                    return 0;
                }
                tk_error(lx->diags, span_of(lx, (const char *)start, (const char *)cur), "unexpected NUL byte in source");
                tok->after_dropped = true;
                continue;
            }

            "kernel"   { TOKEN(TK_T_KERNEL); }
            "fn"       { TOKEN(TK_T_FN); }
            "const"    { TOKEN(TK_T_CONST); }
            "let"      { TOKEN(TK_T_LET); }
            "for"      { TOKEN(TK_T_FOR); }
            "in"       { TOKEN(TK_T_IN); }
            "if"       { TOKEN(TK_T_IF); }
            "else"     { TOKEN(TK_T_ELSE); }
            "return"   { TOKEN(TK_T_RETURN); }
            "grid"     { TOKEN(TK_T_GRID); }
            "warps"    { TOKEN(TK_T_WARPS); }
            "block"    { TOKEN(TK_T_BLOCK); }
            "warp"     { TOKEN(TK_T_WARP); }
            "true"     { TOKEN(TK_T_TRUE); }
            "false"    { TOKEN(TK_T_FALSE); }
            "inf"      { TOKEN(TK_T_INF); }
            "bool"     { TOKEN(TK_T_BOOL); }
            "i32"      { TOKEN(TK_T_I32); }
            "i64"      { TOKEN(TK_T_I64); }
            "f32"      { TOKEN(TK_T_F32); }
            "f16"      { TOKEN(TK_T_F16); }
            "bf16"     { TOKEN(TK_T_BF16); }
            "rt"       { TOKEN(TK_T_RT); }
            "st"       { TOKEN(TK_T_ST); }
            "rv"       { TOKEN(TK_T_RV); }
            "sv"       { TOKEN(TK_T_SV); }
            "gl"       { TOKEN(TK_T_GL); }
            "row"      { TOKEN(TK_T_ROW); }
            "col"      { TOKEN(TK_T_COL); }
            "packed"   { TOKEN(TK_T_PACKED); }
            "convert" | "zeros" | "ones" | "fill" | "load" {
                tok->text = tk_arena_strndup(lx->arena, (const char *)start, (size_t)(cur - start));
                if (!tok->text) tok->text = "?";
                TOKEN(TK_T_TBUILTIN);
            }

            ident {
                tok->text = tk_arena_strndup(lx->arena, (const char *)start, (size_t)(cur - start));
                if (!tok->text) tok->text = "?";
                TOKEN(TK_T_IDENT);
            }
            decfloat | hexfloat {
                tok->fval = float_value(lx, (const char *)start, (const char *)cur, &tok->bad);
                TOKEN(TK_T_FLOAT);
            }
            digit+ | "0" [xX] hex+ {
                tok->ival = int_value(lx, (const char *)start, (const char *)cur, &tok->bad);
                TOKEN(TK_T_INT);
            }
            /* Malformed numbers are one token (an INT marked bad, which the
             * checker types as an error), not a number and a name. A hex
             * fraction without its binary exponent (0x1.8) is one too; it
             * needs a digit after the '.', so that 0x0..0x10 is still a range. */
            digit+ ident | "0" [xX] hex* ident | (decfloat | hexfloat) ident | "0" [xX] hex+ "." hex+ ident? {
                TkDiag *g = tk_error(lx->diags, span_of(lx, (const char *)start, (const char *)cur), "malformed number '%.*s'", (int)(cur - start), (const char *)start);
                tk_diag_hint(g, "numbers have no suffixes; hex floats need a binary exponent, as in 0x1.8p3");
                tok->bad = true;
                TOKEN(TK_T_INT);
            }

            "("  { TOKEN(TK_T_LPAREN); }
            ")"  { TOKEN(TK_T_RPAREN); }
            "{"  { TOKEN(TK_T_LBRACE); }
            "}"  { TOKEN(TK_T_RBRACE); }
            "["  { TOKEN(TK_T_LBRACKET); }
            "]"  { TOKEN(TK_T_RBRACKET); }
            "<=" { TOKEN(TK_T_LE); }
            ">=" { TOKEN(TK_T_GE); }
            "<"  { TOKEN(TK_T_LT); }
            ">"  { TOKEN(TK_T_GT); }
            "==" { TOKEN(TK_T_EQ); }
            "!=" { TOKEN(TK_T_NE); }
            "+=" { TOKEN(TK_T_PLUSEQ); }
            "-=" { TOKEN(TK_T_MINUSEQ); }
            "*=" { TOKEN(TK_T_STAREQ); }
            "/=" { TOKEN(TK_T_SLASHEQ); }
            "="  { TOKEN(TK_T_ASSIGN); }
            "+"  { TOKEN(TK_T_PLUS); }
            "->" { TOKEN(TK_T_ARROW); }
            "-"  { TOKEN(TK_T_MINUS); }
            "*"  { TOKEN(TK_T_STAR); }
            "/"  { TOKEN(TK_T_SLASH); }
            "%"  { TOKEN(TK_T_PERCENT); }
            "&&" { TOKEN(TK_T_ANDAND); }
            "||" { TOKEN(TK_T_OROR); }
            "!"  { TOKEN(TK_T_BANG); }
            ","  { TOKEN(TK_T_COMMA); }
            ":"  { TOKEN(TK_T_COLON); }
            ";"  { TOKEN(TK_T_SEMI); }
            ".." { TOKEN(TK_T_DOTDOT); }
            "."  { TOKEN(TK_T_DOT); }

            [\x80-\xff]+ {
                TkDiag *g = tk_error(lx->diags, span_of(lx, (const char *)start, (const char *)cur), "non-ASCII text outside a comment");
                tk_diag_hint(g, "identifiers and operators are ASCII; non-ASCII text may appear only in comments");
                tok->after_dropped = true;
                continue;
            }
            * {
                unsigned char c = start[0];
                if (c >= 0x20 && c < 0x7f)
                    tk_error(lx->diags, span_of(lx, (const char *)start, (const char *)cur), "unexpected character '%c'", c);
                else
                    tk_error(lx->diags, span_of(lx, (const char *)start, (const char *)cur), "unexpected byte 0x%02x", c);
                tok->after_dropped = true;
                continue;
            }
        */
#undef TOKEN
    }
}

const char *tk_token_spelling(int code)
{
    switch (code) {
    case 0: return "end of input";
    case TK_T_KERNEL: return "'kernel'";
    case TK_T_FN: return "'fn'";
    case TK_T_CONST: return "'const'";
    case TK_T_LET: return "'let'";
    case TK_T_FOR: return "'for'";
    case TK_T_IN: return "'in'";
    case TK_T_IF: return "'if'";
    case TK_T_ELSE: return "'else'";
    case TK_T_RETURN: return "'return'";
    case TK_T_GRID: return "'grid'";
    case TK_T_WARPS: return "'warps'";
    case TK_T_BLOCK: return "'block'";
    case TK_T_WARP: return "'warp'";
    case TK_T_TRUE: return "'true'";
    case TK_T_FALSE: return "'false'";
    case TK_T_INF: return "'inf'";
    case TK_T_BOOL: return "'bool'";
    case TK_T_I32: return "'i32'";
    case TK_T_I64: return "'i64'";
    case TK_T_F32: return "'f32'";
    case TK_T_F16: return "'f16'";
    case TK_T_BF16: return "'bf16'";
    case TK_T_RT: return "'rt'";
    case TK_T_ST: return "'st'";
    case TK_T_RV: return "'rv'";
    case TK_T_SV: return "'sv'";
    case TK_T_GL: return "'gl'";
    case TK_T_ROW: return "'row'";
    case TK_T_COL: return "'col'";
    case TK_T_PACKED: return "'packed'";
    case TK_T_TBUILTIN: return "built-in name";
    case TK_T_IDENT: return "identifier";
    case TK_T_INT: return "integer";
    case TK_T_FLOAT: return "float";
    case TK_T_LPAREN: return "'('";
    case TK_T_RPAREN: return "')'";
    case TK_T_LBRACE: return "'{'";
    case TK_T_RBRACE: return "'}'";
    case TK_T_LBRACKET: return "'['";
    case TK_T_RBRACKET: return "']'";
    case TK_T_LE: return "'<='";
    case TK_T_GE: return "'>='";
    case TK_T_LT: return "'<'";
    case TK_T_GT: return "'>'";
    case TK_T_EQ: return "'=='";
    case TK_T_NE: return "'!='";
    case TK_T_PLUSEQ: return "'+='";
    case TK_T_MINUSEQ: return "'-='";
    case TK_T_STAREQ: return "'*='";
    case TK_T_SLASHEQ: return "'/='";
    case TK_T_ASSIGN: return "'='";
    case TK_T_PLUS: return "'+'";
    case TK_T_ARROW: return "'->'";
    case TK_T_MINUS: return "'-'";
    case TK_T_STAR: return "'*'";
    case TK_T_SLASH: return "'/'";
    case TK_T_PERCENT: return "'%'";
    case TK_T_ANDAND: return "'&&'";
    case TK_T_OROR: return "'||'";
    case TK_T_BANG: return "'!'";
    case TK_T_COMMA: return "','";
    case TK_T_COLON: return "':'";
    case TK_T_GIDENT: return "generic helper name";
    case TK_T_SEMI: return "';'";
    case TK_T_DOTDOT: return "'..'";
    case TK_T_DOT: return "'.'";
    default: return "token";
    }
}
