/* fuzz_front.c — libFuzzer target over the whole front end, through the
 * same public calls tkc makes (lang/front.h):
 *
 *   load (from memory) → dump tokens → parse → check → print AST →
 *   print diagnostics as text and as JSON
 *
 * Every input must go through without a crash, a leak, undefined behaviour
 * or a hang (the sanitizers and libFuzzer's -timeout find those).
 *
 * On top of that, a round-trip property for inputs the checker accepts:
 * the printed AST is canonical .tk source, so
 *   1. printing it and compiling the printout again gives zero errors, and
 *   2. printing that second AST gives the same text (the printer is
 *      idempotent: print(parse(print(ast))) == print(ast)).
 * A violation prints both texts and calls abort(), which libFuzzer reports
 * as a crash and saves as a reproducer.
 *
 * Build: scripts/fuzz.sh (clang-22, -fsanitize=fuzzer,address,undefined). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    devnull = fopen("/dev/null", "w");
    if (!devnull) {
        perror("fuzz_front: /dev/null");
        abort();
    }
    return 0;
}

/* The AST of a parsed-and-checked front end as text (malloc'd; *len set). */
static char *print_ast(const TkFront *f, size_t *len)
{
    char *buf = NULL;
    FILE *mem = open_memstream(&buf, len);
    if (!mem) return NULL;
    tk_ast_print(f->items, mem);
    if (fclose(mem) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void fail(const char *what, const char *original, const char *first, const TkFront *second)
{
    fprintf(stderr, "\nfuzz_front: round-trip property violated: %s\n", what);
    fprintf(stderr, "---- input's printed AST (compiled cleanly) ----\n%s\n", original);
    if (first) fprintf(stderr, "---- printout of that, compiled again ----\n%s\n", first);
    if (second && second->diags.errors) {
        fprintf(stderr, "---- diagnostics for the printout ----\n");
        tk_diags_print_text(&second->diags, stderr);
    }
    abort();
}

/* Compile the printed AST again; it must check cleanly and print the same. */
static void round_trip(const char *text, size_t len)
{
    TkFront g;
    if (tk_front_load_memory(&g, "printed.tk", text, len) != 0) return;   /* out of memory */
    tk_front_parse(&g);
    tk_front_check(&g);
    if (g.diags.errors) fail("the printed AST does not compile cleanly", text, NULL, &g);
    size_t len2 = 0;
    char *again = print_ast(&g, &len2);
    if (again && (len2 != len || memcmp(again, text, len) != 0))
        fail("printing is not idempotent: print(parse(print(ast))) != print(ast)", text, again, NULL);
    free(again);
    tk_front_free(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    TkFront f;

    /* The lexer alone, as `tkc --emit=tokens` runs it. */
    if (tk_front_load_memory(&f, "fuzz.tk", (const char *)data, size) != 0) return 0;
    tk_front_dump_tokens(&f, devnull);
    tk_diags_print_text(&f.diags, devnull);
    tk_front_free(&f);

    /* The whole pipeline, as `tkc check` and `tkc --emit=ast` run it. */
    if (tk_front_load_memory(&f, "fuzz.tk", (const char *)data, size) != 0) return 0;
    tk_front_parse(&f);
    tk_front_check(&f);
    tk_ast_print(f.items, devnull);
    tk_diags_print_text(&f.diags, devnull);
    tk_diags_print_json(&f.diags, devnull);

    if (f.diags.errors == 0) {
        size_t len = 0;
        char *text = print_ast(&f, &len);
        if (text) round_trip(text, len);
        free(text);
    }
    tk_front_free(&f);
    return 0;
}
