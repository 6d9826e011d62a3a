/* pb_wire.c — see pb_wire.h. */
#include "pb_wire.h"

#include <stdlib.h>
#include <string.h>

TkrPbReader tkr_pb_reader(const void *buf, size_t len)
{
    const uint8_t *p = buf;
    return (TkrPbReader){ .p = p, .end = p + len, .base = p };
}

TkrPbReader tkr_pb_sub_reader(const TkrPbReader *parent, const TkrPbField *f)
{
    return (TkrPbReader){ .p = f->bytes, .end = f->bytes + f->len, .base = parent->base };
}

static bool fail(TkrPbReader *r, const uint8_t *at, const char *what)
{
    if (!r->error) {
        r->error = what;
        r->error_at = (size_t)(at - r->base);
    }
    r->p = r->end;   /* nothing more is read from a malformed buffer */
    return false;
}

bool tkr_pb_read_varint(TkrPbReader *r, uint64_t *out)
{
    const uint8_t *start = r->p;
    uint64_t v = 0;
    for (int i = 0; i < 10; i++) {
        if (r->p >= r->end) return fail(r, start, "a varint runs past the end");
        uint8_t b = *r->p++;
        /* the 10th byte ends the varint and may only carry the top bit of a 64-bit value */
        if (i == 9 && (b & 0x80)) return fail(r, start, "a varint is longer than 10 bytes");
        if (i == 9 && b > 1) return fail(r, start, "a varint overflows 64 bits");
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;   /* not reached: the 10th byte returns */
}

int64_t tkr_pb_count_varints(TkrPbReader *r)
{
    int64_t n = 0;
    uint64_t v;
    while (r->p < r->end) {
        if (!tkr_pb_read_varint(r, &v)) return -1;
        n++;
    }
    return n;
}

static uint64_t load_le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

bool tkr_pb_next(TkrPbReader *r, TkrPbField *f)
{
    if (r->error || r->p >= r->end) return false;
    const uint8_t *start = r->p;
    uint64_t tag;
    if (!tkr_pb_read_varint(r, &tag)) return false;
    memset(f, 0, sizeof *f);
    f->offset = (size_t)(start - r->base);
    if (tag >> 3 == 0 || tag >> 3 > 0x1fffffff) return fail(r, start, "a field number is 0 or above 2^29");
    f->number = (uint32_t)(tag >> 3);
    f->wire = (TkrPbWireType)(tag & 7);
    size_t left;
    switch (tag & 7) {
    case TKR_PB_VARINT: return tkr_pb_read_varint(r, &f->varint);
    case TKR_PB_FIXED64:
    case TKR_PB_FIXED32: {
        int bytes = (tag & 7) == TKR_PB_FIXED64 ? 8 : 4;
        if ((size_t)(r->end - r->p) < (size_t)bytes) return fail(r, start, "a fixed-width value runs past the end");
        f->varint = load_le(r->p, bytes);
        r->p += bytes;
        return true;
    }
    case TKR_PB_BYTES: {
        uint64_t len;
        if (!tkr_pb_read_varint(r, &len)) return false;
        left = (size_t)(r->end - r->p);
        if (len > left) return fail(r, start, "a length runs past the end");
        f->bytes = r->p;
        f->len = (size_t)len;
        r->p += len;
        return true;
    }
    default: return fail(r, start, "a field has wire type 3, 4, 6 or 7 (groups and reserved types are not read)");
    }
}

const char *tkr_pb_wire_name(TkrPbWireType w)
{
    switch (w) {
    case TKR_PB_VARINT: return "varint";
    case TKR_PB_FIXED64: return "fixed64";
    case TKR_PB_BYTES: return "length-delimited";
    case TKR_PB_FIXED32: return "fixed32";
    }
    return "invalid";
}

/* ------------------------------------------------------------ writing */

static void put(TkrPbWriter *w, const void *bytes, size_t len)
{
    if (w->failed || len == 0) return;
    if (w->cap - w->len < len) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap - w->len < len) {
            if (cap > SIZE_MAX / 2) cap = SIZE_MAX;
            else cap *= 2;
            if (cap == SIZE_MAX) break;
        }
        uint8_t *d = cap - w->len >= len ? realloc(w->data, cap) : NULL;
        if (!d) {
            tkr_pb_writer_free(w);
            w->failed = true;
            return;
        }
        w->data = d;
        w->cap = cap;
    }
    memcpy(w->data + w->len, bytes, len);
    w->len += len;
}

static void put_varint(TkrPbWriter *w, uint64_t v)
{
    uint8_t b[10];
    int n = 0;
    do {
        b[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v) b[n] |= 0x80;
        n++;
    } while (v);
    put(w, b, (size_t)n);
}

void tkr_pb_put_varint_field(TkrPbWriter *w, uint32_t number, uint64_t v)
{
    put_varint(w, (uint64_t)number << 3 | TKR_PB_VARINT);
    put_varint(w, v);
}

void tkr_pb_put_bytes_header(TkrPbWriter *w, uint32_t number, size_t len)
{
    put_varint(w, (uint64_t)number << 3 | TKR_PB_BYTES);
    put_varint(w, len);
}

void tkr_pb_put_bytes_field(TkrPbWriter *w, uint32_t number, const void *bytes, size_t len)
{
    tkr_pb_put_bytes_header(w, number, len);
    put(w, bytes, len);
}

void tkr_pb_writer_free(TkrPbWriter *w)
{
    free(w->data);
    w->data = NULL;
    w->len = w->cap = 0;
}
