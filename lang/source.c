/* source.c — see source.h. */
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TK_SOURCE_MAX (256u << 20)   /* offsets are 32-bit; refuse absurd inputs */

static int build_line_table(TkSource *src)
{
    uint32_t n = 1;
    for (uint32_t i = 0; i < src->len; i++)
        if (src->text[i] == '\n') n++;
    src->line_starts = malloc(sizeof(uint32_t) * n);
    if (!src->line_starts) return -1;
    src->nlines = 0;
    src->line_starts[src->nlines++] = 0;
    for (uint32_t i = 0; i < src->len; i++)
        if (src->text[i] == '\n') src->line_starts[src->nlines++] = i + 1;
    return 0;
}

int tk_source_from_memory(TkSource *src, const char *name, const char *text, size_t len)
{
    memset(src, 0, sizeof *src);
    if (len >= TK_SOURCE_MAX) {
        errno = EFBIG;
        return -1;
    }
    src->name = strdup(name);
    src->text = malloc(len + 1);
    if (!src->name || !src->text) goto fail;
    memcpy(src->text, text, len);
    src->text[len] = '\0';
    src->len = (uint32_t)len;
    if (build_line_table(src) != 0) goto fail;
    return 0;
fail:
    tk_source_free(src);
    errno = ENOMEM;
    return -1;
}

int tk_source_load(TkSource *src, const char *path)
{
    memset(src, 0, sizeof *src);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            if (cap > TK_SOURCE_MAX) {
                free(buf);
                fclose(f);
                errno = EFBIG;
                return -1;
            }
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return -1;
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        errno = EIO;
        return -1;
    }
    int rc = tk_source_from_memory(src, path, buf ? buf : "", len);
    free(buf);
    return rc;
}

void tk_source_free(TkSource *src)
{
    free(src->name);
    free(src->text);
    free(src->line_starts);
    memset(src, 0, sizeof *src);
}

void tk_source_position(const TkSource *src, uint32_t offset, uint32_t *line, uint32_t *col)
{
    uint32_t lo = 0, hi = src->nlines;   /* find the last line start <= offset */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (src->line_starts[mid] <= offset) lo = mid;
        else hi = mid;
    }
    *line = lo + 1;
    if (offset > src->len) offset = src->len;
    *col = tk_source_columns(src->text + src->line_starts[lo], offset - src->line_starts[lo]) + 1;
}

uint32_t tk_source_columns(const char *text, uint32_t len)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < len; i++)
        if (((unsigned char)text[i] & 0xc0) != 0x80) n++;   /* UTF-8 continuation bytes add no column */
    return n;
}

const char *tk_source_line(const TkSource *src, uint32_t line, uint32_t *len)
{
    if (line == 0 || line > src->nlines) {
        *len = 0;
        return "";
    }
    uint32_t b = src->line_starts[line - 1];
    uint32_t e = b;
    while (e < src->len && src->text[e] != '\n' && src->text[e] != '\r') e++;
    *len = e - b;
    return src->text + b;
}
