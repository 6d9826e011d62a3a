/* onnx_tensor.c — tk_load_onnx_tensor / tk_save_onnx_tensor: one ONNX
 * TensorProto serialised on its own, the .pb files of the ONNX test suites
 * (test_data_set_0/input_0.pb). The fields read (onnx.proto, proto2):
 *
 *    1 dims        repeated int64 (unpacked or packed)
 *    2 data_type   int32 (TensorProto.DataType)
 *    3 segment     a chunk of a bigger tensor: unsupported
 *    4 float_data  repeated float, packed        FLOAT
 *    5 int32_data  repeated int32, packed        INT32 INT16 INT8 UINT8 BOOL, and
 *                                                FLOAT16/BFLOAT16 as their bit patterns
 *                                                UINT16, FLOAT8* (one per element), and
 *                                                INT4/UINT4/FLOAT4E2M1/INT2/UINT2 as packed bytes
 *    7 int64_data  repeated int64, packed        INT64
 *    8 name        string
 *    9 raw_data    bytes, little-endian elements  (any type)
 *   10 double_data repeated double, packed       DOUBLE
 *   11 uint64_data repeated uint64, packed       UINT32 UINT64
 *   14 data_location  EXTERNAL (1) is unsupported
 *
 * The 4-bit types are packed two to a byte and the 2-bit ones four, first
 * element in the low bits, in raw_data and int32_data alike; in memory the
 * runtime keeps one element per byte (unpacked on reading, packed on writing).
 *
 * Repeated fields are read packed or unpacked, whatever the writer chose.
 * Reading takes two passes over the bytes: the first checks every field and
 * counts the elements, so nothing is allocated for a tensor whose data does
 * not match its dims; the second copies the data. Other fields are skipped. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "onnx_tensor.h"
#include "pb_wire.h"
#include "tk/io.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "onnx_tensor.c copies little-endian raw_data in place: port the byte swapping first"
#endif

enum {
    F_DIMS = 1, F_DATA_TYPE = 2, F_SEGMENT = 3, F_FLOAT = 4, F_INT32 = 5, F_INT64 = 7, F_NAME = 8, F_RAW = 9,
    F_DOUBLE = 10, F_UINT64 = 11, F_EXTERNAL = 13, F_DATA_LOCATION = 14,
};

/* TensorProto.DataType: names for messages, and ours where we have one (-1 otherwise). */
static const struct {
    const char *name;
    int dtype;
} onnx_types[] = {
    [0] = { "UNDEFINED", -1 },      [1] = { "FLOAT", TK_DTYPE_F32 },  [2] = { "UINT8", TK_DTYPE_U8 },
    [3] = { "INT8", TK_DTYPE_I8 },  [4] = { "UINT16", TK_DTYPE_U16 }, [5] = { "INT16", TK_DTYPE_I16 },
    [6] = { "INT32", TK_DTYPE_I32 }, [7] = { "INT64", TK_DTYPE_I64 }, [8] = { "STRING", -1 },
    [9] = { "BOOL", TK_DTYPE_BOOL }, [10] = { "FLOAT16", TK_DTYPE_F16 }, [11] = { "DOUBLE", TK_DTYPE_F64 },
    [12] = { "UINT32", TK_DTYPE_U32 }, [13] = { "UINT64", TK_DTYPE_U64 },          [14] = { "COMPLEX64", -1 },
    [15] = { "COMPLEX128", -1 },    [16] = { "BFLOAT16", TK_DTYPE_BF16 },
    [17] = { "FLOAT8E4M3FN", TK_DTYPE_F8E4M3FN }, [18] = { "FLOAT8E4M3FNUZ", TK_DTYPE_F8E4M3FNUZ },
    [19] = { "FLOAT8E5M2", TK_DTYPE_F8E5M2 },     [20] = { "FLOAT8E5M2FNUZ", TK_DTYPE_F8E5M2FNUZ },
    [21] = { "UINT4", TK_DTYPE_U4 },              [22] = { "INT4", TK_DTYPE_I4 },
    [23] = { "FLOAT4E2M1", TK_DTYPE_F4E2M1 },     [24] = { "FLOAT8E8M0", TK_DTYPE_F8E8M0 },
    [25] = { "UINT2", TK_DTYPE_U2 },              [26] = { "INT2", TK_DTYPE_I2 },
};
#define NUM_ONNX_TYPES ((int)(sizeof onnx_types / sizeof onnx_types[0]))

