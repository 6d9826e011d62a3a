/* npy.c — see npy.h. The header is a Python dict literal,
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces and ended by '\n'; a small recursive-descent reader takes
 * exactly that grammar (string keys; a string, True/False or a tuple of
 * integers as values) and nothing that merely looks like it. */
#include "npy_codec.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tk/dtype.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy.c reads and writes little-endian data in place: port the byte swapping first"
#endif

enum { MAX_HEADER = 1 << 20 };   /* NumPy's own limit is 10 KiB for version 1; anything near this is not a header */

static const char MAGIC[6] = { '\x93', 'N', 'U', 'M', 'P', 'Y' };

const char *tk_npy_dtype_name(TkNpyDtype d)
{
    switch (d) {
    case TK_NPY_F32: return "<f4";
    case TK_NPY_F64: return "<f8";
    case TK_NPY_U16: return "<u2";
    case TK_NPY_F16: return "<f2";
    case TK_NPY_I8: return "|i1";
    case TK_NPY_I16: return "<i2";
    case TK_NPY_I32: return "<i4";
    case TK_NPY_I64: return "<i8";
    case TK_NPY_U8: return "|u1";
    case TK_NPY_BOOL: return "|b1";
    case TK_NPY_U32: return "<u4";
    case TK_NPY_U64: return "<u8";
    }
    return "?";
}

size_t tk_npy_dtype_size(TkNpyDtype d)
{
    switch (d) {
    case TK_NPY_F64: case TK_NPY_I64: case TK_NPY_U64: return 8;
    case TK_NPY_F32: case TK_NPY_I32: case TK_NPY_U32: return 4;
    case TK_NPY_U16: case TK_NPY_F16: case TK_NPY_I16: return 2;
    default: return 1;
    }
}

int tk_npy_is_floatlike(TkNpyDtype d) { return d == TK_NPY_F32 || d == TK_NPY_F64 || d == TK_NPY_U16 || d == TK_NPY_F16; }

void tk_npy_format_shape(const int64_t *shape, unsigned rank, char *buf, size_t len)
{
    size_t o = (size_t)snprintf(buf, len, "(");
    for (unsigned d = 0; d < rank && o < len; d++)
        o += (size_t)snprintf(buf + o, len - o, "%s%lld", d ? ", " : "", (long long)shape[d]);
    if (o < len) snprintf(buf + o, len - o, rank == 1 ? ",)" : ")");
}

/* ------------------------------------------------------------ header parsing */

typedef struct {
    const char *p, *end;
    const char *path;
    char *err;
    size_t errlen;
} Parser;

static int fail(Parser *ps, const char *what)
{
    snprintf(ps->err, ps->errlen, "%s: malformed .npy header: %s", ps->path, what);
    return -1;
}

static void skip_space(Parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static bool eat(Parser *ps, char c)
{
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == c) {
        ps->p++;
        return true;
    }
    return false;
}

/* A quoted string without escapes (NumPy never writes any in these fields). */
static int parse_string(Parser *ps, char *out, size_t outlen)
{
    skip_space(ps);
    if (ps->p >= ps->end || (*ps->p != '\'' && *ps->p != '"')) return fail(ps, "expected a quoted string");
    char q = *ps->p++;
    size_t n = 0;
    while (ps->p < ps->end && *ps->p != q) {
        if (*ps->p == '\\') return fail(ps, "escapes in strings are not supported");
        if (n + 1 >= outlen) return fail(ps, "string too long");
        out[n++] = *ps->p++;
    }
    if (ps->p >= ps->end) return fail(ps, "unterminated string");
    ps->p++;
    out[n] = '\0';
    return 0;
}

static int parse_bool(Parser *ps, bool *out)
{
    skip_space(ps);
    size_t left = (size_t)(ps->end - ps->p);
    if (left >= 4 && memcmp(ps->p, "True", 4) == 0) {
        ps->p += 4;
        *out = true;
        return 0;
    }
    if (left >= 5 && memcmp(ps->p, "False", 5) == 0) {
        ps->p += 5;
        *out = false;
        return 0;
    }
    return fail(ps, "fortran_order must be True or False");
}

static int parse_shape(Parser *ps, int64_t *shape, unsigned *rank)
{
    if (!eat(ps, '(')) return fail(ps, "shape must be a tuple");
    *rank = 0;
    for (;;) {
        if (eat(ps, ')')) return 0;
        skip_space(ps);
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return fail(ps, "shape entries must be non-negative integers");
        int64_t v = 0;
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
            if (v > (INT64_MAX - 9) / 10) return fail(ps, "a dimension is too large");
            v = v * 10 + (*ps->p++ - '0');
        }
        if (ps->p < ps->end && *ps->p == 'L') ps->p++;   /* Python 2 longs */
        if (*rank >= TK_NPY_MAX_RANK) return fail(ps, "more than 8 dimensions");
        shape[(*rank)++] = v;
        if (eat(ps, ',')) continue;
        if (eat(ps, ')')) return 0;
        return fail(ps, "expected ',' or ')' in the shape");
    }
}

