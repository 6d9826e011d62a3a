/* fake_cuda_ptx.c — the fake driver's PTX reader (fake_cuda_ptx.h): just
 * enough of the text to find the entries, their parameter sizes and their
 * thread-count directives, and to refuse PTX for a newer SM than the device.
 * Kernels never run, so instructions are skipped as words. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "fake_cuda_ptx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
           c == '%';
}

/* The next token at *p: a word (directive, name or number), a string, or one
 * other character; comments are skipped. Its length; 0 at the end. */
static size_t token(const char **p, const char **tok)
{
    const char *s = *p;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v') s++;
        if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n') s++;
        } else if (s[0] == '/' && s[1] == '*') {
            const char *e = strstr(s + 2, "*/");
            s = e ? e + 2 : s + strlen(s);
        } else {
            break;
        }
    }
    *tok = s;
    size_t n = 0;
    if (*s == '"') {
        for (n = 1; s[n] && s[n] != '"' && s[n] != '\n'; n++) {}
        if (s[n] == '"') n++;
    } else {
        while (word_char(s[n])) n++;
        if (n == 0 && *s) n = 1;
    }
    *p = s + n;
    return n;
}

static int is(const char *tok, size_t n, const char *word)
{
    return n == strlen(word) && memcmp(tok, word, n) == 0;
}

/* A decimal token's value into *v (at most 2^31): 0, or -1. */
static int number(const char *tok, size_t n, unsigned *v)
{
    unsigned long long x = 0;
    if (n == 0 || n > 10) return -1;
    for (size_t i = 0; i < n; i++) {
        if (tok[i] < '0' || tok[i] > '9') return -1;
        x = x * 10 + (unsigned)(tok[i] - '0');
    }
    if (x > 0x80000000ull) return -1;
    *v = (unsigned)x;
    return 0;
}

static const struct {
    const char *name;
    int size, pointer;
} param_types[] = {
    { ".u8", 1, 0 },   { ".s8", 1, 0 },      { ".b8", 1, 0 },       { ".u16", 2, 0 }, { ".s16", 2, 0 }, { ".b16", 2, 0 },
    { ".f16", 2, 0 },  { ".bf16", 2, 0 },    { ".u32", 4, 0 },      { ".s32", 4, 0 }, { ".b32", 4, 0 }, { ".f32", 4, 0 },
    { ".f16x2", 4, 0 }, { ".bf16x2", 4, 0 }, { ".u64", 8, 1 },      { ".s64", 8, 0 }, { ".b64", 8, 1 }, { ".f64", 8, 0 },
};

void fake_jit_error(JitLog *L, const char *fmt, ...)
{
    if (!L->log || L->logsize == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->log, L->logsize, fmt, ap);
    va_end(ap);
    if (L->logsize_out) *L->logsize_out = (void *)(uintptr_t)(strlen(L->log) + 1);
}

/* Up to three numbers after a .reqntid/.maxntid, into d (absent ones are 1). */
static int thread_counts(const char **p, unsigned d[3])
{
    const char *tok, *save;
    size_t n;
    d[0] = d[1] = d[2] = 1;
    for (int k = 0; k < 3; k++) {
        n = token(p, &tok);
        if (number(tok, n, &d[k]) != 0 || d[k] == 0) return -1;
        save = *p;
        n = token(p, &tok);
        if (!is(tok, n, ",")) {
            *p = save;
            return 0;
        }
    }
    return 0;
}

/* The parameter list of entry e, after its '(' up to the ')', then the
 * directives before its body. 0, or -1 with the reason in L. */