int tkr_onnx_type_of(tk_dtype d)
{
    for (int i = 0; i < NUM_ONNX_TYPES; i++)
        if (onnx_types[i].dtype == (int)d) return i;
    return 0;
}

/* Elements per byte of the file's data: ONNX packs the 4-bit types two to a
 * byte and the 2-bit ones four, the first element in the low bits (the
 * runtime keeps one per byte). int32_data then holds the packed bytes. */
static int per_byte(tk_dtype d)
{
    switch (d) {
    case TK_DTYPE_I4: case TK_DTYPE_U4: case TK_DTYPE_F4E2M1: return 2;
    case TK_DTYPE_I2: case TK_DTYPE_U2: return 4;
    default: return 1;
    }
}

/* The bytes n elements of d take in a file. */
static uint64_t file_bytes(tk_dtype d, int64_t n)
{
    int k = per_byte(d);
    return k == 1 ? (uint64_t)n * tk_dtype_size(d) : ((uint64_t)n + (uint64_t)k - 1) / (uint64_t)k;
}

/* Packed bytes → one element per byte (the signed ones sign-extended). */
static void unpack_sub_byte(tk_dtype d, const uint8_t *src, uint8_t *dst, int64_t n)
{
    int k = per_byte(d), bits = 8 / k;
    unsigned mask = (1u << bits) - 1;
    bool sign = d == TK_DTYPE_I4 || d == TK_DTYPE_I2;
    for (int64_t i = 0; i < n; i++) {
        unsigned v = (src[i / k] >> (bits * (int)(i % k))) & mask;
        if (sign && (v >> (bits - 1))) v |= ~mask;   /* sign-extend into the byte */
        dst[i] = (uint8_t)v;
    }
}

/* One element per byte → packed bytes (dst zeroed first: the last byte's padding is 0). */
static void pack_sub_byte(tk_dtype d, const uint8_t *src, uint8_t *dst, int64_t n)
{
    int k = per_byte(d), bits = 8 / k;
    unsigned mask = (1u << bits) - 1;
    memset(dst, 0, (size_t)file_bytes(d, n));
    for (int64_t i = 0; i < n; i++) dst[i / k] |= (uint8_t)((src[i] & mask) << (bits * (int)(i % k)));
}

/* Which typed field holds elements of our dtype. */
static uint32_t typed_field_of(tk_dtype d)
{
    switch (d) {
    case TK_DTYPE_F32: return F_FLOAT;
    case TK_DTYPE_F64: return F_DOUBLE;
    case TK_DTYPE_I64: return F_INT64;
    case TK_DTYPE_U32:
    case TK_DTYPE_U64: return F_UINT64;
    default: return F_INT32;   /* the narrow ints, bool and the 16-bit floats' bit patterns */
    }
}

static const char *field_name(uint32_t f)
{
    switch (f) {
    case F_DIMS: return "dims";
    case F_DATA_TYPE: return "data_type";
    case F_FLOAT: return "float_data";
    case F_INT32: return "int32_data";
    case F_INT64: return "int64_data";
    case F_NAME: return "name";
    case F_RAW: return "raw_data";
    case F_DOUBLE: return "double_data";
    case F_UINT64: return "uint64_data";
    case F_DATA_LOCATION: return "data_location";
    }
    return "?";
}

int tkr_onnx_dtype(int64_t t) { return t > 0 && t < NUM_ONNX_TYPES ? onnx_types[t].dtype : -1; }
const char *tkr_onnx_type_name(int64_t t) { return t >= 0 && t < NUM_ONNX_TYPES ? onnx_types[t].name : "?"; }

/* ------------------------------------------------------------ pass 1: check and count */

