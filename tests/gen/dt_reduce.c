/* dt_reduce.c — see dt_reduce.h. The program is a list of lines; each pass
 * proposes candidates (a copy with some lines deleted or one replaced),
 * runs each in a child and keeps the first that still fails the same way. */
#include "dt_reduce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char **line;
    unsigned n;
} Lines;

typedef struct {
    const DtReduceSpec *s;
    char sizes[256];
    unsigned trials;
    bool oom;
} Reducer;

static void lines_free(Lines *l)
{
    for (unsigned i = 0; i < l->n; i++) free(l->line[i]);
    free(l->line);
    l->line = NULL;
    l->n = 0;
}

static bool lines_split(const char *text, Lines *out)
{
    out->n = 0;
    unsigned cap = 64;
    out->line = malloc(cap * sizeof *out->line);
    if (!out->line) return false;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (out->n == cap) {
            char **t = realloc(out->line, (cap *= 2) * sizeof *t);
            if (!t) return false;
            out->line = t;
        }
        out->line[out->n] = strndup(p, len);
        if (!out->line[out->n]) return false;
        out->n++;
        p += len + (e ? 1 : 0);
    }
    return true;
}

static char *lines_join(const Lines *l)
{
    size_t total = 1;
    for (unsigned i = 0; i < l->n; i++) total += strlen(l->line[i]) + 1;
    char *s = malloc(total), *o = s;
    if (!s) return NULL;
    for (unsigned i = 0; i < l->n; i++) {
        size_t k = strlen(l->line[i]);
        memcpy(o, l->line[i], k);
        o += k;
        *o++ = '\n';
    }
    *o = '\0';
    return s;
}

/* A copy of l without lines [a, b], and with line r (if < n) replaced by repl. */
static bool lines_edit(const Lines *l, unsigned a, unsigned b, unsigned r, const char *repl, Lines *out)
{
    out->n = 0;
    out->line = malloc((l->n ? l->n : 1) * sizeof *out->line);
    if (!out->line) return false;
    for (unsigned i = 0; i < l->n; i++) {
        if (i >= a && i <= b) continue;
        out->line[out->n] = strdup(i == r ? repl : l->line[i]);
        if (!out->line[out->n]) return false;
        out->n++;
    }
    return true;
}

/* Does the candidate still fail the same way? */
static bool still_fails(Reducer *R, const Lines *cand, const char *sizes)
{
    const DtReduceSpec *s = R->s;
    if (s->max_trials && R->trials >= s->max_trials) return false;
    R->trials++;
    char *text = lines_join(cand);
    if (!text) {
        R->oom = true;
        return false;
    }
    char path[600], log[600];
    snprintf(path, sizeof path, "%s/candidate.tk", s->work_dir);
    snprintf(log, sizeof log, "%s/candidate.log", s->work_dir);
    FILE *fp = fopen(path, "w");
    bool ok = fp && fputs(text, fp) >= 0;
    if (fp && fclose(fp) != 0) ok = false;
    free(text);
    if (!ok) return false;
    DtRunSpec rs = { .file = path, .kernel = s->kernel, .sizes = sizes, .scalars = s->scalars, .input_seed = s->input_seed,
                     .configs = s->config, .timeout_s = s->timeout_s };
    DtRunResult r;
    if (dt_run_spawn(s->self, &rs, log, &r) != 0) return false;
    if (s->verbose) fprintf(stderr, "  reduce: trial %u (%u lines, %s): %s\n", R->trials, cand->n, sizes, dt_outcome_name(r.outcome));
    return r.outcome == s->outcome;
}

/* Takes cand as the new current program if it still fails; frees it otherwise. */
static bool try_lines(Reducer *R, Lines *cur, Lines *cand)
{
    if (still_fails(R, cand, R->sizes)) {
        lines_free(cur);
        *cur = *cand;
        return true;
    }
    lines_free(cand);
    return false;
}

