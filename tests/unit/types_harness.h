/* types_harness.h — what the type-checker tests (test_types_*.c) share:
 * checking a program from a string and asserting on its diagnostics. Names
 * carry tth_ (type test harness); definitions in types_harness.c.
 *
 * Each program is checked from a string; tests assert the exact number of
 * errors and what the first one says (message, expected/found, position). A
 * program expected to fail in the checker must not fail in the parser, so a
 * typo in a test cannot pass for the error under test. */
#ifndef TK_TESTS_UNIT_TYPES_HARNESS_H
#define TK_TESTS_UNIT_TYPES_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "front.h"

typedef struct {
    TkFront f;
    const char *src;
    unsigned parse_errors;   /* lexer + parser */
    unsigned errors;         /* after the checker, all stages */
} Run;

/* Loads, parses and checks src into r (r->src keeps src). */
void tth_run(Run *r, const char *src);
void tth_done(Run *r);
/* Every diagnostic, for failure messages. */
const char *tth_dump(const Run *r);
/* Diagnostic i of r (fails the test, listing them all, if there is none). */
const TkDiag *tth_diag(const Run *r, unsigned i);

/* The program parses cleanly and has exactly n errors in all. */
void tth_expect_count_at(Run *r, unsigned n, int line);
#define expect_count(r, n) tth_expect_count_at((r), (n), __LINE__)

/* src checks without errors. */
void tth_assert_ok_at(const char *src, int line);
#define assert_ok(src) tth_assert_ok_at((src), __LINE__)

/* text (the `what` of a diagnostic of r) exists and contains needle. */
void tth_has_text_at(const Run *r, const char *what, const char *text, const char *needle, int line);
#define msg_has(r, i, needle) tth_has_text_at((r), "message", tth_diag((r), (i))->message, (needle), __LINE__)

/* Exactly n errors, and the first one's message contains every needle. */
void tth_assert_errors_at(const char *src, unsigned n, const char *const *needles, int line);
#define assert_errors(src, n, ...) tth_assert_errors_at((src), (n), (const char *const[]){ __VA_ARGS__, NULL }, __LINE__)

/* A diagnostic's field `what` is exactly want. */
void tth_assert_field_eq_at(const char *what, const char *text, const char *want, int line);
#define expected_is(r, i, want) tth_assert_field_eq_at("expected", tth_diag((r), (i))->expected, (want), __LINE__)
#define found_is(r, i, want) tth_assert_field_eq_at("found", tth_diag((r), (i))->found, (want), __LINE__)

/* Byte offset of the n-th (0-based) occurrence of needle in src. */
uint32_t tth_offset_of(const char *src, const char *needle, int n);

/* A kernel around a body: gl tensors X (f32, M×N) and B (bf16, M×N), f32 s. */
const char *tth_kernel_with(char *buf, size_t size, const char *attrs, const char *body);

#endif