typedef struct {
    int ndim;
    int64_t shape[TK_MAX_DIMS];
    int64_t data_type;              /* as read; 0 if absent */
    int64_t count[F_UINT64 + 1];    /* elements seen in each typed field */
    const uint8_t *raw;             /* last raw_data, if any */
    size_t raw_len;
    bool has_raw;
    const uint8_t *name;
    size_t name_len;
    int64_t data_location;          /* 1: EXTERNAL */
    char location[1024];            /* external_data's keys */
    int64_t ext_offset, ext_length; /* -1: absent */
} Header;

typedef struct {
    tk_context *ctx;
    const char *op, *path;          /* path: the file, or what the tensor is ("initializer 'w' of 'm.onnx'") */
    const TkrOnnxSource *src;
} Where;

static tk_status malformed(const Where *w, const TkrPbReader *r)
{
    return tkr_error(w->ctx, TK_ERR_IO, "%s: %s is not a valid TensorProto: %s at byte %zu", w->op, w->path, r->error,
                     r->error_at);
}

static tk_status wrong_wire(const Where *w, const TkrPbField *f)
{
    return tkr_error(w->ctx, TK_ERR_IO, "%s: %s is not a valid TensorProto: field %u (%s) at byte %zu has wire type %s", w->op,
                     w->path, f->number, field_name(f->number), f->offset, tkr_pb_wire_name(f->wire));
}

static tk_status add_dim(const Where *w, Header *h, uint64_t v, size_t at)
{
    if ((int64_t)v < 0)
        return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: dim %d is negative (%lld) at byte %zu", w->op, w->path, h->ndim,
                         (long long)(int64_t)v, at);
    if (h->ndim == TK_MAX_DIMS)
        return tkr_error(w->ctx, TK_ERR_UNSUPPORTED, "%s: %s has more than %d dims (a tensor has at most %d)", w->op, w->path,
                         TK_MAX_DIMS, TK_MAX_DIMS);
    h->shape[h->ndim++] = (int64_t)v;
    return TK_OK;
}

/* One external_data entry (StringStringEntryProto: key 1, value 2). */
static tk_status external_entry(const Where *w, const TkrPbReader *r, Header *h, const TkrPbField *f)
{
    if (f->wire != TKR_PB_BYTES) return wrong_wire(w, f);
    TkrPbReader e = tkr_pb_sub_reader(r, f);
    TkrPbField kv;
    const uint8_t *key = NULL, *val = NULL;
    size_t klen = 0, vlen = 0;
    while (tkr_pb_next(&e, &kv))
        if (kv.wire == TKR_PB_BYTES && kv.number == 1) key = kv.bytes, klen = kv.len;
        else if (kv.wire == TKR_PB_BYTES && kv.number == 2) val = kv.bytes, vlen = kv.len;
    if (e.error) return malformed(w, &e);
    char v[32];
    if (klen == 8 && memcmp(key, "location", 8) == 0) {
        if (vlen == 0 || vlen >= sizeof h->location || memchr(val, 0, vlen))
            return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: external data location of %zu bytes is not a usable file name", w->op,
                             w->path, vlen);
        memcpy(h->location, val, vlen);
        h->location[vlen] = 0;
    } else if ((klen == 6 && memcmp(key, "offset", 6) == 0) || (klen == 6 && memcmp(key, "length", 6) == 0)) {
        char *end;
        if (vlen == 0 || vlen >= sizeof v) return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: external data %.6s is not a number", w->op, w->path, key);
        memcpy(v, val, vlen);
        v[vlen] = 0;
        errno = 0;
        long long n = strtoll(v, &end, 10);
        if (*end || errno || n < 0)
            return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: external data %.6s %s is not a byte count", w->op, w->path, key, v);
        if (key[0] == 'o') h->ext_offset = n;
        else h->ext_length = n;
    }   /* "checksum" and unknown keys: ignored */
    return TK_OK;
}

