/* fuzz_tensor_files.c — libFuzzer over the tensor runtime's file readers
 * (runtime/io: .npy, ONNX TensorProto .pb, .safetensors). The first byte of
 * an input picks the reader, the rest is the file: it is written to a file in
 * memory (memfd) and read by path, as a user's file is. Every tensor a reader
 * returns is touched in full (a copy), so a wrong size or offset shows up
 * under ASan; any crash, sanitizer report or leak fails the run. */
#define _GNU_SOURCE   /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tk/io.h"
#include "tk/tensor.h"

static void touch(tk_context *ctx, tk_tensor *t)
{
    tk_tensor *c = NULL;
    if (tk_clone(ctx, t, &c) == TK_OK) tk_tensor_release(c);
    tk_tensor_release(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    int fd = memfd_create("tk_fuzz", 0);
    if (fd < 0) return 0;
    if (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
        close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    tk_context *ctx;
    if (tk_context_create(&(tk_context_opts){ .threads = 1 }, &ctx) != TK_OK) {
        close(fd);
        return 0;
    }
    tk_tensor *t = NULL;
    switch (data[0] % 3) {
    case 0:
        if (tk_load_npy(ctx, path, &t) == TK_OK) touch(ctx, t);
        break;
    case 1: {
        char *name = NULL;
        if (tk_load_onnx_tensor_named(ctx, path, &t, &name) == TK_OK) touch(ctx, t);
        free(name);
        break;
    }
    default: {
        tk_safetensors *f = NULL;
        if (tk_load_safetensors(ctx, path, &f) == TK_OK) {
            for (size_t i = 0; i < tk_safetensors_count(f); i++)
                if (tk_safetensors_get(ctx, f, tk_safetensors_name(f, i), &t) == TK_OK) touch(ctx, t);
            for (size_t i = 0; i < tk_safetensors_metadata_count(f); i++) (void)tk_safetensors_metadata(f, tk_safetensors_metadata_key(f, i));
            tk_safetensors_free(f);
        }
        break;
    }
    }
    tk_context_free(ctx);
    close(fd);
    return 0;
}
