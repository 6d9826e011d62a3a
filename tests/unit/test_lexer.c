/* test_lexer.c — the .tk lexer (lang/lexer.re) through tk_lexer_init/tk_lex:
 * token codes (TK_T_* from the generated grammar.h), literal values, spans and
 * line:column positions, and how bad input is reported and skipped. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "grammar.h"
#include "lexer.h"
#include "source.h"

typedef struct {
    TkSource src;
    TkArena arena;
    TkDiags diags;
    TkLexer lx;
} Lex;

/* len lets a test put NUL bytes into the text. */
static void lex_open_len(Lex *l, const char *text, size_t len)
{
    ck_assert_int_eq(tk_source_from_memory(&l->src, "lex.tk", text, len), 0);
    tk_arena_init(&l->arena);
    tk_diags_init(&l->diags, &l->src);
    tk_lexer_init(&l->lx, &l->src, &l->arena, &l->diags);
}

static void lex_open(Lex *l, const char *text) { lex_open_len(l, text, strlen(text)); }

static void lex_close(Lex *l)
{
    tk_diags_free(&l->diags);
    tk_arena_free(&l->arena);
    tk_source_free(&l->src);
}

static int next(Lex *l, TkToken *tok) { return tk_lex(&l->lx, tok); }

/* The text a token covers. */
static const char *tok_text(const Lex *l, const TkToken *t)
{
    static char buf[128];
    size_t n = t->span.end - t->span.begin;
    ck_assert_uint_lt(n, sizeof buf);
    memcpy(buf, l->src.text + t->span.begin, n);
    buf[n] = '\0';
    return buf;
}

/* Lex all of text and compare the codes with the 0-terminated list that
 * follows; also the number of errors reported on the way. */
static void assert_codes_at(const char *text, unsigned errors, int line, ...)
{
    Lex l;
    lex_open(&l, text);
    va_list ap;
    va_start(ap, line);
    TkToken tok;
    for (int i = 0;; i++) {
        int want = va_arg(ap, int);
        int got = next(&l, &tok);
        ck_assert_msg(got == want, "line %d: \"%s\" token %d is %s (%d), want %s (%d)", line, text, i,
                      tk_token_spelling(got), got, tk_token_spelling(want), want);
        if (want == 0) break;
    }
    va_end(ap);
    ck_assert_msg(l.diags.errors == errors, "line %d: \"%s\": %u error(s), want %u", line, text, l.diags.errors, errors);
    lex_close(&l);
}
#define assert_codes(text, errors, ...) assert_codes_at((text), (errors), __LINE__, __VA_ARGS__, 0)

START_TEST(range_lexes_as_int_dotdot_int)
{
    Lex l;
    lex_open(&l, "0..4");
    TkToken t;
    ck_assert_int_eq(next(&l, &t), TK_T_INT);
    ck_assert_int_eq(t.ival, 0);
    ck_assert_uint_eq(t.span.begin, 0);
    ck_assert_uint_eq(t.span.end, 1);
    ck_assert_int_eq(next(&l, &t), TK_T_DOTDOT);
    ck_assert_uint_eq(t.span.begin, 1);
    ck_assert_uint_eq(t.span.end, 3);
    ck_assert_int_eq(next(&l, &t), TK_T_INT);
    ck_assert_int_eq(t.ival, 4);
    ck_assert_int_eq(next(&l, &t), 0);
    ck_assert_uint_eq(l.diags.errors, 0);
    lex_close(&l);
    assert_codes("for (i in lo .. hi)", 0, TK_T_FOR, TK_T_LPAREN, TK_T_IDENT, TK_T_IN, TK_T_IDENT, TK_T_DOTDOT, TK_T_IDENT,
                 TK_T_RPAREN);
}
END_TEST