/* Counts a fixed-width repeated field: one value (unpacked) or a packed run. */
static tk_status count_fixed(const Where *w, Header *h, const TkrPbField *f, TkrPbWireType unpacked, size_t width)
{
    if (f->wire == unpacked) h->count[f->number]++;
    else if (f->wire == TKR_PB_BYTES && f->len % width == 0) h->count[f->number] += (int64_t)(f->len / width);
    else if (f->wire == TKR_PB_BYTES)
        return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: packed %s at byte %zu is %zu bytes, not a multiple of %zu", w->op, w->path,
                         field_name(f->number), f->offset, f->len, width);
    else return wrong_wire(w, f);
    return TK_OK;
}

static tk_status count_varints(const Where *w, const TkrPbReader *r, Header *h, const TkrPbField *f)
{
    if (f->wire == TKR_PB_VARINT) {
        h->count[f->number]++;
        return TK_OK;
    }
    if (f->wire != TKR_PB_BYTES) return wrong_wire(w, f);
    TkrPbReader run = tkr_pb_sub_reader(r, f);
    int64_t n = tkr_pb_count_varints(&run);
    if (n < 0) return malformed(w, &run);
    h->count[f->number] += n;
    return TK_OK;
}

static tk_status scan(const Where *w, const uint8_t *buf, size_t len, Header *h)
{
    memset(h, 0, sizeof *h);
    h->ext_offset = h->ext_length = -1;
    TkrPbReader r = tkr_pb_reader(buf, len);
    TkrPbField f;
    tk_status s = TK_OK;
    while (!s && tkr_pb_next(&r, &f)) {
        switch (f.number) {
        case F_DIMS:
            if (f.wire == TKR_PB_VARINT) s = add_dim(w, h, f.varint, f.offset);
            else if (f.wire == TKR_PB_BYTES) {
                TkrPbReader run = tkr_pb_sub_reader(&r, &f);
                uint64_t v;
                while (!s && run.p < run.end && tkr_pb_read_varint(&run, &v)) s = add_dim(w, h, v, f.offset);
                if (!s && run.error) s = malformed(w, &run);
            } else s = wrong_wire(w, &f);
            break;
        case F_DATA_TYPE:
            if (f.wire != TKR_PB_VARINT) s = wrong_wire(w, &f);
            else h->data_type = (int64_t)f.varint;
            break;
        case F_SEGMENT:
            s = tkr_error(w->ctx, TK_ERR_UNSUPPORTED, "%s: %s is one segment of a larger tensor; segments are not supported",
                          w->op, w->path);
            break;
        case F_FLOAT: s = count_fixed(w, h, &f, TKR_PB_FIXED32, 4); break;
        case F_DOUBLE: s = count_fixed(w, h, &f, TKR_PB_FIXED64, 8); break;
        case F_INT32:
        case F_INT64:
        case F_UINT64: s = count_varints(w, &r, h, &f); break;
        case F_NAME:
            if (f.wire != TKR_PB_BYTES) s = wrong_wire(w, &f);
            else h->name = f.bytes, h->name_len = f.len;
            break;
        case F_RAW:
            if (f.wire != TKR_PB_BYTES) s = wrong_wire(w, &f);
            else h->raw = f.bytes, h->raw_len = f.len, h->has_raw = true;
            break;
        case F_DATA_LOCATION:
            if (f.wire != TKR_PB_VARINT) s = wrong_wire(w, &f);
            else if (f.varint > 1)
                s = tkr_error(w->ctx, TK_ERR_IO, "%s: %s: data_location %llu is neither DEFAULT nor EXTERNAL", w->op, w->path,
                              (unsigned long long)f.varint);
            else h->data_location = (int64_t)f.varint;
            break;
        case F_EXTERNAL: s = external_entry(w, &r, h, &f); break;
        default: break;   /* string_data, doc_string, external_data, metadata_props, later fields */
        }
    }
    if (!s && r.error) s = malformed(w, &r);
    return s;
}

