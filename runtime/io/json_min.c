/* json_min.c — see json_min.h. A recursive-descent parser over RFC 8259's
 * grammar and nothing more: no comments, no trailing commas, no single
 * quotes, no NaN, no leading zeros, no control characters in strings. */
#include "json_min.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *p, *start, *end;
    char *err;
    size_t errlen;
    bool failed;
} Parser;

static bool fail(Parser *ps, const char *what)
{
    if (!ps->failed) {
        ps->failed = true;
        if (ps->p >= ps->end) snprintf(ps->err, ps->errlen, "%s at the end of the text", what);
        else snprintf(ps->err, ps->errlen, "%s at byte %zu", what, (size_t)(ps->p - ps->start));
    }
    return false;
}

static void skip_ws(Parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static bool literal(Parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) return fail(ps, "invalid literal");
    ps->p += n;
    return true;
}

/* ------------------------------------------------------------ strings */

typedef struct {
    char *data;
    size_t len, cap;
} Buf;

static bool buf_put(Buf *b, const char *s, size_t n)
{
    if (b->cap - b->len < n + 1) {
        size_t cap = b->cap ? b->cap * 2 : 32;
        while (cap - b->len < n + 1) cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) return false;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return true;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xc0 | cp >> 6); out[1] = (char)(0x80 | (cp & 0x3f)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12); out[1] = (char)(0x80 | ((cp >> 6) & 0x3f)); out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18); out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* One \uXXXX escape (p after the 'u'), a surrogate pair taken whole. */
