/* source.h — a source file in memory with a line table, so that byte
 * offsets (what the lexer and AST carry) turn into line:column for humans. */
#ifndef TK_LANG_SOURCE_H
#define TK_LANG_SOURCE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t begin, end;   /* byte offsets, end exclusive */
} TkSpan;

typedef struct {
    char *name;            /* as given by the user, for messages */
    char *text;            /* NUL-terminated; may contain further NULs */
    uint32_t len;
    uint32_t *line_starts; /* offset of each line's first byte */
    uint32_t nlines;
} TkSource;

/* 0 on success; -1 with errno set if the file cannot be read or is too big. */
int tk_source_load(TkSource *src, const char *path);
/* Takes a copy of text[0..len). 0 on success, -1 on allocation failure. */
int tk_source_from_memory(TkSource *src, const char *name, const char *text, size_t len);
void tk_source_free(TkSource *src);

/* 1-based line and column of a byte offset. Columns count characters (UTF-8
 * code points: continuation bytes 0x80-0xBF add nothing), so that they match
 * what an editor shows after a multi-byte character in a comment; a tab is
 * one column. */
void tk_source_position(const TkSource *src, uint32_t offset, uint32_t *line, uint32_t *col);
/* How many columns (code points) the len bytes at text take. */
uint32_t tk_source_columns(const char *text, uint32_t len);
/* The text of a 1-based line without its newline. */
const char *tk_source_line(const TkSource *src, uint32_t line, uint32_t *len);

static inline TkSpan tk_span_join(TkSpan a, TkSpan b)
{
    TkSpan s = { a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end };
    return s;
}

#endif
