/* safetensors.c — tk_load_safetensors / tk_safetensors_get / tk_save_safetensors.
 *
 * The format: an 8-byte little-endian header length N, N bytes of JSON
 *   {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...,
 *    "__metadata__": {"key": "value", ...}}
 * (padded with spaces), then the data; offsets count from the data's start.
 *
 * Loading maps the whole file read-only once and checks the whole header up
 * front, so tk_safetensors_get only makes a view: the tensor's storage is the
 * mapping (tk_from_blob, read-only) and holds a reference on it, so the
 * mapping outlives the handle for as long as any tensor needs it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_map.h"
#include "internal.h"
#include "json_min.h"
#include "tk/io.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "safetensors.c maps little-endian data as tensors: port the byte swapping first"
#endif

/* The reference implementation's limit: a header beyond it is not a header. */
#define MAX_HEADER_BYTES 100000000u

/* safetensors dtypes: ours, and the valid ones we cannot hold (dtype -1),
 * which stay in the file's index so the rest of it is readable. */
static const struct {
    const char *name;
    int dtype;
    size_t size;
} st_dtypes[] = {
    { "F32", TK_DTYPE_F32, 4 },  { "F64", TK_DTYPE_F64, 8 },   { "F16", TK_DTYPE_F16, 2 },  { "BF16", TK_DTYPE_BF16, 2 },
    { "I8", TK_DTYPE_I8, 1 },    { "I16", TK_DTYPE_I16, 2 },   { "I32", TK_DTYPE_I32, 4 },  { "I64", TK_DTYPE_I64, 8 },
    { "U8", TK_DTYPE_U8, 1 },    { "BOOL", TK_DTYPE_BOOL, 1 }, { "U16", TK_DTYPE_U16, 2 }, { "U32", TK_DTYPE_U32, 4 },
    { "U64", TK_DTYPE_U64, 8 },  { "F8_E4M3", TK_DTYPE_F8E4M3FN, 1 }, { "F8_E5M2", TK_DTYPE_F8E5M2, 1 },
    { "F8_E8M0", TK_DTYPE_F8E8M0, 1 },   /* PyTorch's float8_e4m3fn, float8_e5m2, float8_e8m0fnu */
    { "C64", -1, 8 },
};
#define NUM_ST_DTYPES (sizeof st_dtypes / sizeof st_dtypes[0])

static const char *st_name_of(tk_dtype d)
{
    for (size_t i = 0; i < NUM_ST_DTYPES; i++)
        if (st_dtypes[i].dtype == (int)d) return st_dtypes[i].name;
    return "?";
}

/* ------------------------------------------------------------ the handle */

typedef struct {
    char *name;
    size_t type;              /* index into st_dtypes */
    int ndim;                 /* may exceed TK_MAX_DIMS: then only get() refuses it */
    int64_t shape[TK_MAX_DIMS];
    uint64_t begin, end;      /* from the data's start */
} Entry;

struct tk_safetensors {
    TkrFileMap *map;
    char *path;
    const uint8_t *data;      /* the data section in the mapping */
    size_t n;
    Entry *entries;           /* the header's order */
    size_t *by_name;          /* indices sorted by name, for lookups */
    size_t n_meta;
    char **meta_keys, **meta_values;
};

void tk_safetensors_free(tk_safetensors *f)
{
    if (!f) return;
    for (size_t i = 0; i < f->n; i++) free(f->entries[i].name);
    for (size_t i = 0; i < f->n_meta; i++) {
        free(f->meta_keys[i]);
        free(f->meta_values[i]);
    }
    free(f->entries);
    free(f->by_name);
    free(f->meta_keys);
    free(f->meta_values);
    free(f->path);
    tkr_file_map_release(f->map);
    free(f);
}

size_t tk_safetensors_count(const tk_safetensors *f) { return f ? f->n : 0; }
const char *tk_safetensors_name(const tk_safetensors *f, size_t i) { return f && i < f->n ? f->entries[i].name : NULL; }
size_t tk_safetensors_metadata_count(const tk_safetensors *f) { return f ? f->n_meta : 0; }
const char *tk_safetensors_metadata_key(const tk_safetensors *f, size_t i) { return f && i < f->n_meta ? f->meta_keys[i] : NULL; }