/* Checks the header against the data it carries; the dtype and element count on success. */
static tk_status validate(const Where *w, const Header *h, tk_dtype *dtype, int64_t *numel)
{
    char shp[160];
    tkr_shape_str(h->ndim, h->shape, shp, sizeof shp);
    if (h->data_type <= 0 || h->data_type >= NUM_ONNX_TYPES) {
        if (h->data_type == 0)
            return tkr_error(w->ctx, TK_ERR_IO, "%s: %s has no data_type (UNDEFINED)", w->op, w->path);
        return tkr_error(w->ctx, TK_ERR_UNSUPPORTED, "%s: %s has data_type %lld, which this reader does not know", w->op,
                         w->path, (long long)h->data_type);
    }
    if (onnx_types[h->data_type].dtype < 0)
        return tkr_error(w->ctx, TK_ERR_UNSUPPORTED,
                         "%s: %s holds %s elements; supported are FLOAT DOUBLE FLOAT16 BFLOAT16 INT8 INT16 INT32 INT64 UINT8 UINT16 UINT32 "
                         "UINT64 BOOL FLOAT8* FLOAT4E2M1 INT4 UINT4 INT2 UINT2",
                         w->op, w->path, onnx_types[h->data_type].name);
    *dtype = (tk_dtype)onnx_types[h->data_type].dtype;
    const char *tname = onnx_types[h->data_type].name;
    int64_t n = 1;
    for (int d = 0; d < h->ndim; d++)
        if (__builtin_mul_overflow(n, h->shape[d], &n) || n > INT64_MAX / 16)
            return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: the element count of dims %s overflows", w->op, w->path, shp);
    *numel = n;
    uint32_t want_field = typed_field_of(*dtype);
    static const uint32_t typed[] = { F_FLOAT, F_INT32, F_INT64, F_DOUBLE, F_UINT64 };
    for (unsigned i = 0; i < sizeof typed / sizeof typed[0]; i++) {
        uint32_t fld = typed[i];
        if (!h->count[fld]) continue;
        if (h->has_raw)
            return tkr_error(w->ctx, TK_ERR_IO, "%s: %s has both raw_data and %s", w->op, w->path, field_name(fld));
        if (fld != want_field)
            return tkr_error(w->ctx, TK_ERR_IO, "%s: %s is %s but holds %s (%s elements go in %s)", w->op, w->path, tname,
                             field_name(fld), tname, field_name(want_field));
    }
    if (h->data_location == 1) {
        if (h->has_raw || h->count[want_field])
            return tkr_error(w->ctx, TK_ERR_IO, "%s: %s keeps its data in an external file but also holds data", w->op, w->path);
        if (!h->location[0])
            return tkr_error(w->ctx, TK_ERR_IO, "%s: %s keeps its data in an external file but names none (no 'location')", w->op,
                             w->path);
        if (h->ext_length >= 0 && (uint64_t)h->ext_length != file_bytes(*dtype, n))
            return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: dims %s of %s need %llu bytes, its external data is %lld", w->op, w->path,
                             shp, tname, (unsigned long long)file_bytes(*dtype, n), (long long)h->ext_length);
    } else if (h->has_raw) {
        if ((uint64_t)h->raw_len != file_bytes(*dtype, n))
            return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: dims %s of %s need %llu bytes, raw_data has %zu", w->op, w->path, shp,
                             tname, (unsigned long long)file_bytes(*dtype, n), h->raw_len);
    } else if (h->count[want_field] != (per_byte(*dtype) == 1 ? n : (int64_t)file_bytes(*dtype, n))) {
        /* the 4- and 2-bit types hold one packed byte per int32_data element */
        return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: dims %s of %s need %lld %s, %s holds %lld%s", w->op, w->path, shp,
                         tname, per_byte(*dtype) == 1 ? (long long)n : (long long)file_bytes(*dtype, n),
                         per_byte(*dtype) == 1 ? "elements" : "packed bytes", field_name(want_field), (long long)h->count[want_field],
                         h->count[want_field] ? "" : " (and there is no raw_data)");
    }
    return TK_OK;
}

/* ------------------------------------------------------------ pass 2: the typed fields */

/* Stores one uint64_data value as u32 (refusing one above 2^32 - 1) or u64. */
static tk_status put_uint64(const Where *w, tk_dtype dtype, char *dst, int64_t k, uint64_t v)
{
    if (dtype == TK_DTYPE_U64) {
        memcpy(dst + 8 * k, &v, 8);
        return TK_OK;
    }
    if (v > UINT32_MAX)
        return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: uint64_data element %lld is %llu, out of range for u32", w->op, w->path,
                         (long long)k, (unsigned long long)v);
    uint32_t x = (uint32_t)v;
    memcpy(dst + 4 * k, &x, 4);
    return TK_OK;
}

