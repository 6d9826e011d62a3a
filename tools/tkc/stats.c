/* stats.c — see stats.h. */
#define _GNU_SOURCE   /* mkstemps */
#include "stats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_jit.h"
#include "gpu_lower.h"
#include "nvptx.h"
#include "nvptx_mma.h"
#include "ptxas.h"
#include "target.h"

typedef struct {
    char name[128];
    long regs, smem, spill_st, spill_ld, stack;
    bool have;
} Ptxas;

/* "ptxas info : Compiling entry function 'NAME' ..." then its usage lines */
static unsigned parse_log(const char *log, Ptxas *k, unsigned max)
{
    FILE *f = fopen(log, "r");
    if (!f) return 0;
    char line[1024];
    unsigned n = 0;
    Ptxas *cur = NULL;
    while (fgets(line, sizeof line, f)) {
        char *q = strstr(line, "Compiling entry function '");
        if (q && n < max) {
            cur = &k[n++];
            memset(cur, 0, sizeof *cur);
            q += strlen("Compiling entry function '");
            size_t l = strcspn(q, "'");
            snprintf(cur->name, sizeof cur->name, "%.*s", (int)l, q);
            continue;
        }
        if (!cur) continue;
        if ((q = strstr(line, "bytes stack frame"))) {
            sscanf(strstr(line, ": ") ? strstr(line, ": ") + 2 : line, "%ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads",
                   &cur->stack, &cur->spill_st, &cur->spill_ld);
        }
        if ((q = strstr(line, "Used "))) {
            cur->have = sscanf(q, "Used %ld registers", &cur->regs) == 1;
            char *s = strstr(line, "bytes smem");
            if (s) {
                while (s > line && s[-1] == ' ') s--;
                while (s > line && (s[-1] >= '0' && s[-1] <= '9')) s--;
                cur->smem = strtol(s, NULL, 10);
            }
        }
    }
    fclose(f);
    return n;
}

/* base tiles of the NVIDIA row an mma of these shapes decomposes into */
static int64_t mma_count(const TirInstr *i, const TkGpuMma *row)
{
    const TkType *acc = i->args[0]->type, *a = i->args[1]->type;
    return (acc->dims[0] / row->m) * (acc->dims[1] / row->n) * (a->dims[1] / row->k);
}

/* the most base-tile mmas in one iteration of any loop (the K step), and those outside loops */
static void count_mma(const TirRegion *r, const TkGpuMma *row, bool in_loop, int64_t *per_step, int64_t *outside)
{
    int64_t here = 0;
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_MMA) here += mma_count(i, row);
        if (i->op == TIR_FOR) count_mma(&i->body[0], row, true, per_step, outside);
        if (i->op == TIR_IF) {
            count_mma(&i->body[0], row, in_loop, per_step, outside);
            count_mma(&i->body[1], row, in_loop, per_step, outside);
        }
    }
    if (in_loop && here > *per_step) *per_step = here;
    if (!in_loop) *outside += here;
}

/* wgmma.mma_async instructions in kernel `name`'s part of the PTX text, and
 * the N of the first (0 if none) */
static long count_wgmma(const char *ptx_path, const char *name, int *n)
{
    FILE *f = fopen(ptx_path, "r");
    *n = 0;
    if (!f) return 0;
    char line[1024], entry[160];
    snprintf(entry, sizeof entry, ".entry %s(", name);
    long count = 0;
    bool in = false;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, ".entry ")) in = strstr(line, entry) != NULL;
        const char *w = in ? strstr(line, "wgmma.mma_async.sync.aligned.m64n") : NULL;
        if (!w) continue;
        if (!count++) *n = atoi(w + strlen("wgmma.mma_async.sync.aligned.m64n"));
    }
    fclose(f);
    return count;
}