const char *tk_safetensors_metadata(const tk_safetensors *f, const char *key)
{
    if (!f || !key) return NULL;
    for (size_t i = 0; i < f->n_meta; i++)
        if (strcmp(f->meta_keys[i], key) == 0) return f->meta_values[i];
    return NULL;
}

/* ------------------------------------------------------------ reading the header */

typedef struct {
    tk_context *ctx;
    const char *path;
} Where;

#define OP "tk_load_safetensors"

static tk_status bad(const Where *w, const char *what, const char *tensor)
{
    if (tensor)
        return tkr_error(w->ctx, TK_ERR_IO, OP ": '%s' is not a valid safetensors file: tensor '%s': %s", w->path, tensor, what);
    return tkr_error(w->ctx, TK_ERR_IO, OP ": '%s' is not a valid safetensors file: %s", w->path, what);
}

static tk_status read_metadata(const Where *w, tk_safetensors *f, const TkrJson *meta)
{
    if (meta->kind != TKR_JSON_OBJECT) return bad(w, "__metadata__ is not an object", NULL);
    if (meta->count && (!(f->meta_keys = calloc(meta->count, sizeof(char *))) ||
                        !(f->meta_values = calloc(meta->count, sizeof(char *)))))
        return tkr_error(w->ctx, TK_ERR_OUT_OF_MEMORY, OP ": '%s': out of memory", w->path);
    for (size_t i = 0; i < meta->count; i++) {
        if (meta->items[i].kind != TKR_JSON_STRING) return bad(w, "a __metadata__ value is not a string", NULL);
        f->meta_keys[i] = strdup(meta->keys[i]);
        f->meta_values[i] = strdup(meta->items[i].string);
        f->n_meta = i + 1;
        if (!f->meta_keys[i] || !f->meta_values[i]) return tkr_error(w->ctx, TK_ERR_OUT_OF_MEMORY, OP ": '%s': out of memory", w->path);
    }
    return TK_OK;
}

/* A non-negative integer array; its length into *n (at most max kept). */
static bool int_array(const TkrJson *a, int64_t *vals, size_t max, size_t *n)
{
    if (!a || a->kind != TKR_JSON_ARRAY) return false;
    for (size_t i = 0; i < a->count; i++) {
        if (a->items[i].kind != TKR_JSON_NUMBER || !a->items[i].is_int || a->items[i].integer < 0) return false;
        if (i < max) vals[i] = a->items[i].integer;
    }
    *n = a->count;
    return true;
}