START_TEST(float_literal_values)
{
    static const struct {
        const char *text;
        double value;
    } cases[] = {
        { "1.5e3", 1500.0 }, { "0x1.8p3", 12.0 }, { "2.5e-3", 0.0025 }, { "1e6", 1e6 }, { "3E+2", 300.0 },
        { "0x1p-2", 0.25 }, { "0x1.p0", 1.0 }, { "0.044715", 0.044715 }, { "0XA.8P1", 21.0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Lex l;
        lex_open(&l, cases[i].text);
        TkToken t;
        ck_assert_msg(next(&l, &t) == TK_T_FLOAT, "%s is not a float", cases[i].text);
        ck_assert_msg(t.fval == cases[i].value, "%s = %.17g, want %.17g", cases[i].text, t.fval, cases[i].value);
        ck_assert_uint_eq(t.span.end, strlen(cases[i].text));   /* one token for the whole literal */
        ck_assert_int_eq(next(&l, &t), 0);
        ck_assert_uint_eq(l.diags.errors, 0);
        lex_close(&l);
    }
}
END_TEST

START_TEST(integer_literal_values)
{
    static const struct {
        const char *text;
        int64_t value;
    } cases[] = {
        { "0x10", 16 }, { "0XFF", 255 }, { "0x1F", 31 }, { "007", 7 }, { "0", 0 },
        { "9223372036854775807", INT64_MAX }, { "0x7fffffffffffffff", INT64_MAX },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Lex l;
        lex_open(&l, cases[i].text);
        TkToken t;
        ck_assert_msg(next(&l, &t) == TK_T_INT, "%s is not an integer", cases[i].text);
        ck_assert_msg(t.ival == cases[i].value, "%s = %lld", cases[i].text, (long long)t.ival);
        ck_assert_int_eq(next(&l, &t), 0);
        ck_assert_uint_eq(l.diags.errors, 0);
        lex_close(&l);
    }
}
END_TEST

START_TEST(inf_is_a_keyword)
{
    assert_codes("inf", 0, TK_T_INF);
    assert_codes("-inf", 0, TK_T_MINUS, TK_T_INF);
    assert_codes("inf2 infinity", 0, TK_T_IDENT, TK_T_IDENT);
}
END_TEST

START_TEST(dot_needs_a_digit_after_it)
{
    /* `1.` is an integer and a dot, not a float */
    Lex l;
    lex_open(&l, "1.");
    TkToken t;
    ck_assert_int_eq(next(&l, &t), TK_T_INT);
    ck_assert_int_eq(t.ival, 1);
    ck_assert_int_eq(next(&l, &t), TK_T_DOT);
    ck_assert_int_eq(next(&l, &t), 0);
    lex_close(&l);
    /* a hex number with a fraction but no exponent is one malformed number
     * (reported, returned as a bad INT), while a hex range stays a range */
    lex_open(&l, "0x1.8 0x0..0x10");
    ck_assert_int_eq(next(&l, &t), TK_T_INT);
    ck_assert(t.bad);
    ck_assert_uint_eq(t.span.end, 5);
    ck_assert_uint_eq(l.diags.errors, 1);
    ck_assert_str_eq(l.diags.items[0].message, "malformed number '0x1.8'");
    ck_assert_int_eq(next(&l, &t), TK_T_INT);
    ck_assert(!t.bad);
    ck_assert_int_eq(next(&l, &t), TK_T_DOTDOT);
    ck_assert_int_eq(next(&l, &t), TK_T_INT);
    ck_assert_int_eq(t.ival, 16);
    ck_assert_int_eq(next(&l, &t), 0);
    ck_assert_uint_eq(l.diags.errors, 1);
    lex_close(&l);
    assert_codes("block.x warp.id", 0, TK_T_BLOCK, TK_T_DOT, TK_T_IDENT, TK_T_WARP, TK_T_DOT, TK_T_IDENT);
}
END_TEST

START_TEST(no_shift_token)
{
    Lex l;
    lex_open(&l, "a>>b");
    TkToken t;
    ck_assert_int_eq(next(&l, &t), TK_T_IDENT);
    ck_assert_str_eq(t.text, "a");
    ck_assert_int_eq(next(&l, &t), TK_T_GT);
    ck_assert_uint_eq(t.span.begin, 1);
    ck_assert_int_eq(next(&l, &t), TK_T_GT);
    ck_assert_uint_eq(t.span.begin, 2);
    ck_assert_int_eq(next(&l, &t), TK_T_IDENT);
    ck_assert_str_eq(t.text, "b");
    ck_assert_int_eq(next(&l, &t), 0);
    lex_close(&l);
    assert_codes("rt<rt<f32>>", 0, TK_T_RT, TK_T_LT, TK_T_RT, TK_T_LT, TK_T_F32, TK_T_GT, TK_T_GT);
    assert_codes("a<<b", 0, TK_T_IDENT, TK_T_LT, TK_T_LT, TK_T_IDENT);
}
END_TEST

START_TEST(punctuation_longest_match)
{
    assert_codes("<= >= == != += -= *= /= -> .. && ||", 0, TK_T_LE, TK_T_GE, TK_T_EQ, TK_T_NE, TK_T_PLUSEQ, TK_T_MINUSEQ,
                 TK_T_STAREQ, TK_T_SLASHEQ, TK_T_ARROW, TK_T_DOTDOT, TK_T_ANDAND, TK_T_OROR);
    assert_codes("< > = ! + - * / % , ; . ( ) { } [ ]", 0, TK_T_LT, TK_T_GT, TK_T_ASSIGN, TK_T_BANG, TK_T_PLUS, TK_T_MINUS,
                 TK_T_STAR, TK_T_SLASH, TK_T_PERCENT, TK_T_COMMA, TK_T_SEMI, TK_T_DOT, TK_T_LPAREN, TK_T_RPAREN, TK_T_LBRACE,
                 TK_T_RBRACE, TK_T_LBRACKET, TK_T_RBRACKET);
    /* separated, they are two tokens */
    assert_codes("- > = =", 0, TK_T_MINUS, TK_T_GT, TK_T_ASSIGN, TK_T_ASSIGN);
    assert_codes("...", 0, TK_T_DOTDOT, TK_T_DOT);
    assert_codes("x--y", 0, TK_T_IDENT, TK_T_MINUS, TK_T_MINUS, TK_T_IDENT);
}
END_TEST

START_TEST(keywords_and_identifiers)
{
    assert_codes("kernel fn const let for in if else return grid warps block warp true false", 0, TK_T_KERNEL, TK_T_FN,
                 TK_T_CONST, TK_T_LET, TK_T_FOR, TK_T_IN, TK_T_IF, TK_T_ELSE, TK_T_RETURN, TK_T_GRID, TK_T_WARPS,
                 TK_T_BLOCK, TK_T_WARP, TK_T_TRUE, TK_T_FALSE);
    assert_codes("bool i32 i64 f32 f16 bf16 rt st rv sv gl row col", 0, TK_T_BOOL, TK_T_I32, TK_T_I64, TK_T_F32, TK_T_F16,
                 TK_T_BF16, TK_T_RT, TK_T_ST, TK_T_RV, TK_T_SV, TK_T_GL, TK_T_ROW, TK_T_COL);
    /* a keyword prefix does not make a keyword; case matters */
    Lex l;
    lex_open(&l, "row_max row rows Kernel _if f32x x id");
    TkToken t;
    const char *idents[] = { "row_max", NULL, "rows", "Kernel", "_if", "f32x", "x", "id" };
    for (int i = 0; i < 8; i++) {
        int code = next(&l, &t);
        if (!idents[i]) {
            ck_assert_int_eq(code, TK_T_ROW);
            continue;
        }
        ck_assert_msg(code == TK_T_IDENT, "%s: %s", idents[i], tk_token_spelling(code));
        ck_assert_str_eq(t.text, idents[i]);
    }
    ck_assert_int_eq(next(&l, &t), 0);
    lex_close(&l);
}
END_TEST

START_TEST(typed_builtins_are_tbuiltin)
{
    Lex l;
    lex_open(&l, "convert zeros ones fill load store mma_ab cdiv");
    TkToken t;
    const char *typed[] = { "convert", "zeros", "ones", "fill", "load" };
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(next(&l, &t), TK_T_TBUILTIN);
        ck_assert_str_eq(t.text, typed[i]);
    }
    /* the other built-ins are ordinary identifiers (reserved by the checker) */
    const char *plain[] = { "store", "mma_ab", "cdiv" };
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(next(&l, &t), TK_T_IDENT);
        ck_assert_str_eq(t.text, plain[i]);
    }
    ck_assert_int_eq(next(&l, &t), 0);
    lex_close(&l);
    assert_codes("convert<bf16>(x)", 0, TK_T_TBUILTIN, TK_T_LT, TK_T_BF16, TK_T_GT, TK_T_LPAREN, TK_T_IDENT, TK_T_RPAREN);
}
END_TEST