/* Line i replaced by repl, kept if it still fails. */
static bool try_line(Reducer *R, Lines *cur, unsigned i, const char *repl)
{
    Lines cand;
    if (!lines_edit(cur, 1, 0, i, repl, &cand)) {
        R->oom = true;
        return false;
    }
    return try_lines(R, cur, &cand);
}

/* ---------------------------------------------------------------- passes */

static bool pass_sizes(Reducer *R, const Lines *cur)
{
    bool progress = false;
    char names[8][16];
    long long vals[8];
    unsigned n = 0;
    for (const char *p = R->sizes; *p && n < 8;) {
        int len = 0;
        if (sscanf(p, "%15[^=]=%lld%n", names[n], &vals[n], &len) < 2) break;
        n++;
        p += len;
        if (*p == ',') p++;
    }
    static const long long tries[] = { 1, 2, 3, 5, 8, 16, 17, 33 };
    for (unsigned k = 0; k < n; k++) {
        for (unsigned t = 0; t <= sizeof tries / sizeof tries[0]; t++) {
            long long v = t < sizeof tries / sizeof tries[0] ? tries[t] : vals[k] / 2;
            if (v >= vals[k] || v < 1) continue;
            char cand[256] = "";
            size_t o = 0;
            for (unsigned q = 0; q < n; q++)
                o += (size_t)snprintf(cand + o, sizeof cand - o, "%s%s=%lld", q ? "," : "", names[q], q == k ? v : vals[q]);
            if (still_fails(R, cur, cand)) {
                vals[k] = v;
                snprintf(R->sizes, sizeof R->sizes, "%s", cand);
                progress = true;
                break;
            }
        }
    }
    return progress;
}

static bool pass_tiles(Reducer *R, Lines *cur)
{
    bool progress = false;
    for (unsigned i = 0; i < cur->n; i++) {
        char name[8];
        int v;
        if (sscanf(cur->line[i], "const %7[A-Z] = %d;", name, &v) != 2) continue;
        static const int dims[] = { 16, 32, 48, 64 }, warps[] = { 1, 2 };
        bool w = strcmp(name, "W") == 0;
        const int *c = w ? warps : dims;
        unsigned nc = w ? 2 : 4;
        for (unsigned t = 0; t < nc && c[t] < v; t++) {
            char repl[64];
            snprintf(repl, sizeof repl, "const %s = %d;", name, c[t]);
            if (try_line(R, cur, i, repl)) {
                progress = true;
                break;
            }
        }
    }
    return progress;
}

static bool ends_with_brace(const char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ')) n--;
    return n && s[n - 1] == '{';
}

static const char *skip_space(const char *s)
{
    while (*s == ' ') s++;
    return s;
}

/* The line closing the else branch opened on line i ("} else {"), or i if none. */
static unsigned else_end(const Lines *l, unsigned i)
{
    int depth = 1;
    for (unsigned k = i + 1; k < l->n; k++) {
        for (const char *p = l->line[k]; *p; p++) depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
        if (depth == 0) return k;
    }
    return i;
}

static unsigned closing(const Lines *l, unsigned i)
{
    int depth = 0;
    for (unsigned k = i; k < l->n; k++) {
        for (const char *p = l->line[k]; *p; p++) {
            if (*p == '{') depth++;
            if (*p == '}' && --depth == 0) return k;
        }
    }
    return l->n;
}