static tk_status read_entry(const Where *w, const char *name, const TkrJson *v, uint64_t data_len, Entry *e)
{
    if (v->kind != TKR_JSON_OBJECT) return bad(w, "its value is not an object", name);
    const TkrJson *dt = tkr_json_get(v, "dtype"), *shape = tkr_json_get(v, "shape"), *offs = tkr_json_get(v, "data_offsets");
    if (!dt || dt->kind != TKR_JSON_STRING) return bad(w, "\"dtype\" is missing or not a string", name);
    size_t k = 0;
    while (k < NUM_ST_DTYPES && strcmp(st_dtypes[k].name, dt->string) != 0) k++;
    if (k == NUM_ST_DTYPES) {
        return tkr_error(w->ctx, TK_ERR_IO, OP ": '%s': tensor '%s' has unknown dtype \"%.40s\" (F32 F64 F16 BF16 I8 I16 I32 I64 U8 BOOL "
                         "are read)", w->path, name, dt->string);
    }
    e->type = k;
    int64_t dims[TK_MAX_DIMS], off[2];
    size_t nd, no;
    if (!int_array(shape, dims, TK_MAX_DIMS, &nd)) return bad(w, "\"shape\" is missing or not an array of non-negative integers", name);
    if (!int_array(offs, off, 2, &no) || no != 2)
        return bad(w, "\"data_offsets\" is missing or not two non-negative integers", name);
    if (nd > 64) return bad(w, "\"shape\" has more than 64 dims", name);
    e->ndim = (int)nd;
    /* the element count, over every dim even beyond what a tensor holds */
    uint64_t numel = 1;
    for (size_t d = 0; d < nd; d++) {
        uint64_t s = (uint64_t)shape->items[d].integer;
        if (d < TK_MAX_DIMS) e->shape[d] = (int64_t)s;
        if (__builtin_mul_overflow(numel, s, &numel) || numel > (uint64_t)INT64_MAX / 16)
            return bad(w, "the shape's element count overflows", name);
    }
    e->begin = (uint64_t)off[0];
    e->end = (uint64_t)off[1];
    if (e->begin > e->end) return bad(w, "data_offsets end before they begin", name);
    if (e->end > data_len) {
        return tkr_error(w->ctx, TK_ERR_IO, OP ": '%s': tensor '%s': data_offsets [%llu, %llu] run past the end of the data (%llu bytes)",
                         w->path, name, (unsigned long long)e->begin, (unsigned long long)e->end, (unsigned long long)data_len);
    }
    uint64_t need = numel * st_dtypes[k].size;
    if (e->end - e->begin != need) {
        char shp[160];
        tkr_shape_str(e->ndim < TK_MAX_DIMS ? e->ndim : TK_MAX_DIMS, e->shape, shp, sizeof shp);
        return tkr_error(w->ctx, TK_ERR_IO, OP ": '%s': tensor '%s': shape %s%s of %s needs %llu bytes, data_offsets give %llu", w->path,
                         name, shp, e->ndim > TK_MAX_DIMS ? " (and more dims)" : "", st_dtypes[k].name,
                         (unsigned long long)need, (unsigned long long)(e->end - e->begin));
    }
    return TK_OK;
}

/* qsort has no context argument: the array being sorted, per thread (each
 * thread may load with its own context). */
static _Thread_local const Entry *sort_entries;

static int by_name(const void *a, const void *b)
{
    return strcmp(sort_entries[*(const size_t *)a].name, sort_entries[*(const size_t *)b].name);
}

static int by_begin(const void *a, const void *b)
{
    const Entry *x = &sort_entries[*(const size_t *)a], *y = &sort_entries[*(const size_t *)b];
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Every name once; no two tensors' bytes overlap (empty tensors take none). */
static tk_status check_layout(const Where *w, tk_safetensors *f)
{
    sort_entries = f->entries;
    for (size_t i = 0; i < f->n; i++) f->by_name[i] = i;
    qsort(f->by_name, f->n, sizeof *f->by_name, by_name);
    for (size_t i = 1; i < f->n; i++)
        if (strcmp(f->entries[f->by_name[i]].name, f->entries[f->by_name[i - 1]].name) == 0)
            return bad(w, "the name appears twice", f->entries[f->by_name[i]].name);
    size_t *order = malloc((f->n ? f->n : 1) * sizeof *order);
    if (!order) return tkr_error(w->ctx, TK_ERR_OUT_OF_MEMORY, OP ": '%s': out of memory", w->path);
    size_t m = 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->entries[i].end > f->entries[i].begin) order[m++] = i;
    qsort(order, m, sizeof *order, by_begin);
    tk_status s = TK_OK;
    for (size_t i = 1; i < m && !s; i++) {
        const Entry *prev = &f->entries[order[i - 1]], *cur = &f->entries[order[i]];
        if (cur->begin < prev->end)
            s = tkr_error(w->ctx, TK_ERR_IO, OP ": '%s': tensors '%s' [%llu, %llu] and '%s' [%llu, %llu] overlap", w->path, prev->name,
                          (unsigned long long)prev->begin, (unsigned long long)prev->end, cur->name,
                          (unsigned long long)cur->begin, (unsigned long long)cur->end);
    }
    free(order);
    return s;
}