typedef struct {
    const Where *w;
    tk_dtype dtype;
    char *dst;
    int64_t k;   /* the next element to write */
} Filler;

/* Stores one int32_data value in the narrow dtype, refusing values it cannot hold. */
static tk_status put_int32(Filler *fl, uint64_t raw)
{
    int64_t v = (int32_t)(uint32_t)raw;   /* int32 varints are sign-extended to 64 bits */
    int64_t lo, hi;
    switch (fl->dtype) {
    case TK_DTYPE_I32: lo = INT32_MIN, hi = INT32_MAX; break;
    case TK_DTYPE_I16: lo = INT16_MIN, hi = INT16_MAX; break;
    case TK_DTYPE_I8: lo = INT8_MIN, hi = INT8_MAX; break;
    case TK_DTYPE_U8: lo = 0, hi = UINT8_MAX; break;
    case TK_DTYPE_BOOL: lo = 0, hi = 1; break;
    default:
        if (tk_dtype_size(fl->dtype) == 1) lo = 0, hi = UINT8_MAX;   /* the low-precision types' bytes (packed or not) */
        else lo = 0, hi = UINT16_MAX;                                 /* u16, and f16 / bf16 bit patterns */
        break;
    }
    if (v < lo || v > hi)
        return tkr_error(fl->w->ctx, TK_ERR_IO, "%s: %s: int32_data element %lld is %lld, out of range for %s", fl->w->op,
                         fl->w->path, (long long)fl->k, (long long)v, tk_dtype_name(fl->dtype));
    size_t es = tk_dtype_size(fl->dtype);
    if (es == 4) { int32_t x = (int32_t)v; memcpy(fl->dst + 4 * fl->k, &x, 4); }
    else if (es == 2) { uint16_t x = (uint16_t)v; memcpy(fl->dst + 2 * fl->k, &x, 2); }
    else fl->dst[fl->k] = (char)(uint8_t)v;
    fl->k++;
    return TK_OK;
}

static tk_status fill_typed(const Where *w, const uint8_t *buf, size_t len, tk_dtype dtype, char *dst)
{
    uint32_t want = typed_field_of(dtype);
    Filler fl = { w, dtype, dst, 0 };
    TkrPbReader r = tkr_pb_reader(buf, len);
    TkrPbField f;
    tk_status s = TK_OK;
    while (!s && tkr_pb_next(&r, &f)) {
        if (f.number != want) continue;
        if (want == F_FLOAT || want == F_DOUBLE) {
            size_t width = want == F_FLOAT ? 4 : 8;
            if (f.wire == TKR_PB_BYTES) {   /* packed: the values' bytes as they lie */
                if (f.len) memcpy(dst + width * (size_t)fl.k, f.bytes, f.len);
                fl.k += (int64_t)(f.len / width);
            } else {
                memcpy(dst + width * (size_t)fl.k, &f.varint, width);   /* little-endian: the low bytes */
                fl.k++;
            }
        } else if (f.wire == TKR_PB_VARINT) {
            if (want == F_INT64) memcpy(dst + 8 * fl.k++, &f.varint, 8);
            else if (want == F_UINT64) s = put_uint64(w, dtype, dst, fl.k++, f.varint);
            else s = put_int32(&fl, f.varint);
        } else {
            TkrPbReader run = tkr_pb_sub_reader(&r, &f);
            uint64_t v;
            if (want == F_INT64)
                while (run.p < run.end && tkr_pb_read_varint(&run, &v)) memcpy(dst + 8 * fl.k++, &v, 8);
            else if (want == F_UINT64)
                while (!s && run.p < run.end && tkr_pb_read_varint(&run, &v)) s = put_uint64(w, dtype, dst, fl.k++, v);
            else
                while (!s && run.p < run.end && tkr_pb_read_varint(&run, &v)) s = put_int32(&fl, v);
        }
    }
    return s;
}