static bool pass_blocks(Reducer *R, Lines *cur)
{
    bool progress = false;
    for (unsigned i = 0; i < cur->n && !R->oom; i++) {
        const char *h = skip_space(cur->line[i]);
        if (!ends_with_brace(h) || strncmp(h, "kernel", 6) == 0 || h[0] == '{') continue;
        bool is_else = strncmp(h, "} else", 6) == 0;
        unsigned c = closing(cur, i);
        if (is_else) {
            /* drop the else branch: "} else {" … "}" becomes "}" */
            unsigned end = else_end(cur, i);
            if (end == i) continue;
            char repl[256];
            snprintf(repl, sizeof repl, "%.*s}", (int)(h - cur->line[i]), cur->line[i]);
            Lines cand;
            if (!lines_edit(cur, i + 1, end, i, repl, &cand)) {
                R->oom = true;
                break;
            }
            if (try_lines(R, cur, &cand)) progress = true;
            continue;
        }
        if (c >= cur->n) continue;
        /* the whole statement, through the end of an else branch */
        unsigned end = strncmp(skip_space(cur->line[c]), "} else", 6) == 0 ? else_end(cur, c) : c;
        Lines cand;
        if (!lines_edit(cur, i, end, cur->n, NULL, &cand)) {
            R->oom = true;
            break;
        }
        if (try_lines(R, cur, &cand)) {
            progress = true;
            i--;
            continue;
        }
        /* or only its braces: the body runs once, unconditionally */
        if (end == c && strncmp(h, "fn ", 3) != 0) {
            Lines a, b;
            if (!lines_edit(cur, c, c, cur->n, NULL, &a)) {
                R->oom = true;
                break;
            }
            bool ok = lines_edit(&a, i, i, a.n, NULL, &b);
            lines_free(&a);
            if (!ok) {
                R->oom = true;
                break;
            }
            if (try_lines(R, cur, &b)) progress = true;
        }
    }
    return progress;
}

/* Whether line i may be deleted on its own (not structure the passes above handle). */
static bool deletable(const char *line)
{
    const char *s = skip_space(line);
    if (!*s || s[0] == '{' || s[0] == '}' || ends_with_brace(s)) return false;
    return strncmp(s, "const ", 6) != 0 && strncmp(s, "kernel", 6) != 0 && strncmp(s, "grid(", 5) != 0 && strncmp(s, "//", 2) != 0 &&
           strncmp(s, "let ti", 6) != 0 && strncmp(s, "let tj", 6) != 0;
}

static bool pass_lines(Reducer *R, Lines *cur)
{
    bool progress = false;
    for (unsigned chunk = cur->n / 2 > 0 ? cur->n / 2 : 1; chunk >= 1 && !R->oom; chunk /= 2) {
        for (unsigned i = 0; i + chunk <= cur->n && !R->oom;) {
            bool all = true;
            for (unsigned k = i; k < i + chunk && all; k++) all = deletable(cur->line[k]);
            if (!all) {
                i++;
                continue;
            }
            Lines cand;
            if (!lines_edit(cur, i, i + chunk - 1, cur->n, NULL, &cand)) {
                R->oom = true;
                break;
            }
            if (try_lines(R, cur, &cand)) progress = true;
            else i += chunk;
        }
        if (chunk == 1) break;
    }
    return progress;
}

/* The end of the argument starting at p (a ',' or ')' at depth 0), or NULL. */
static const char *arg_end(const char *p)
{
    int depth = 0;
    for (; *p; p++) {
        if (*p == '(' || *p == '<' || *p == '[') depth++;
        else if ((*p == ')' || *p == '>' || *p == ']') && depth > 0) depth--;
        else if ((*p == ',' || *p == ')') && depth == 0) return p;
    }
    return NULL;
}