START_TEST(comments_are_skipped)
{
    assert_codes("a // b c\nd", 0, TK_T_IDENT, TK_T_IDENT);
    assert_codes("a /* b\n c */ d", 0, TK_T_IDENT, TK_T_IDENT);
    /* block comments do not nest: the first closing mark ends them */
    assert_codes("/* /* */ e */", 0, TK_T_IDENT, TK_T_STAR, TK_T_SLASH);
    /* comment markers inside a line comment, and non-ASCII inside comments */
    assert_codes("x // /* not a block\ny /* \xc3\xa9 \xe2\x88\x91 */ z // \xc3\xa9", 0, TK_T_IDENT, TK_T_IDENT, TK_T_IDENT);
    assert_codes("a/**/b", 0, TK_T_IDENT, TK_T_IDENT);
    assert_codes_at("// only a comment", 0, __LINE__, 0);
}
END_TEST

START_TEST(unterminated_comment_is_one_error_and_the_end)
{
    Lex l;
    const char *text = "x /* never closed\n y z";
    lex_open(&l, text);
    TkToken t;
    ck_assert_int_eq(next(&l, &t), TK_T_IDENT);
    ck_assert_int_eq(next(&l, &t), 0);
    ck_assert_int_eq(next(&l, &t), 0);   /* stays at the end */
    ck_assert_uint_eq(l.diags.errors, 1);
    ck_assert_str_eq(l.diags.items[0].message, "unterminated comment");
    ck_assert_uint_eq(l.diags.items[0].span.begin, 2);   /* at the opening mark */
    ck_assert_uint_eq(l.diags.items[0].span.end, 4);
    lex_close(&l);
    /* a lone '*' at the end does not close it */
    assert_codes_at("/* *", 1, __LINE__, 0);
}
END_TEST