static int parse_dtype(Parser *ps, const char *descr, TkNpyDtype *out)
{
    static const struct {
        const char *name;
        TkNpyDtype dtype;
    } known[] = { { "<f4", TK_NPY_F32 }, { "<f8", TK_NPY_F64 }, { "<u2", TK_NPY_U16 }, { "<f2", TK_NPY_F16 },
                  { "|i1", TK_NPY_I8 },  { "<i1", TK_NPY_I8 },  { "<i2", TK_NPY_I16 }, { "<i4", TK_NPY_I32 },
                  { "<i8", TK_NPY_I64 }, { "|u1", TK_NPY_U8 },  { "<u1", TK_NPY_U8 },  { "|b1", TK_NPY_BOOL },
                  { "<u4", TK_NPY_U32 }, { "<u8", TK_NPY_U64 } };
    for (unsigned i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(descr, known[i].name) == 0) {
            *out = known[i].dtype;
            return 0;
        }
    if (descr[0] == '>')
        snprintf(ps->err, ps->errlen, "%s: big-endian data ('%s') is not supported; save it little-endian (a.astype('<%s'))",
                 ps->path, descr, descr + 1);
    else
        snprintf(ps->err, ps->errlen,
                 "%s: dtype '%s' is not supported (<f4 <f8 <f2 <u2 |i1 <i2 <i4 <i8 |u1 <u4 <u8 |b1 are)", ps->path, descr);
    return -1;
}

static int parse_header(Parser *ps, TkNpyArray *a)
{
    bool have_descr = false, have_order = false, have_shape = false, fortran = false;
    char descr[32] = "";
    if (!eat(ps, '{')) return fail(ps, "expected '{'");
    for (;;) {
        if (eat(ps, '}')) break;
        char key[32];
        if (parse_string(ps, key, sizeof key) != 0) return -1;
        if (!eat(ps, ':')) return fail(ps, "expected ':' after a key");
        if (strcmp(key, "descr") == 0) {
            if (parse_string(ps, descr, sizeof descr) != 0) return -1;
            have_descr = true;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (parse_bool(ps, &fortran) != 0) return -1;
            have_order = true;
        } else if (strcmp(key, "shape") == 0) {
            if (parse_shape(ps, a->shape, &a->rank) != 0) return -1;
            have_shape = true;
        } else {
            return fail(ps, "unknown key (expected descr, fortran_order and shape)");
        }
        if (eat(ps, ',')) continue;
        if (eat(ps, '}')) break;
        return fail(ps, "expected ',' or '}'");
    }
    if (!have_descr || !have_order || !have_shape) return fail(ps, "descr, fortran_order and shape are all required");
    if (fortran) {
        snprintf(ps->err, ps->errlen, "%s: Fortran-order arrays are not supported; save a C-order copy (np.ascontiguousarray)",
                 ps->path);
        return -1;
    }
    return parse_dtype(ps, descr, &a->dtype);
}

/* ------------------------------------------------------------ reading */

void tk_npy_free(TkNpyArray *a)
{
    free(a->data);
    memset(a, 0, sizeof *a);
}

