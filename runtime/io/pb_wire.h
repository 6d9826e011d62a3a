/* pb_wire.h — the protobuf wire format, read and written by hand: what the
 * ONNX tensor files (onnx_tensor.c) and, later, the ONNX model loader need,
 * without a protobuf library. A reader walks one message's bytes; every
 * length is checked against the bytes that remain, so a malformed file is an
 * error naming the field and byte offset, never a read past the buffer.
 *
 *   TkrPbReader r = tkr_pb_reader(buf, len);
 *   TkrPbField f;
 *   while (tkr_pb_next(&r, &f))          // false at the end or on an error
 *       switch (f.number) { ... default: break; }   // unknown fields: just ignore them
 *   if (r.error) ... r.error, r.error_at ...
 */
#ifndef TK_RUNTIME_IO_PB_WIRE_H
#define TK_RUNTIME_IO_PB_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    TKR_PB_VARINT = 0,
    TKR_PB_FIXED64 = 1,
    TKR_PB_BYTES = 2,     /* length-delimited: strings, messages, packed repeated scalars */
    TKR_PB_FIXED32 = 5,   /* (3 and 4, the deprecated groups, are malformed here) */
} TkrPbWireType;

typedef struct {
    const uint8_t *p, *end;
    const uint8_t *base;   /* start of the outermost buffer, for offsets in messages */
    const char *error;     /* NULL until something is malformed; a static string */
    size_t error_at;       /* byte offset from base of the malformed item */
} TkrPbReader;

/* One field: its number and wire type, and its value — `varint` for VARINT
 * (the raw 64 bits), FIXED32 and FIXED64 (the little-endian bits), or
 * `bytes`/`len` for BYTES (pointing into the buffer). */
typedef struct {
    uint32_t number;
    TkrPbWireType wire;
    uint64_t varint;
    const uint8_t *bytes;
    size_t len;
    size_t offset;   /* of the field's tag, from base */
} TkrPbField;

TkrPbReader tkr_pb_reader(const void *buf, size_t len);
/* A reader over a BYTES field's contents (a nested message or a packed run),
 * reporting offsets from the parent's base. */
TkrPbReader tkr_pb_sub_reader(const TkrPbReader *parent, const TkrPbField *f);
/* The next field; false at the end of the buffer or when it is malformed
 * (then r->error is set). Field number 0, wire types 3, 4, 6, 7, a varint
 * longer than 10 bytes and a length past the end are errors. */
bool tkr_pb_next(TkrPbReader *r, TkrPbField *f);
/* One varint from r (for packed runs: loop while r->p < r->end); false, with
 * r->error set, when it is malformed or there is none left. */
bool tkr_pb_read_varint(TkrPbReader *r, uint64_t *out);
/* How many varints a packed run holds, checking each (-1 and r->error if
 * one is malformed). */
int64_t tkr_pb_count_varints(TkrPbReader *r);
const char *tkr_pb_wire_name(TkrPbWireType w);

/* ------------------------------------------------------------ writing */

/* A growing byte buffer; `failed` is set (and the buffer freed) when memory
 * runs out, after which every put is a no-op. */
typedef struct {
    uint8_t *data;
    size_t len, cap;
    bool failed;
} TkrPbWriter;

void tkr_pb_put_varint_field(TkrPbWriter *w, uint32_t number, uint64_t v);
void tkr_pb_put_bytes_field(TkrPbWriter *w, uint32_t number, const void *bytes, size_t len);
/* Only the tag and length of a BYTES field, for contents the caller writes
 * itself (a tensor's raw data straight to the file, not through the buffer). */
void tkr_pb_put_bytes_header(TkrPbWriter *w, uint32_t number, size_t len);
void tkr_pb_writer_free(TkrPbWriter *w);

#endif