START_TEST(bad_characters_are_skipped)
{
    Lex l;
    lex_open(&l, "a @ b # c");
    TkToken t;
    ck_assert_int_eq(next(&l, &t), TK_T_IDENT);
    ck_assert_int_eq(next(&l, &t), TK_T_IDENT);
    ck_assert_str_eq(t.text, "b");
    ck_assert_uint_eq(l.diags.errors, 1);
    ck_assert_str_eq(l.diags.items[0].message, "unexpected character '@'");
    ck_assert_uint_eq(l.diags.items[0].span.begin, 2);
    ck_assert_uint_eq(l.diags.items[0].span.end, 3);
    ck_assert_int_eq(next(&l, &t), TK_T_IDENT);
    ck_assert_str_eq(t.text, "c");
    ck_assert_int_eq(next(&l, &t), 0);
    ck_assert_uint_eq(l.diags.errors, 2);
    ck_assert_str_eq(l.diags.items[1].message, "unexpected character '#'");
    lex_close(&l);
    /* '&' and '|' alone, control bytes, and non-ASCII outside comments */
    assert_codes("a & b | c", 2, TK_T_IDENT, TK_T_IDENT, TK_T_IDENT);
    assert_codes("a \x01 b", 1, TK_T_IDENT, TK_T_IDENT);
    assert_codes("\xc3\xa9t\xc3\xa9 x", 2, TK_T_IDENT, TK_T_IDENT);
}
END_TEST

START_TEST(nul_byte_inside_the_text)
{
    static const char text[] = "a\0b";
    Lex l;
    lex_open_len(&l, text, 3);
    TkToken t;
    ck_assert_int_eq(next(&l, &t), TK_T_IDENT);
    ck_assert_int_eq(next(&l, &t), TK_T_IDENT);   /* lexing goes on past the NUL */
    ck_assert_str_eq(t.text, "b");
    ck_assert_int_eq(next(&l, &t), 0);
    ck_assert_uint_eq(l.diags.errors, 1);
    ck_assert_str_eq(l.diags.items[0].message, "unexpected NUL byte in source");
    ck_assert_uint_eq(l.diags.items[0].span.begin, 1);
    lex_close(&l);
}
END_TEST

START_TEST(integer_too_large)
{
    Lex l;
    lex_open(&l, "9223372036854775808 1 0x8000000000000000 99999999999999999999999");
    TkToken t;
    ck_assert_int_eq(next(&l, &t), TK_T_INT);   /* still one integer token */
    ck_assert_uint_eq(t.span.end, 19);
    ck_assert_uint_eq(l.diags.errors, 1);
    ck_assert_str_eq(l.diags.items[0].message, "integer literal is too large");
    ck_assert_uint_eq(l.diags.items[0].span.begin, 0);
    ck_assert_uint_eq(l.diags.items[0].span.end, 19);
    ck_assert_int_eq(next(&l, &t), TK_T_INT);   /* and lexing continues */
    ck_assert_int_eq(t.ival, 1);
    ck_assert_int_eq(next(&l, &t), TK_T_INT);
    ck_assert_int_eq(next(&l, &t), TK_T_INT);
    ck_assert_int_eq(next(&l, &t), 0);
    ck_assert_uint_eq(l.diags.errors, 3);
    lex_close(&l);
}
END_TEST

