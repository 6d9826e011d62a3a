/* file_map.c — see file_map.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_map.h"
#include "internal.h"

tk_status tkr_file_map(tk_context *ctx, const char *op, const char *path, TkrFileMap **out)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return tkr_error(ctx, TK_ERR_IO, "%s: cannot read '%s': %s", op, path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return tkr_error(ctx, TK_ERR_IO, "%s: '%s' is not a regular file", op, path);
    }
    if ((uint64_t)st.st_size > SIZE_MAX / 2) {
        close(fd);
        return tkr_error(ctx, TK_ERR_IO, "%s: '%s' is too large to map", op, path);
    }
    size_t len = (size_t)st.st_size;
    void *base = NULL;
    if (len) {
        base = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (base == MAP_FAILED) {
            int e = errno;
            close(fd);
            return tkr_error(ctx, TK_ERR_IO, "%s: cannot map '%s': %s", op, path, strerror(e));
        }
    }
    close(fd);   /* the mapping keeps the file */
    TkrFileMap *m = calloc(1, sizeof *m);
    if (!m) {
        if (base) munmap(base, len);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    }
    m->data = base;
    m->len = len;
    __atomic_store_n(&m->refs, 1, __ATOMIC_RELAXED);
    *out = m;
    return TK_OK;
}

void tkr_file_map_retain(TkrFileMap *m)
{
    if (m) __atomic_add_fetch(&m->refs, 1, __ATOMIC_RELAXED);
}

void tkr_file_map_release(TkrFileMap *m)
{
    if (m && __atomic_sub_fetch(&m->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        if (m->data) munmap((void *)m->data, m->len);
        free(m);
    }
}

static void release_ref(void *data, void *arg)
{
    (void)data;
    tkr_file_map_release(arg);
}

tk_status tkr_file_map_tensor(tk_context *ctx, TkrFileMap *m, const void *p, tk_dtype dtype, int ndim, const int64_t *shape,
                              tk_tensor **out)
{
    tkr_file_map_retain(m);
    tk_status s = tk_from_blob(ctx, (void *)p, dtype, ndim, shape, NULL, TK_BLOB_READONLY, release_ref, m, out);
    if (s) tkr_file_map_release(m);
    return s;
}
