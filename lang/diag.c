/* diag.c — see diag.h. */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void tk_diags_init(TkDiags *d, const TkSource *src)
{
    memset(d, 0, sizeof *d);
    d->src = src;
}

void tk_diags_free(TkDiags *d)
{
    for (unsigned i = 0; i < d->count; i++) {
        free(d->items[i].message);
        free(d->items[i].expected);
        free(d->items[i].found);
        free(d->items[i].hint);
        free(d->items[i].note);
    }
    free(d->items);
    d->items = NULL;
    d->count = d->cap = 0;
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return NULL;
    char *s = malloc((size_t)n + 1);
    if (s) vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static TkDiag *add(TkDiags *d, TkSeverity sev, TkSpan span, const char *fmt, va_list ap)
{
    unsigned limit = d->max_errors ? d->max_errors : 100;
    if (sev == TK_SEV_ERROR && d->errors >= limit) {
        d->overflowed = true;
        d->errors++;
        return NULL;
    }
    if (sev == TK_SEV_ERROR) d->errors++;
    if (d->count == d->cap) {
        unsigned cap = d->cap ? d->cap * 2 : 16;
        TkDiag *items = realloc(d->items, sizeof *items * cap);
        if (!items) {
            d->oom = true;
            return NULL;
        }
        d->items = items;
        d->cap = cap;
    }
    TkDiag *g = &d->items[d->count];
    memset(g, 0, sizeof *g);
    g->severity = sev;
    g->span = span;
    g->message = vformat(fmt, ap);
    if (!g->message) {
        d->oom = true;
        return NULL;
    }
    d->count++;
    return g;
}

TkDiag *tk_error(TkDiags *d, TkSpan span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    TkDiag *g = add(d, TK_SEV_ERROR, span, fmt, ap);
    va_end(ap);
    return g;
}

TkDiag *tk_warning(TkDiags *d, TkSpan span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    TkDiag *g = add(d, TK_SEV_WARNING, span, fmt, ap);
    va_end(ap);
    return g;
}

#define SETTER(field)                                          \
    void tk_diag_##field(TkDiag *g, const char *fmt, ...)      \
    {                                                          \
        if (!g) return;                                        \
        va_list ap;                                            \
        va_start(ap, fmt);                                     \
        free(g->field);                                        \
        g->field = vformat(fmt, ap);                           \
        va_end(ap);                                            \
    }
SETTER(expected)
SETTER(found)
SETTER(hint)
SETTER(note)
#undef SETTER

static int by_position(const void *a, const void *b)
{
    const TkDiag *x = a, *y = b;
    if (x->span.begin != y->span.begin) return x->span.begin < y->span.begin ? -1 : 1;
    return x < y ? -1 : x > y;   /* keep insertion order for ties */
}

static bool same_text(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* Drops a diagnostic that repeats an earlier one word for word at the same
 * place: the copies of an unrolled loop body (lang/arrays.c) are checked one
 * by one and would otherwise report the same mistake once per iteration.
 * Runs on sorted diagnostics, so repeats sit next to their first. */
static void drop_repeats(TkDiags *d)
{
    unsigned w = 0;
    for (unsigned i = 0; i < d->count; i++) {
        TkDiag *g = &d->items[i];
        bool repeat = false;
        for (unsigned j = w; j-- > 0 && d->items[j].span.begin == g->span.begin && !repeat;) {
            const TkDiag *f = &d->items[j];
            repeat = f->span.end == g->span.end && f->severity == g->severity && same_text(f->message, g->message) &&
                     same_text(f->expected, g->expected) && same_text(f->found, g->found) && same_text(f->hint, g->hint);
        }
        if (repeat) {
            if (g->severity == TK_SEV_ERROR && d->errors > 0) d->errors--;
            free(g->message);
            free(g->expected);
            free(g->found);
            free(g->hint);
            free(g->note);
            continue;
        }
        d->items[w++] = *g;
    }
    d->count = w;
}

void tk_diags_sort(TkDiags *d)
{
    /* qsort is not stable; ties are broken by address, which is insertion order
     * only before sorting — so sort a copy of indices instead. */
    if (d->count < 2) return;
    for (unsigned i = 1; i < d->count; i++) {   /* insertion sort: stable, lists are short */
        TkDiag g = d->items[i];
        unsigned j = i;
        while (j > 0 && d->items[j - 1].span.begin > g.span.begin) {
            d->items[j] = d->items[j - 1];
            j--;
        }
        d->items[j] = g;
    }
    (void)by_position;
    drop_repeats(d);
}

static const char *severity_name(TkSeverity s)
{
    switch (s) {
    case TK_SEV_ERROR: return "error";
    case TK_SEV_WARNING: return "warning";
    case TK_SEV_NOTE: return "note";
    }
    return "error";
}

/* Source lines longer than this many characters are shown as a window of
 * them around the caret, as clang does: generated or minified sources put
 * tens of kilobytes on one line, and a hundred errors each printing all of it
 * (and a caret line as long) made megabytes of output. */
#define CARET_WINDOW 120
#define CARET_BEFORE 40   /* characters kept before the caret when the window slides */

/* Byte offset of character (code point) index ch of text[0..len). */
static uint32_t char_offset(const char *text, uint32_t len, uint32_t ch)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < len; i++) {
        if (((unsigned char)text[i] & 0xc0) != 0x80) {
            if (n == ch) return i;
            n++;
        }
    }
    return len;
}

