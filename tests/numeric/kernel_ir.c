/* kernel_ir.c — the LLVM IR (or assembly) of one kernel, for tests that check what the
 * compiler chose (a view read in place, a write-through), not only values. */
#define _GNU_SOURCE   /* open_memstream */
#include "numeric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *kernel_text(const char *name, const char *src, const char *kernel, const char *target, TkEmitKind kind)
{
    TkFront fe;
    TirModule m;
    memset(&fe, 0, sizeof fe);
    memset(&m, 0, sizeof m);
    char *text = NULL;
    size_t len = 0;
    if (tk_front_load_memory(&fe, name, src, strlen(src)) == 0 && tk_front_parse(&fe) == 0 && tk_front_check(&fe) == 0 &&
        tir_from_ast(&m, &fe.arena, &fe.src, &fe.diags, fe.items) == 0) {
        /* keep only the kernel asked for */
        TirFunc *keep = NULL;
        for (TirFunc *f = m.funcs; f; f = f->next)
            if (strcmp(f->name, kernel) == 0) keep = f;
        if (keep) {
            keep->next = NULL;
            m.funcs = keep;
            FILE *out = open_memstream(&text, &len);
            char err[512];
            TkCpuJitOptions jo = { .target = target, .opt_level = 2, .no_cache = true };
            if (out && tk_cpu_emit(&m, &jo, kind, out, err, sizeof err) != 0) {
                fclose(out);
                free(text);
                text = NULL;
                out = NULL;
            }
            if (out) fclose(out);
        }
    }
    tk_front_free(&fe);
    return text;
}

char *num_kernel_ir(const char *name, const char *src, const char *kernel, const char *target)
{
    return kernel_text(name, src, kernel, target, TK_EMIT_LLVM_IR);
}

char *num_kernel_asm(const char *name, const char *src, const char *kernel, const char *target)
{
    return kernel_text(name, src, kernel, target, TK_EMIT_ASM);
}