START_TEST(malformed_numbers_and_float_range)
{
    /* a number followed by letters that do not continue it: one error, one token */
    static const char *const bad[] = { "12abc", "1e5x", "0x1p", "0xg", "7_" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Lex l;
        lex_open(&l, bad[i]);
        TkToken t;
        ck_assert_int_eq(next(&l, &t), TK_T_INT);
        ck_assert_uint_eq(t.span.end, strlen(bad[i]));
        ck_assert_int_eq(next(&l, &t), 0);
        ck_assert_msg(l.diags.errors == 1, "%s: %u errors", bad[i], l.diags.errors);
        ck_assert_ptr_nonnull(strstr(l.diags.items[0].message, "malformed number"));
        ck_assert_ptr_nonnull(strstr(l.diags.items[0].message, bad[i]));
        lex_close(&l);
    }
    /* overflow is an error, underflow is not */
    Lex l;
    lex_open(&l, "1e309 1e-400 0x1p99999");
    TkToken t;
    ck_assert_int_eq(next(&l, &t), TK_T_FLOAT);
    ck_assert_uint_eq(l.diags.errors, 1);
    ck_assert_str_eq(l.diags.items[0].message, "float literal is out of range");
    ck_assert_int_eq(next(&l, &t), TK_T_FLOAT);
    ck_assert(t.fval == 0.0);
    ck_assert_uint_eq(l.diags.errors, 1);
    ck_assert_int_eq(next(&l, &t), TK_T_FLOAT);
    ck_assert_uint_eq(l.diags.errors, 2);
    lex_close(&l);
}
END_TEST

START_TEST(positions_after_newlines)
{
    const char *text = "kernel k\n  warps(4)\n\tx /* a\nb */ y\r\n\nz";
    Lex l;
    lex_open(&l, text);
    static const struct {
        int code;
        const char *text;
        uint32_t line, col;
    } want[] = {
        { TK_T_KERNEL, "kernel", 1, 1 }, { TK_T_IDENT, "k", 1, 8 }, { TK_T_WARPS, "warps", 2, 3 },
        { TK_T_LPAREN, "(", 2, 8 },      { TK_T_INT, "4", 2, 9 },   { TK_T_RPAREN, ")", 2, 10 },
        { TK_T_IDENT, "x", 3, 2 },       /* a tab is one column */
        { TK_T_IDENT, "y", 4, 6 },       /* after a comment spanning lines */
        { TK_T_IDENT, "z", 6, 1 },       /* CR LF, then an empty line */
    };
    TkToken t;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ck_assert_int_eq(next(&l, &t), want[i].code);
        ck_assert_str_eq(tok_text(&l, &t), want[i].text);
        uint32_t line, col;
        tk_source_position(&l.src, t.span.begin, &line, &col);
        ck_assert_msg(line == want[i].line && col == want[i].col, "'%s' at %u:%u, want %u:%u", want[i].text, line, col,
                      want[i].line, want[i].col);
    }
    ck_assert_int_eq(next(&l, &t), 0);
    /* the end-of-input token sits at the end, with an empty span */
    ck_assert_uint_eq(t.span.begin, strlen(text));
    ck_assert_uint_eq(t.span.end, strlen(text));
    lex_close(&l);
}
END_TEST

START_TEST(token_spellings)
{
    ck_assert_str_eq(tk_token_spelling(0), "end of input");
    ck_assert_str_eq(tk_token_spelling(TK_T_DOTDOT), "'..'");
    ck_assert_str_eq(tk_token_spelling(TK_T_IDENT), "identifier");
    ck_assert_str_eq(tk_token_spelling(TK_T_TBUILTIN), "built-in name");
    ck_assert_str_eq(tk_token_spelling(TK_T_ROW), "'row'");
}
END_TEST

Suite *tk_suite_lexer(void)
{
    Suite *suite = suite_create("lexer");

    TCase *tokens = tcase_create("tokens");
    tcase_add_test(tokens, range_lexes_as_int_dotdot_int);
    tcase_add_test(tokens, float_literal_values);
    tcase_add_test(tokens, integer_literal_values);
    tcase_add_test(tokens, inf_is_a_keyword);
    tcase_add_test(tokens, dot_needs_a_digit_after_it);
    tcase_add_test(tokens, no_shift_token);
    tcase_add_test(tokens, punctuation_longest_match);
    tcase_add_test(tokens, keywords_and_identifiers);
    tcase_add_test(tokens, typed_builtins_are_tbuiltin);
    tcase_add_test(tokens, comments_are_skipped);
    tcase_add_test(tokens, token_spellings);
    suite_add_tcase(suite, tokens);

    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, unterminated_comment_is_one_error_and_the_end);
    tcase_add_test(errors, bad_characters_are_skipped);
    tcase_add_test(errors, nul_byte_inside_the_text);
    tcase_add_test(errors, integer_too_large);
    tcase_add_test(errors, malformed_numbers_and_float_range);
    suite_add_tcase(suite, errors);

    TCase *pos = tcase_create("positions");
    tcase_add_test(pos, positions_after_newlines);
    suite_add_tcase(suite, pos);

    return suite;
}