static bool unicode_escape(Parser *ps, Buf *b)
{
    if (ps->end - ps->p < 4) return fail(ps, "truncated \\u escape");
    int hi = hex4(ps->p);
    if (hi < 0) return fail(ps, "invalid \\u escape");
    ps->p += 4;
    uint32_t cp = (uint32_t)hi;
    if (hi >= 0xd800 && hi <= 0xdbff) {
        if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u') return fail(ps, "a high surrogate without its low half");
        int lo = hex4(ps->p + 2);
        if (lo < 0xdc00 || lo > 0xdfff) return fail(ps, "a high surrogate without its low half");
        ps->p += 6;
        cp = 0x10000 + (((uint32_t)hi - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
    } else if (hi >= 0xdc00 && hi <= 0xdfff) {
        return fail(ps, "a lone low surrogate");
    }
    if (cp == 0) return fail(ps, "\\u0000 in a string");
    char enc[4];
    return buf_put(b, enc, utf8_encode(cp, enc)) || fail(ps, "out of memory");
}

static char *parse_string(Parser *ps)
{
    if (ps->p >= ps->end || *ps->p != '"') {
        fail(ps, "expected a string");
        return NULL;
    }
    ps->p++;
    Buf b = { 0 };
    if (!buf_put(&b, "", 0)) {
        fail(ps, "out of memory");
        return NULL;
    }
    for (;;) {
        if (ps->p >= ps->end) {
            fail(ps, "unterminated string");
            break;
        }
        /* a run of plain characters in one copy */
        const char *run = ps->p;
        while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' && (unsigned char)*ps->p >= 0x20) ps->p++;
        if (ps->p > run && !buf_put(&b, run, (size_t)(ps->p - run))) {
            fail(ps, "out of memory");
            break;
        }
        if (ps->p >= ps->end) continue;
        char c = *ps->p;
        if (c == '"') {
            ps->p++;
            return b.data;
        }
        if ((unsigned char)c < 0x20) {
            fail(ps, "a control character in a string");
            break;
        }
        ps->p++;   /* the backslash */
        if (ps->p >= ps->end) {
            fail(ps, "unterminated escape");
            break;
        }
        char e = *ps->p++, out;
        switch (e) {
        case '"': out = '"'; break;
        case '\\': out = '\\'; break;
        case '/': out = '/'; break;
        case 'b': out = '\b'; break;
        case 'f': out = '\f'; break;
        case 'n': out = '\n'; break;
        case 'r': out = '\r'; break;
        case 't': out = '\t'; break;
        case 'u':
            if (!unicode_escape(ps, &b)) goto bad;
            continue;
        default: ps->p--; fail(ps, "invalid escape"); goto bad;
        }
        if (!buf_put(&b, &out, 1)) {
            fail(ps, "out of memory");
            break;
        }
    }
bad:
    free(b.data);
    return NULL;
}

/* ------------------------------------------------------------ values */

static bool parse_value(Parser *ps, TkrJson *v, int depth);

static bool parse_number(Parser *ps, TkrJson *v)
{
    const char *s = ps->p;
    if (ps->p < ps->end && *ps->p == '-') ps->p++;
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return fail(ps, "invalid number");
    if (*ps->p == '0' && ps->p + 1 < ps->end && ps->p[1] >= '0' && ps->p[1] <= '9') return fail(ps, "a number with a leading zero");
    bool integral = true;
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
    if (ps->p < ps->end && *ps->p == '.') {
        integral = false;
        ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return fail(ps, "a digit must follow '.'");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        integral = false;
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-')) ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return fail(ps, "a digit must follow the exponent");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
    }
    char tmp[64];
    size_t n = (size_t)(ps->p - s);
    v->kind = TKR_JSON_NUMBER;
    if (n >= sizeof tmp) {   /* too long for an exact int64 anyway */
        v->number = s[0] == '-' ? -INFINITY : INFINITY;
        return true;
    }
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    v->number = strtod(tmp, NULL);
    if (integral) {
        /* exact digits, refusing anything beyond int64 */
        bool neg = tmp[0] == '-';
        uint64_t mag = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        bool fits = true;
        for (const char *c = tmp + neg; *c && fits; c++) {
            unsigned d = (unsigned)(*c - '0');
            if (mag > (limit - d) / 10) fits = false;
            else mag = mag * 10 + d;
        }
        if (fits) {
            v->is_int = true;
            v->integer = neg ? (int64_t)(0 - mag) : (int64_t)mag;
        }
    }
    return true;
}

/* Appends one slot to a growing items/keys array. */
static TkrJson *grow(Parser *ps, TkrJson *v, size_t *cap, bool with_key)
{
    if (v->count == *cap) {
        size_t nc = *cap ? *cap * 2 : 4;
        TkrJson *items = realloc(v->items, nc * sizeof *items);
        if (!items) return fail(ps, "out of memory"), NULL;
        v->items = items;
        if (with_key) {
            char **keys = realloc(v->keys, nc * sizeof *keys);
            if (!keys) return fail(ps, "out of memory"), NULL;
            v->keys = keys;
        }
        *cap = nc;
    }
    TkrJson *slot = &v->items[v->count];
    memset(slot, 0, sizeof *slot);
    if (with_key) v->keys[v->count] = NULL;
    v->count++;
    return slot;
}

static bool parse_container(Parser *ps, TkrJson *v, int depth, bool object)
{
    v->kind = object ? TKR_JSON_OBJECT : TKR_JSON_ARRAY;
    if (depth >= TKR_JSON_MAX_DEPTH) return fail(ps, "nesting deeper than 64 levels");
    ps->p++;   /* '{' or '[' */
    char close = object ? '}' : ']';
    size_t cap = 0;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return true;
    }
    for (;;) {
        skip_ws(ps);
        TkrJson *slot = grow(ps, v, &cap, object);
        if (!slot) return false;
        if (object) {
            if (!(v->keys[v->count - 1] = parse_string(ps))) return false;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') return fail(ps, "expected ':' after a key");
            ps->p++;
            skip_ws(ps);
        }
        if (!parse_value(ps, slot, depth + 1)) return false;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            return true;
        }
        return fail(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static bool parse_value(Parser *ps, TkrJson *v, int depth)
{
    skip_ws(ps);
    if (ps->p >= ps->end) return fail(ps, "expected a value");
    switch (*ps->p) {
    case '{': return parse_container(ps, v, depth, true);
    case '[': return parse_container(ps, v, depth, false);
    case '"':
        v->kind = TKR_JSON_STRING;
        return (v->string = parse_string(ps)) != NULL;
    case 't': v->kind = TKR_JSON_BOOL; v->boolean = true; return literal(ps, "true");
    case 'f': v->kind = TKR_JSON_BOOL; return literal(ps, "false");
    case 'n': v->kind = TKR_JSON_NULL; return literal(ps, "null");
    default: return parse_number(ps, v);
    }
}

static void free_contents(TkrJson *v)
{
    for (size_t i = 0; i < v->count; i++) {
        free_contents(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
}

TkrJson *tkr_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
    Parser ps = { text, text, text + len, err, errlen, false };
    TkrJson *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (parse_value(&ps, v, 0)) {
        skip_ws(&ps);
        if (ps.p == ps.end) return v;
        fail(&ps, "unexpected text after the value");
    }
    free_contents(v);
    free(v);
    return NULL;
}

void tkr_json_free(TkrJson *v)
{
    if (!v) return;
    free_contents(v);
    free(v);
}

const TkrJson *tkr_json_get(const TkrJson *obj, const char *key)
{
    if (!obj || obj->kind != TKR_JSON_OBJECT) return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (strcmp(obj->keys[i], key) == 0) return &obj->items[i];
    return NULL;
}

const char *tkr_json_kind_name(TkrJsonKind k)
{
    switch (k) {
    case TKR_JSON_NULL: return "null";
    case TKR_JSON_BOOL: return "a boolean";
    case TKR_JSON_NUMBER: return "a number";
    case TKR_JSON_STRING: return "a string";
    case TKR_JSON_ARRAY: return "an array";
    case TKR_JSON_OBJECT: return "an object";
    }
    return "?";
}