int tkc_stats(TirModule *m, const char *target, FILE *out, char *err, size_t errlen)
{
    const TkTarget *t = tk_target_find(target ? target : "host");
    if (!t || t->kind != TK_TARGET_NVPTX) {
        snprintf(err, errlen, "--stats reports GPU code: give --target=sm_80, sm_90 or sm_90a");
        return -1;
    }
    /* PTX into a file for ptxas */
    char ptx[] = "/tmp/tk_stats_XXXXXX.ptx", log[64];
    int fd = mkstemps(ptx, 4);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary file: %s", strerror(errno));
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    int rc = f ? tk_nvptx_emit(m, t->name, TK_EMIT_ASM, f, err, errlen) : -1;
    if (f) fclose(f);
    if (rc != 0) {
        unlink(ptx);
        return rc;
    }
    snprintf(log, sizeof log, "%.*s.log", (int)(strlen(ptx) - 4), ptx);
    char pbuf[4096];
    const char *ptxas = tkc_find_ptxas(pbuf, sizeof pbuf);
    Ptxas k[64];
    unsigned nk = 0;
    if (ptxas && tkc_run_ptxas(ptxas, t->cpu, ptx, "/dev/null", 1, log) == 0) nk = parse_log(log, k, 64);
    unlink(log);
    unsigned nrows;
    const TkNvptxMma *rows = tk_nvptx_mma_table(&nrows);
    const TkGpuMma *row = &rows[0].mma;   /* the one bf16 row; tk_nvptx_emit checked the kernels fit it */
    int sm = tk_nvptx_sm(t->cpu, NULL);
    long sm_smem = sm >= 90 ? 228 * 1024 : 164 * 1024;   /* shared memory per SM */
    for (const TirFunc *fn = m->funcs; fn; fn = fn->next) {
        int warps = fn->warps > 0 ? fn->warps : 1, threads = 32 * warps;
        int64_t per_step = 0, outside = 0;
        count_mma(&fn->body, row, false, &per_step, &outside);
        const Ptxas *p = NULL;
        for (unsigned j = 0; j < nk; j++)
            if (strcmp(k[j].name, fn->name) == 0) p = &k[j];
        TkGpuTarget gt = { &tk_gpu_nvptx, t->cpu, 32 };
        long smem = p ? p->smem : (long)tk_gpu_shared_bytes(fn, &gt);
        fprintf(out, "kernel %s (%s): %d threads, %ld B shared", fn->name, t->name, threads, smem);
        if (p && p->have) {
            /* blocks per SM: registers (allocated per warp in units of 256), shared memory, threads, 32 blocks */
            long regs_warp = (p->regs * 32 + 255) / 256 * 256, by_regs = regs_warp ? 65536 / (regs_warp * warps) : 32;
            long by_smem = smem ? sm_smem / smem : 32, by_threads = 2048 / threads, blocks = 32;
            const char *limit = "blocks";
            if (by_threads < blocks) blocks = by_threads, limit = "threads";
            if (by_smem < blocks) blocks = by_smem, limit = "shared memory";
            if (by_regs < blocks) blocks = by_regs, limit = "registers";
            fprintf(out, ", %ld registers, %ld B spill stores, %ld B spill loads, %ld B stack; occupancy %ld of 64 warps per SM (%ld%%, limited by %s)",
                    p->regs, p->spill_st, p->spill_ld, p->stack, blocks * warps, blocks * warps * 100 / 64, limit);
        } else {
            fprintf(out, "; registers, spills and occupancy unknown (%s)", ptxas ? "ptxas failed" : "no ptxas: the CUDA toolkit is not installed");
        }
        int wn;
        long wg = count_wgmma(ptx, fn->name, &wn);
        if (wg) {
            /* products a warpgroup reads B for from a shared tile are wgmma (gpu_wgmma.c), counted as their
             * m16n8k16 equivalents per warp */
            if (per_step) fprintf(out, "; %lld m%dn%dk%d products per K step", (long long)per_step, row->m, row->n, row->k);
            fprintf(out, "; wgmma: %ld wgmma.mma_async m64n%dk16 in its PTX (one per warpgroup, 16 rows of each warp)", wg, wn);
        } else {
            if (per_step) fprintf(out, "; %lld mma.sync m%dn%dk%d per K step", (long long)per_step, row->m, row->n, row->k);
            if (outside) fprintf(out, "%s%lld mma.sync outside loops", per_step ? ", " : "; ", (long long)outside);
        }
        fputc('\n', out);
    }
    unlink(ptx);
    return 0;
}