/* ------------------------------------------------------------ the API */

/* The bytes of a tensor kept outside: checked to lie inside the file. */
static tk_status external_bytes(const Where *w, const Header *h, size_t bytes, TkrFileMap **map, const uint8_t **p)
{
    if (!w->src || !w->src->external)
        return tkr_error(w->ctx, TK_ERR_UNSUPPORTED, "%s: %s keeps its data in the external file '%s'; read it through its model",
                         w->op, w->path, h->location);
    if (h->location[0] == '/' || strstr(h->location, ".."))
        return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: external data location '%s' leaves the model's folder", w->op, w->path,
                         h->location);
    tk_status s = w->src->external(w->src->arg, h->location, map);
    if (s) return s;
    uint64_t off = h->ext_offset < 0 ? 0 : (uint64_t)h->ext_offset;
    if (off > (*map)->len || bytes > (*map)->len - off)
        return tkr_error(w->ctx, TK_ERR_IO, "%s: %s: bytes [%llu, +%zu) lie past the end of '%s' (%zu bytes)", w->op, w->path,
                         (unsigned long long)off, bytes, h->location, (*map)->len);
    *p = (*map)->data + off;
    return TK_OK;
}

tk_status tkr_onnx_tensor_decode(tk_context *ctx, const char *op, const char *what, const TkrOnnxSource *src,
                                 const uint8_t *buf, size_t len, tk_tensor **out, const uint8_t **name, size_t *name_len)
{
    *out = NULL;
    Where w = { ctx, op, what, src };
    Header h;
    tk_dtype dtype = TK_DTYPE_F32;
    int64_t numel = 0;
    tk_status s;
    if ((s = scan(&w, buf, len, &h)) || (s = validate(&w, &h, &dtype, &numel))) return s;
    if (name) *name = h.name, *name_len = h.name_len;
    size_t bytes = (size_t)numel * tk_dtype_size(dtype);
    const uint8_t *raw = h.has_raw ? h.raw : NULL;
    TkrFileMap *map = src ? src->map : NULL;
    if (h.data_location == 1 && (s = external_bytes(&w, &h, (size_t)file_bytes(dtype, numel), &map, &raw))) return s;
    if (raw) {
        if (dtype == TK_DTYPE_BOOL)   /* a bool byte other than 0 or 1 is no bool our ops handle */
            for (size_t i = 0; i < bytes; i++)
                if (raw[i] > 1) return tkr_error(ctx, TK_ERR_IO, "%s: %s: BOOL element %zu is %u, not 0 or 1", op, what, i, raw[i]);
        /* in a mapping and aligned to its elements: a view, not a copy */
        if (map && bytes && per_byte(dtype) == 1 && (uintptr_t)raw % tk_dtype_size(dtype) == 0)
            return tkr_file_map_tensor(ctx, map, raw, dtype, h.ndim, h.shape, out);
    }
    tk_tensor *t;
    if ((s = tkr_new(ctx, dtype, h.ndim, h.shape, &t))) return s;
    if (per_byte(dtype) > 1) {   /* packed in the file: raw_data or int32_data bytes, unpacked here */
        size_t packed = (size_t)file_bytes(dtype, numel);
        uint8_t *tmp = raw ? NULL : calloc(packed ? packed : 1, 1);
        if (!raw && !tmp) s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: %s: out of memory", op, what);
        else if (!raw) s = fill_typed(&w, buf, len, dtype, (char *)tmp);
        if (!s) unpack_sub_byte(dtype, raw ? raw : tmp, (uint8_t *)tkr_ptr(t), numel);
        free(tmp);
        if (s) {
            tk_tensor_release(t);
            return s;
        }
    } else if (raw) {
        if (bytes) memcpy(tkr_ptr(t), raw, bytes);
    } else if ((s = fill_typed(&w, buf, len, dtype, tkr_ptr(t)))) {
        tk_tensor_release(t);
        return s;
    }
    *out = t;
    return TK_OK;
}