static int parse_entry(const char **p, Entry *e, JitLog *L)
{
    const char *tok;
    size_t n = token(p, &tok);
    if (is(tok, n, "(")) {
        for (;;) {
            n = token(p, &tok);
            if (e->nparams == 0 && is(tok, n, ")")) break;
            if (!is(tok, n, ".param")) {
                fake_jit_error(L, "fake driver: kernel %s: expected .param, found '%.*s'", e->name, (int)n, tok);
                return -1;
            }
            if (e->nparams == TK_FAKE_CUDA_MAX_PARAMS) {
                fake_jit_error(L, "fake driver: kernel %s has more than %d parameters, the fake's limit", e->name,
                          TK_FAKE_CUDA_MAX_PARAMS);
                return -1;
            }
            int size = 0, pointer = 0;
            while ((n = token(p, &tok)) > 0 && tok[0] == '.') {
                int known = 0;
                for (size_t t = 0; t < sizeof param_types / sizeof param_types[0]; t++)
                    if (is(tok, n, param_types[t].name)) {
                        size = param_types[t].size;
                        pointer = param_types[t].pointer;
                        known = 1;
                    }
                /* .align N, also spelled .ptr.global.align N: skip the N */
                unsigned align;
                if (!known && n >= 6 && memcmp(tok + n - 6, ".align", 6) == 0 &&
                    (n = token(p, &tok), number(tok, n, &align) != 0)) {
                    fake_jit_error(L, "fake driver: kernel %s: .align without a number", e->name);
                    return -1;
                }
            }
            if (size == 0 || n == 0 || !word_char(tok[0])) {
                fake_jit_error(L, "fake driver: kernel %s: parameter %d has no type the fake knows", e->name, e->nparams);
                return -1;
            }
            n = token(p, &tok);   /* past the name */
            if (is(tok, n, "[")) {
                unsigned count;
                n = token(p, &tok);
                if (number(tok, n, &count) != 0 || count == 0 || count > 4096 || (n = token(p, &tok), !is(tok, n, "]"))) {
                    fake_jit_error(L, "fake driver: kernel %s: parameter %d: a bad array size", e->name, e->nparams);
                    return -1;
                }
                size *= (int)count;
                pointer = 0;
                n = token(p, &tok);
            }
            e->size[e->nparams] = size;
            e->pointer[e->nparams] = (unsigned char)pointer;
            e->nparams++;
            if (is(tok, n, ")")) break;
            if (!is(tok, n, ",")) {
                fake_jit_error(L, "fake driver: kernel %s: expected ',' or ')' after parameter %d", e->name, e->nparams - 1);
                return -1;
            }
        }
        n = token(p, &tok);
    }
    /* performance directives, up to the body (or ';' of a declaration) */
    for (; n > 0 && !is(tok, n, "{") && !is(tok, n, ";"); n = token(p, &tok)) {
        unsigned *d = is(tok, n, ".reqntid") ? e->reqntid : is(tok, n, ".maxntid") ? e->maxntid : NULL;
        if (d && thread_counts(p, d) != 0) {
            fake_jit_error(L, "fake driver: kernel %s: a bad %.*s", e->name, (int)n, tok);
            return -1;
        }
    }
    return 0;
}

FakePtxStatus fake_ptx_read(const char *ptx, int device_sm, Entry **entries, int *nentries, JitLog *L)
{
    const char *p = ptx, *tok;
    size_t n;
    int version = 0, target = 0, entries_cap = 0;
    while ((n = token(&p, &tok)) > 0) {
        if (is(tok, n, ".version")) {
            version = 1;
        } else if (is(tok, n, ".target")) {
            target = 1;
            /* sm_NN must not be newer than the device; sm_NNa only runs on sm_NN */
            n = token(&p, &tok);
            unsigned sm;
            size_t digits = 3;
            while (digits < n && tok[digits] >= '0' && tok[digits] <= '9') digits++;
            if (n > 3 && memcmp(tok, "sm_", 3) == 0 && number(tok + 3, digits - 3, &sm) == 0) {
                int specific = digits < n && tok[digits] == 'a';
                if ((int)sm > device_sm || (specific && (int)sm != device_sm)) {
                    fake_jit_error(L, "fake driver: .target %.*s cannot run on the device (sm_%d)", (int)n, tok, device_sm);
                    return FAKE_PTX_INVALID;
                }
            }
        } else if (is(tok, n, ".entry")) {
            n = token(&p, &tok);
            if (n == 0 || !word_char(tok[0]) || tok[0] == '.') {
                fake_jit_error(L, "fake driver: .entry without a name");
                return FAKE_PTX_INVALID;
            }
            if (*nentries == entries_cap) {
                int cap = entries_cap ? 2 * entries_cap : 8;
                Entry *t = realloc(*entries, (size_t)cap * sizeof *t);
                if (!t) return FAKE_PTX_NO_MEMORY;
                *entries = t;
                entries_cap = cap;
            }
            Entry *e = &(*entries)[*nentries];
            memset(e, 0, sizeof *e);
            if (!(e->name = malloc(n + 1))) return FAKE_PTX_NO_MEMORY;
            memcpy(e->name, tok, n);
            e->name[n] = '\0';
            (*nentries)++;
            if (parse_entry(&p, e, L) != 0) return FAKE_PTX_INVALID;
        }
    }
    if (!version || !target) {   /* the words were there, but in comments or strings */
        fake_jit_error(L, "fake driver: not PTX");
        return FAKE_PTX_INVALID;
    }
    return FAKE_PTX_OK;
}

