/* json_min.h — a small strict JSON reader (RFC 8259) for file headers such as
 * safetensors': the whole text is parsed into a tree, or rejected with a
 * message naming the problem and its byte offset. Strings are decoded
 * (escapes, \uXXXX with surrogate pairs → UTF-8) and may not hold NUL; numbers
 * keep an exact int64 when they are integers that fit. Nesting is limited
 * (TKR_JSON_MAX_DEPTH) so hostile input cannot exhaust the stack. */
#ifndef TK_RUNTIME_IO_JSON_MIN_H
#define TK_RUNTIME_IO_JSON_MIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TKR_JSON_MAX_DEPTH 64

typedef enum { TKR_JSON_NULL, TKR_JSON_BOOL, TKR_JSON_NUMBER, TKR_JSON_STRING, TKR_JSON_ARRAY, TKR_JSON_OBJECT } TkrJsonKind;

typedef struct TkrJson TkrJson;
struct TkrJson {
    TkrJsonKind kind;
    bool boolean;
    bool is_int;        /* NUMBER: an integer (no fraction or exponent) that fits int64 */
    int64_t integer;
    double number;
    char *string;       /* STRING: NUL-terminated UTF-8 */
    size_t count;       /* ARRAY / OBJECT: how many items */
    TkrJson *items;     /* ARRAY / OBJECT: the values, in the text's order */
    char **keys;        /* OBJECT: the keys, in the text's order */
};

/* Parses text[0 .. len) (one value, whitespace around it allowed) into a
 * tree the caller frees with tkr_json_free. NULL on error, with a message in
 * err ("expected ':' after a key at byte 17"); or on running out of memory. */
TkrJson *tkr_json_parse(const char *text, size_t len, char *err, size_t errlen);
void tkr_json_free(TkrJson *v);
/* An OBJECT's value for key (the first one), or NULL. */
const TkrJson *tkr_json_get(const TkrJson *obj, const char *key);
const char *tkr_json_kind_name(TkrJsonKind k);

#endif