int tk_npy_read(const char *path, TkNpyArray *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    int rc = -1;
    char *header = NULL;
    struct stat st;
    unsigned char pre[12];
    if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        goto out;
    }
    if (fread(pre, 1, 8, fp) != 8 || memcmp(pre, MAGIC, 6) != 0) {
        snprintf(err, errlen, "%s: not a .npy file (no \\x93NUMPY magic)", path);
        goto out;
    }
    unsigned major = pre[6];
    size_t len_bytes = major == 1 ? 2 : major == 2 || major == 3 ? 4 : 0;
    if (len_bytes == 0) {
        snprintf(err, errlen, "%s: .npy format version %u.%u is not supported (1.0, 2.0, 3.0 are)", path, major, pre[7]);
        goto out;
    }
    if (fread(pre + 8, 1, len_bytes, fp) != len_bytes) {
        snprintf(err, errlen, "%s: truncated .npy header", path);
        goto out;
    }
    size_t hlen = pre[8] | (size_t)pre[9] << 8;
    if (len_bytes == 4) hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    size_t offset = 8 + len_bytes + hlen;
    if (hlen == 0 || hlen > MAX_HEADER || (uint64_t)offset > (uint64_t)st.st_size) {
        snprintf(err, errlen, "%s: malformed .npy header: length %zu does not fit the file (%lld bytes)", path, hlen,
                 (long long)st.st_size);
        goto out;
    }
    if (!(header = malloc(hlen))) {
        snprintf(err, errlen, "%s: out of memory for the header", path);
        goto out;
    }
    if (fread(header, 1, hlen, fp) != hlen) {
        snprintf(err, errlen, "%s: truncated .npy header", path);
        goto out;
    }
    Parser ps = { header, header + hlen, path, err, errlen };
    if (parse_header(&ps, out) != 0) goto out;
    skip_space(&ps);
    if (ps.p != ps.end) {
        fail(&ps, "unexpected text after the dict");
        goto out;
    }
    int64_t count = 1;
    for (unsigned d = 0; d < out->rank; d++)
        if (__builtin_mul_overflow(count, out->shape[d], &count)) {
            snprintf(err, errlen, "%s: the shape's element count overflows", path);
            goto out;
        }
    size_t esize = tk_npy_dtype_size(out->dtype);
    uint64_t want = 0, have = (uint64_t)st.st_size - offset;
    if (__builtin_mul_overflow((uint64_t)count, (uint64_t)esize, &want) || want != have) {
        char shp[160];
        tk_npy_format_shape(out->shape, out->rank, shp, sizeof shp);
        snprintf(err, errlen, "%s: shape %s of %s needs %llu bytes of data, the file has %llu", path, shp,
                 tk_npy_dtype_name(out->dtype), (unsigned long long)want, (unsigned long long)have);
        goto out;
    }
    out->count = count;
    if (!(out->data = malloc(want ? want : 1))) {
        snprintf(err, errlen, "%s: out of memory for %llu bytes", path, (unsigned long long)want);
        goto out;
    }
    if (fread(out->data, 1, want, fp) != want) {
        snprintf(err, errlen, "%s: read error: %s", path, ferror(fp) ? strerror(errno) : "file shrank while reading");
        goto out;
    }
    rc = 0;
out:
    free(header);
    fclose(fp);
    if (rc != 0) tk_npy_free(out);
    return rc;
}

double tk_npy_get(const TkNpyArray *a, int64_t i)
{
    switch (a->dtype) {
    case TK_NPY_F32: { float v; memcpy(&v, (const char *)a->data + 4 * i, 4); return v; }
    case TK_NPY_F64: { double v; memcpy(&v, (const char *)a->data + 8 * i, 8); return v; }
    case TK_NPY_U16: { uint16_t v; memcpy(&v, (const char *)a->data + 2 * i, 2); return v; }
    case TK_NPY_F16: { uint16_t v; memcpy(&v, (const char *)a->data + 2 * i, 2); return tk_f16_to_f32(v); }
    case TK_NPY_I8: return ((const int8_t *)a->data)[i];
    case TK_NPY_U8: return ((const uint8_t *)a->data)[i];
    case TK_NPY_BOOL: return ((const uint8_t *)a->data)[i] != 0;
    case TK_NPY_I16: { int16_t v; memcpy(&v, (const char *)a->data + 2 * i, 2); return v; }
    case TK_NPY_I32: { int32_t v; memcpy(&v, (const char *)a->data + 4 * i, 4); return v; }
    case TK_NPY_I64: { int64_t v; memcpy(&v, (const char *)a->data + 8 * i, 8); return (double)v; }
    case TK_NPY_U32: { uint32_t v; memcpy(&v, (const char *)a->data + 4 * i, 4); return v; }
    case TK_NPY_U64: { uint64_t v; memcpy(&v, (const char *)a->data + 8 * i, 8); return (double)v; }
    }
    return 0;
}

/* ------------------------------------------------------------ writing */

int tk_npy_write(const char *path, TkNpyDtype dtype, const int64_t *shape, unsigned rank, const void *data, char *err,
                 size_t errlen)
{
    if (rank > TK_NPY_MAX_RANK) {
        snprintf(err, errlen, "%s: rank %u is more than .npy files here take (%d)", path, rank, TK_NPY_MAX_RANK);
        return -1;
    }
    char shp[200], dict[320];
    tk_npy_format_shape(shape, rank, shp, sizeof shp);
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", tk_npy_dtype_name(dtype), shp);
    if (n < 0 || (size_t)n >= sizeof dict - 80) {
        snprintf(err, errlen, "%s: shape too long for a header", path);
        return -1;
    }
    /* magic (6) + version (2) + length (2) + dict + spaces + '\n', a multiple of 64 */
    size_t total = (10 + (size_t)n + 1 + 63) / 64 * 64;
    size_t hlen = total - 10;
    unsigned char pre[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8) };
    memset(dict + n, ' ', hlen - (size_t)n - 1);
    dict[hlen - 1] = '\n';
    int64_t count = 1;
    for (unsigned d = 0; d < rank; d++) count *= shape[d];
    size_t bytes = (size_t)count * tk_npy_dtype_size(dtype);
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    bool ok = fwrite(pre, 1, 10, fp) == 10 && fwrite(dict, 1, hlen, fp) == hlen && (bytes == 0 || fwrite(data, 1, bytes, fp) == bytes);
    if (fclose(fp) != 0) ok = false;
    if (!ok) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
