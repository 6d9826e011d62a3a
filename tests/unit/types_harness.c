/* types_harness.c — the shared harness of the type-checker tests
 * (types_harness.h says what each part is for). */
#include "types_harness.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

void tth_run(Run *r, const char *src)
{
    r->src = src;
    ck_assert_int_eq(tk_front_load_memory(&r->f, "test.tk", src, strlen(src)), 0);
    r->parse_errors = tk_front_parse(&r->f);
    r->errors = tk_front_check(&r->f);
}

void tth_done(Run *r) { tk_front_free(&r->f); }

/* Every diagnostic, for failure messages. */
const char *tth_dump(const Run *r)
{
    static char buf[8192];
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < r->f.diags.count && len < sizeof buf; i++) {
        const TkDiag *g = &r->f.diags.items[i];
        uint32_t line, col;
        tk_source_position(&r->f.src, g->span.begin, &line, &col);
        int n = snprintf(buf + len, sizeof buf - len, "  %u:%u: %s [expected: %s] [found: %s]\n", line, col, g->message,
                         g->expected ? g->expected : "-", g->found ? g->found : "-");
        if (n < 0) break;
        len += (size_t)n;
    }
    return buf;
}

const TkDiag *tth_diag(const Run *r, unsigned i)
{
    ck_assert_msg(i < r->f.diags.count, "no diagnostic #%u; have:\n%s", i, tth_dump(r));
    return &r->f.diags.items[i];
}

/* The program parses cleanly and has exactly n errors in all. */
void tth_expect_count_at(Run *r, unsigned n, int line)
{
    ck_assert_msg(r->parse_errors == 0, "line %d: unexpected syntax error(s) in\n%s\n%s", line, r->src, tth_dump(r));
    ck_assert_msg(r->errors == n, "line %d: expected %u error(s), got %u in\n%s\n%s", line, n, r->errors, r->src, tth_dump(r));
}

void tth_assert_ok_at(const char *src, int line)
{
    Run r;
    tth_run(&r, src);
    tth_expect_count_at(&r, 0, line);
    tth_done(&r);
}

void tth_has_text_at(const Run *r, const char *what, const char *text, const char *needle, int line)
{
    ck_assert_msg(text != NULL, "line %d: the %s is missing; diagnostics:\n%s", line, what, tth_dump(r));
    ck_assert_msg(strstr(text, needle) != NULL, "line %d: %s \"%s\" does not contain \"%s\"", line, what, text, needle);
}

/* Exactly n errors, and the first one's message contains every needle. */
void tth_assert_errors_at(const char *src, unsigned n, const char *const *needles, int line)
{
    Run r;
    tth_run(&r, src);
    tth_expect_count_at(&r, n, line);
    for (const char *const *p = needles; *p; p++) tth_has_text_at(&r, "message", tth_diag(&r, 0)->message, *p, line);
    tth_done(&r);
}

void tth_assert_field_eq_at(const char *what, const char *text, const char *want, int line)
{
    ck_assert_msg(text != NULL, "line %d: %s missing (want \"%s\")", line, what, want);
    ck_assert_msg(strcmp(text, want) == 0, "line %d: %s is \"%s\", want \"%s\"", line, what, text, want);
}

/* Byte offset of the n-th (0-based) occurrence of needle in src. */
uint32_t tth_offset_of(const char *src, const char *needle, int n)
{
    const char *p = src;
    for (;;) {
        p = strstr(p, needle);
        ck_assert_msg(p != NULL, "\"%s\" not in the test source", needle);
        if (n-- == 0) return (uint32_t)(p - src);
        p++;
    }
}

/* A kernel around a body: gl tensors X (f32, M×N) and B (bf16, M×N), f32 s. */
const char *tth_kernel_with(char *buf, size_t size, const char *attrs, const char *body)
{
    int n = snprintf(buf, size, "kernel k(gl<f32, M, N> X, gl<bf16, M, N> B, f32 s) %s {\n%s\n}\n", attrs, body);
    ck_assert(n > 0 && (size_t)n < size);
    return buf;
}