static tk_status read_header(const Where *w, tk_safetensors *f, const char *text, size_t len, uint64_t data_len)
{
    if (len == 0 || text[0] != '{') return bad(w, "the header does not start with '{'", NULL);
    char err[200];
    TkrJson *root = tkr_json_parse(text, len, err, sizeof err);
    if (!root) {
        return tkr_error(w->ctx, TK_ERR_IO, OP ": '%s' is not a valid safetensors file: the JSON header: %s", w->path, err);
    }
    tk_status s = TK_OK;
    size_t tensors = root->count;
    if (tkr_json_get(root, "__metadata__")) tensors--;
    f->entries = calloc(tensors ? tensors : 1, sizeof *f->entries);
    f->by_name = calloc(tensors ? tensors : 1, sizeof *f->by_name);
    if (!f->entries || !f->by_name) s = tkr_error(w->ctx, TK_ERR_OUT_OF_MEMORY, OP ": '%s': out of memory", w->path);
    bool seen_meta = false;
    for (size_t i = 0; i < root->count && !s; i++) {
        const char *key = root->keys[i];
        if (strcmp(key, "__metadata__") == 0) {
            if (seen_meta) s = bad(w, "__metadata__ appears twice", NULL);
            else s = read_metadata(w, f, &root->items[i]);
            seen_meta = true;
            continue;
        }
        Entry *e = &f->entries[f->n];
        if (!(e->name = strdup(key))) s = tkr_error(w->ctx, TK_ERR_OUT_OF_MEMORY, OP ": '%s': out of memory", w->path);
        else {
            f->n++;
            s = read_entry(w, key, &root->items[i], data_len, e);
        }
    }
    tkr_json_free(root);
    return s ? s : check_layout(w, f);
}

tk_status tk_load_safetensors(tk_context *ctx, const char *path, tk_safetensors **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!path) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, OP ": path is NULL");
    Where w = { ctx, path };
    TkrFileMap *m;
    tk_status s = tkr_file_map(ctx, OP, path, &m);
    if (s) return s;
    uint64_t size = m->len;
    if (size < 8) {
        tkr_file_map_release(m);
        return tkr_error(ctx, TK_ERR_IO, OP ": '%s' is not a valid safetensors file: %llu bytes, too short for the header length",
                         path, (unsigned long long)size);
    }
    tk_safetensors *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        tkr_file_map_release(m);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, OP ": out of memory");
    }
    f->map = m;
    const uint8_t *bytes = m->data;
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--) hlen = hlen << 8 | bytes[i];
    if (hlen > size - 8 || hlen > MAX_HEADER_BYTES)
        s = tkr_error(ctx, TK_ERR_IO, OP ": '%s' is not a valid safetensors file: header length %llu does not fit the file (%llu bytes)",
                      path, (unsigned long long)hlen, (unsigned long long)size);
    else {
        f->data = bytes + 8 + hlen;
        s = read_header(&w, f, (const char *)bytes + 8, (size_t)hlen, size - 8 - hlen);
    }
    if (s) {
        tk_safetensors_free(f);
        return s;
    }
    *out = f;
    return tkr_ok(ctx);
}

#undef OP

/* ------------------------------------------------------------ tensors */