/* The kernel's parameters one by one: a parameter nothing uses any more goes. */
static bool pass_params(Reducer *R, Lines *cur)
{
    bool progress = false;
    for (unsigned i = 0; i < cur->n && !R->oom; i++) {
        const char *open = strncmp(cur->line[i], "kernel ", 7) == 0 ? strchr(cur->line[i], '(') : NULL;
        if (!open) continue;
        for (const char *a = open + 1;;) {
            const char *e = arg_end(a);
            if (!e) break;
            /* the line without [a, e) and its separator */
            size_t pre = (size_t)(a - cur->line[i]);
            const char *rest = *e == ',' ? e + 2 : e;
            size_t cut_pre = *e == ')' && pre >= 2 && cur->line[i][pre - 2] == ',' ? pre - 2 : pre;
            char *repl = malloc(strlen(cur->line[i]) + 1);
            if (!repl) {
                R->oom = true;
                return progress;
            }
            snprintf(repl, strlen(cur->line[i]) + 1, "%.*s%s", (int)cut_pre, cur->line[i], rest);
            bool kept = try_line(R, cur, i, repl);
            free(repl);
            if (R->oom) return progress;
            if (kept) {
                progress = true;
                open = strchr(cur->line[i], '(');
                a = cut_pre == pre ? cur->line[i] + pre : cur->line[i] + cut_pre;   /* the next parameter moved here */
                if (*a == ')') break;
                continue;
            }
            if (*e == ')') break;
            a = e + 2;
        }
    }
    return progress;
}

/* A call replaced by one of its arguments (which must have the call's type to check). */
static bool pass_calls(Reducer *R, Lines *cur)
{
    bool progress = false;
    for (unsigned i = 0; i < cur->n && !R->oom; i++) {
        const char *l = cur->line[i];
        if (!deletable(l) && strncmp(skip_space(l), "store(", 6) != 0) continue;
        for (const char *p = strchr(l, '('); p && !R->oom; p = strchr(p + 1, '(')) {
            /* the callee's name must end right before the '(' */
            if (p == l || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9'))) continue;
            const char *name = p;
            while (name > l && (name[-1] == '_' || (name[-1] >= 'a' && name[-1] <= 'z') || (name[-1] >= '0' && name[-1] <= '9'))) name--;
            if (strncmp(name, "load", 4) == 0 || strncmp(name, "store", 5) == 0 || strncmp(name, "mma_", 4) == 0) continue;
            const char *end = NULL;
            bool replaced = false;
            for (const char *a = p + 1; !replaced;) {
                const char *e = arg_end(a);
                if (!e) break;
                const char *close = e;
                while (*close == ',') close = arg_end(close + 1);
                end = close;
                if (!end) break;
                size_t len = strlen(l) + 1;
                char *repl = malloc(len);
                if (!repl) {
                    R->oom = true;
                    return progress;
                }
                snprintf(repl, len, "%.*s%.*s%s", (int)(name - l), l, (int)(e - a), a, end + 1);
                bool kept = try_line(R, cur, i, repl);
                free(repl);
                if (R->oom) return progress;
                if (kept) {
                    progress = replaced = true;
                    break;
                }
                if (*e == ')') break;
                a = e + 1;
                while (*a == ' ') a++;
            }
            if (replaced) {
                l = cur->line[i];
                p = l;   /* start over on the shorter line */
            }
        }
    }
    return progress;
}

int dt_reduce(const DtReduceSpec *s, char **text, char *sizes, size_t sizes_len)
{
    Reducer R = { .s = s };
    snprintf(R.sizes, sizeof R.sizes, "%s", sizes);
    Lines cur;
    if (!lines_split(*text, &cur)) {
        lines_free(&cur);
        return -1;
    }
    for (unsigned round = 0; round < 8 && !R.oom; round++) {
        bool p = false;
        p |= pass_sizes(&R, &cur);
        p |= pass_tiles(&R, &cur);
        p |= pass_blocks(&R, &cur);
        p |= pass_lines(&R, &cur);
        p |= pass_params(&R, &cur);
        p |= pass_calls(&R, &cur);
        if (!p || (s->max_trials && R.trials >= s->max_trials)) break;
    }
    char *out = lines_join(&cur);
    lines_free(&cur);
    if (!out || R.oom) {
        free(out);
        return -1;
    }
    free(*text);
    *text = out;
    snprintf(sizes, sizes_len, "%s", R.sizes);
    return (int)R.trials;
}