tk_status tk_load_onnx_tensor_named(tk_context *ctx, const char *path, tk_tensor **out, char **name)
{
    const char *op = "tk_load_onnx_tensor";
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (name) *name = NULL;
    if (!path) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: path is NULL", op);
    if (!ctx->device->host_ops) {   /* read on the host, then moved */
        tk_tensor *h = NULL;
        return tkr_moved_from_host(ctx, tk_load_onnx_tensor_named(ctx->host, path, &h, name), &h, out);
    }
    TkrFileMap *map;
    tk_status s = tkr_file_map(ctx, op, path, &map);
    if (s) return s;
    size_t qlen = strlen(path) + 3;
    char *what = malloc(qlen);
    const uint8_t *nm = NULL;
    size_t nm_len = 0;
    tk_tensor *t = NULL;
    if (!what) s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    else {
        snprintf(what, qlen, "'%s'", path);
        /* copied, not viewed: a .pb file is small and its caller may rewrite it */
        s = tkr_onnx_tensor_decode(ctx, op, what, NULL, map->data, map->len, &t, &nm, &nm_len);
    }
    if (!s && name) {
        char *n = malloc(nm_len + 1);
        if (!n) s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: out of memory for the name", op);
        else {
            if (nm_len) memcpy(n, nm, nm_len);
            n[nm_len] = 0;
            *name = n;
        }
    }
    free(what);
    tkr_file_map_release(map);
    if (s) {
        tk_tensor_release(t);
        return s;
    }
    *out = t;
    return tkr_ok(ctx);
}

tk_status tk_load_onnx_tensor(tk_context *ctx, const char *path, tk_tensor **out)
{
    return tk_load_onnx_tensor_named(ctx, path, out, NULL);
}

tk_status tk_save_onnx_tensor(tk_context *ctx, const tk_tensor *t, const char *path, const char *name)
{
    const char *op = "tk_save_onnx_tensor";
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    tk_status s = tkr_check_arg(ctx, op, "t", t);
    if (s) return s;
    if (!path) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: path is NULL", op);
    tk_tensor *c;
    if ((s = tkr_contiguous(ctx, t, &c))) return s;
    /* Fields in number order, as protobuf writes them: dims unpacked (proto2's
     * default for onnx.proto's dims), data_type, name, then raw_data, whose
     * bytes go straight from the tensor to the file. */
    TkrPbWriter pb = { 0 };
    for (int d = 0; d < c->ndim; d++) tkr_pb_put_varint_field(&pb, F_DIMS, (uint64_t)c->shape[d]);
    tkr_pb_put_varint_field(&pb, F_DATA_TYPE, (uint64_t)tkr_onnx_type_of(c->dtype));
    if (name) tkr_pb_put_bytes_field(&pb, F_NAME, name, strlen(name));
    size_t bytes = (size_t)file_bytes(c->dtype, tk_tensor_numel(c));
    tkr_pb_put_bytes_header(&pb, F_RAW, bytes);
    uint8_t *packed = per_byte(c->dtype) > 1 ? malloc(bytes ? bytes : 1) : NULL;   /* the 4-/2-bit types, packed */
    if (pb.failed || (per_byte(c->dtype) > 1 && !packed)) {
        tkr_pb_writer_free(&pb);
        tk_tensor_release(c);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    }
    if (packed) pack_sub_byte(c->dtype, (const uint8_t *)tkr_ptr(c), packed, tk_tensor_numel(c));
    const void *data = packed ? (const void *)packed : (const void *)tkr_ptr(c);
    FILE *fp = fopen(path, "wb");
    if (!fp) s = tkr_error(ctx, TK_ERR_IO, "%s: cannot write '%s': %s", op, path, strerror(errno));
    else {
        bool ok = fwrite(pb.data, 1, pb.len, fp) == pb.len && (!bytes || fwrite(data, 1, bytes, fp) == bytes);
        if (fclose(fp) != 0) ok = false;
        if (!ok) s = tkr_error(ctx, TK_ERR_IO, "%s: writing '%s' failed: %s", op, path, strerror(errno));
    }
    tkr_pb_writer_free(&pb);
    free(packed);
    tk_tensor_release(c);
    return s ? s : tkr_ok(ctx);
}