tk_status tk_safetensors_get(tk_context *ctx, const tk_safetensors *f, const char *name, tk_tensor **out)
{
    const char *op = "tk_safetensors_get";
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!f || !name) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: %s is NULL", op, f ? "name" : "file");
    if (!ctx->device->host_ops) {   /* a view of the mapped file, copied to the GPU */
        tk_tensor *h = NULL;
        return tkr_moved_from_host(ctx, tk_safetensors_get(ctx->host, f, name, &h), &h, out);
    }
    const Entry *e = NULL;
    for (size_t lo = 0, hi = f->n; lo < hi && !e;) {   /* binary search over the sorted names */
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, f->entries[f->by_name[mid]].name);
        if (c == 0) e = &f->entries[f->by_name[mid]];
        else if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    if (!e) return tkr_error(ctx, TK_ERR_NOT_FOUND, "%s: '%s' has no tensor named '%s'", op, f->path, name);
    if (st_dtypes[e->type].dtype < 0)
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "%s: tensor '%s' of '%s' has dtype %s; supported are F32 F64 F16 BF16 I8 I16 I32 I64 U8 U16 U32 U64 BOOL F8_E4M3 F8_E5M2 F8_E8M0",
                         op, name, f->path, st_dtypes[e->type].name);
    if (e->ndim > TK_MAX_DIMS)
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "%s: tensor '%s' of '%s' has %d dims (a tensor has at most %d)", op, name, f->path,
                         e->ndim, TK_MAX_DIMS);
    tk_dtype dtype = (tk_dtype)st_dtypes[e->type].dtype;
    const uint8_t *p = f->data + e->begin;
    if (dtype == TK_DTYPE_BOOL)   /* a bool byte other than 0 or 1 is no bool our ops handle */
        for (uint64_t i = 0; i < e->end - e->begin; i++)
            if (p[i] > 1)
                return tkr_error(ctx, TK_ERR_IO, "%s: tensor '%s' of '%s': BOOL element %llu is %u, not 0 or 1", op, name, f->path,
                                 (unsigned long long)i, p[i]);
    if ((uintptr_t)p % st_dtypes[e->type].size != 0)   /* misaligned elements: a copy our loops may read as typed */
        return tk_from_data(ctx, p, dtype, e->ndim, e->shape, out);
    return tkr_file_map_tensor(ctx, f->map, p, dtype, e->ndim, e->shape, out);
}

/* ------------------------------------------------------------ writing */

typedef struct {
    char *data;
    size_t len, cap;
    bool failed;
} Text;

static void text_put(Text *t, const char *s, size_t n)
{
    if (t->failed) return;
    if (t->cap - t->len < n + 1) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap - t->len < n + 1) cap *= 2;
        char *d = realloc(t->data, cap);
        if (!d) {
            t->failed = true;
            return;
        }
        t->data = d;
        t->cap = cap;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

static void text_printf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_printf(Text *t, const char *fmt, ...)
{
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0) text_put(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* A JSON string literal: quotes, backslashes and control characters escaped. */
static void text_json_string(Text *t, const char *s)
{
    text_put(t, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char esc[2] = { '\\', (char)c };
            text_put(t, esc, 2);
        } else if (c < 0x20) {
            text_printf(t, "\\u%04x", c);
        } else {
            text_put(t, (const char *)&c, 1);
        }
    }
    text_put(t, "\"", 1);
}

static _Thread_local const char *const *cmp_names;

static int name_index_cmp(const void *a, const void *b)
{
    return strcmp(cmp_names[*(const size_t *)a], cmp_names[*(const size_t *)b]);
}

/* Validates the arguments: every tensor and name given, names unique. */
static tk_status check_save_args(tk_context *ctx, const char *path, const char *const *names, const tk_tensor *const *tensors,
                                 size_t n)
{
    const char *op = "tk_save_safetensors";
    if (!path) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: path is NULL", op);
    if (n && (!names || !tensors)) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: %s is NULL for %zu tensors", op, names ? "tensors" : "names", n);
    for (size_t i = 0; i < n; i++) {
        char arg[32];
        snprintf(arg, sizeof arg, "tensors[%zu]", i);
        tk_status s = tkr_check_arg(ctx, op, arg, tensors[i]);
        if (s) return s;
        if (!strcmp(st_name_of(tensors[i]->dtype), "?"))   /* the low-precision types: not written (yet) */
            return tkr_error(ctx, TK_ERR_UNSUPPORTED, "%s: %s is %s, which this writer does not store: convert it first", op, arg,
                             tk_dtype_name(tensors[i]->dtype));
        if (!names[i] || !names[i][0] || strcmp(names[i], "__metadata__") == 0)
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: names[%zu] is %s%s%s", op, i, names[i] ? "\"" : "NULL",
                             names[i] ? names[i] : "", names[i] ? "\" (a tensor's name must be non-empty and not __metadata__)" : "");
    }
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    if (!idx) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    for (size_t i = 0; i < n; i++) idx[i] = i;
    cmp_names = names;
    qsort(idx, n, sizeof *idx, name_index_cmp);
    tk_status s = TK_OK;
    for (size_t i = 1; i < n && !s; i++)
        if (strcmp(names[idx[i]], names[idx[i - 1]]) == 0)
            s = tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: the name \"%s\" is given twice (names[%zu] and names[%zu])", op,
                          names[idx[i]], idx[i - 1] < idx[i] ? idx[i - 1] : idx[i], idx[i - 1] < idx[i] ? idx[i] : idx[i - 1]);
    free(idx);
    return s;
}