/* The source line, then a caret line with one cell per character (UTF-8
 * code point) of it: blanks (a tab under a tab) up to the span, '^' under its
 * first character and '~' under the others on this line. A line of more than
 * CARET_WINDOW characters shows CARET_WINDOW of them around the span's start,
 * with "..." where it was cut. */
static void print_caret(const TkDiags *d, const TkDiag *g, FILE *out)
{
    uint32_t line, col, len;
    tk_source_position(d->src, g->span.begin, &line, &col);
    const char *text = tk_source_line(d->src, line, &len);
    uint32_t line_start = d->src->line_starts[line - 1];
    uint32_t begin = g->span.begin - line_start;   /* byte offsets in the line */
    if (begin > len) begin = len;
    uint32_t end = g->span.end > g->span.begin ? g->span.end - line_start : begin + 1;
    if (end > len) end = len;

    /* the window [from, to) in bytes, at character boundaries */
    uint32_t from = 0, to = len, chars = tk_source_columns(text, len);
    if (chars > CARET_WINDOW) {
        uint32_t c0 = tk_source_columns(text, begin), first = c0 > CARET_BEFORE ? c0 - CARET_BEFORE : 0;
        if (first + CARET_WINDOW > chars) first = chars - CARET_WINDOW;
        from = char_offset(text, len, first);
        to = char_offset(text, len, first + CARET_WINDOW);
    }
    fprintf(out, "%5u | %s", line, from > 0 ? "..." : "");
    for (uint32_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)text[i];
        fputc(c == '\t' || c >= 0x20 ? c : ' ', out);   /* never echo control bytes */
    }
    fputs(to < len ? "...\n      | " : "\n      | ", out);
    if (from > 0) fputs("   ", out);
    for (uint32_t i = from; i < begin; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c & 0xc0) != 0x80) fputc(c == '\t' ? '\t' : ' ', out);
    }
    fputc('^', out);
    /* underline the rest of the span, but only up to the end of this line (or of the window) */
    if (end > to) end = to;
    uint32_t first_end = begin + 1;   /* past the first character */
    while (first_end < end && ((unsigned char)text[first_end] & 0xc0) == 0x80) first_end++;
    if (end > first_end) {
        uint32_t n = tk_source_columns(text + first_end, end - first_end);
        for (uint32_t i = 0; i < n; i++) fputc('~', out);
    }
    fputc('\n', out);
}

static void print_text(const TkDiags *d, FILE *out)
{
    for (unsigned i = 0; i < d->count; i++) {
        const TkDiag *g = &d->items[i];
        uint32_t line, col;
        tk_source_position(d->src, g->span.begin, &line, &col);
        fprintf(out, "%s:%u:%u: %s: %s\n", d->src->name, line, col, severity_name(g->severity), g->message);
        print_caret(d, g, out);
        if (g->expected) fprintf(out, "  expected: %s\n", g->expected);
        if (g->found) fprintf(out, "  found:    %s\n", g->found);
        if (g->hint) fprintf(out, "  hint: %s\n", g->hint);
        if (g->note) fprintf(out, "  note: %s\n", g->note);
    }
    if (d->overflowed)
        fprintf(out, "%s: too many errors, stopped after %u\n", d->src->name, d->max_errors ? d->max_errors : 100);
    if (d->oom) fprintf(out, "%s: out of memory while recording diagnostics\n", d->src->name);
}

void tk_diags_print_text(const TkDiags *d, FILE *out)
{
    /* into memory first, then one write: stderr is unbuffered, and a write
     * per character made a hundred diagnostics millions of system calls */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        print_text(d, out);
        return;
    }
    print_text(d, mem);
    if (fclose(mem) == 0 && buf) fwrite(buf, 1, len, out);
    else print_text(d, out);
    free(buf);
}

static void json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*p < 0x20) fprintf(out, "\\u%04x", *p);
            else fputc(*p, out);
        }
    }
    fputc('"', out);
}

void tk_diags_print_json(const TkDiags *d, FILE *out)
{
    for (unsigned i = 0; i < d->count; i++) {
        const TkDiag *g = &d->items[i];
        uint32_t line, col, end_line, end_col;
        tk_source_position(d->src, g->span.begin, &line, &col);
        tk_source_position(d->src, g->span.end > g->span.begin ? g->span.end : g->span.begin + 1, &end_line, &end_col);
        fputs("{\"file\":", out);
        json_string(out, d->src->name);
        fprintf(out, ",\"line\":%u,\"col\":%u,\"end_line\":%u,\"end_col\":%u,\"severity\":", line, col, end_line, end_col);
        json_string(out, severity_name(g->severity));
        fputs(",\"message\":", out);
        json_string(out, g->message);
        fputs(",\"expected\":", out);
        json_string(out, g->expected);
        fputs(",\"found\":", out);
        json_string(out, g->found);
        fputs(",\"hint\":", out);
        json_string(out, g->hint);
        if (g->note) {   /* only where there is one, so other lines keep their shape */
            fputs(",\"note\":", out);
            json_string(out, g->note);
        }
        fputs("}\n", out);
    }
}