tk_status tk_save_safetensors(tk_context *ctx, const char *path, const char *const *names, const tk_tensor *const *tensors, size_t n)
{
    const char *op = "tk_save_safetensors";
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    tk_status s = check_save_args(ctx, path, names, tensors, n);
    if (s) return s;
    /* the layout: largest elements first, so every tensor stays aligned with no gaps */
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    size_t m = 0;
    for (size_t size = 8; size >= 1; size /= 2)
        for (size_t i = 0; i < n; i++)
            if (tk_dtype_size(tensors[i]->dtype) == size) order[m++] = i;
    Text h = { 0 };
    text_put(&h, "{", 1);
    uint64_t offset = 0;
    for (size_t k = 0; k < n; k++) {
        const tk_tensor *t = tensors[order[k]];
        uint64_t bytes = (uint64_t)tk_tensor_numel(t) * tk_dtype_size(t->dtype);
        if (k) text_put(&h, ",", 1);
        text_json_string(&h, names[order[k]]);
        text_printf(&h, ":{\"dtype\":\"%s\",\"shape\":[", st_name_of(t->dtype));
        for (int d = 0; d < t->ndim; d++) text_printf(&h, "%s%lld", d ? "," : "", (long long)t->shape[d]);
        text_printf(&h, "],\"data_offsets\":[%llu,%llu]}", (unsigned long long)offset, (unsigned long long)(offset + bytes));
        offset += bytes;
    }
    text_put(&h, "}", 1);
    while (!h.failed && h.len % 8) text_put(&h, " ", 1);
    if (h.failed) {
        free(h.data);
        free(order);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: out of memory for the header", op);
    }
    /* Written beside the target and renamed over it: a file being replaced
     * may be mapped by tensors taken from it, and must not change under them. */
    static atomic_uint serial;
    size_t tmp_len = strlen(path) + 48;
    char *tmp = malloc(tmp_len);
    int fd = -1;
    for (int tries = 0; tmp && fd < 0 && tries < 16; tries++) {
        snprintf(tmp, tmp_len, "%s.tmp.%ld.%u", path, (long)getpid(), atomic_fetch_add(&serial, 1));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);   /* the umask applies, as for fopen */
        if (fd < 0 && errno != EEXIST) break;
    }
    FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!fp) {
        s = tkr_error(ctx, TK_ERR_IO, "%s: cannot write beside '%s': %s", op, path, tmp ? strerror(errno) : "out of memory");
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(tmp);
        free(h.data);
        free(order);
        return s;
    }
    uint8_t len8[8];
    for (int i = 0; i < 8; i++) len8[i] = (uint8_t)((uint64_t)h.len >> (8 * i));
    bool ok = fwrite(len8, 1, 8, fp) == 8 && fwrite(h.data, 1, h.len, fp) == h.len;
    for (size_t k = 0; k < n && ok && !s; k++) {
        tk_tensor *c;
        if ((s = tkr_contiguous(ctx, tensors[order[k]], &c))) break;
        size_t bytes = (size_t)tk_tensor_numel(c) * tk_dtype_size(c->dtype);
        ok = !bytes || fwrite(tkr_ptr(c), 1, bytes, fp) == bytes;
        tk_tensor_release(c);
    }
    if (fclose(fp) != 0) ok = false;
    if (!s && !ok) s = tkr_error(ctx, TK_ERR_IO, "%s: writing '%s' failed: %s", op, path, strerror(errno));
    if (!s && rename(tmp, path) != 0) s = tkr_error(ctx, TK_ERR_IO, "%s: cannot replace '%s': %s", op, path, strerror(errno));
    if (s) unlink(tmp);
    free(tmp);
    free(h.data);
    free(order);
    return s ? s : tkr_ok(ctx);
}
