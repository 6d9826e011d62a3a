/* run_report.h — what `tkc run` prints: one JSON object (--json; every field
 * is listed in docs/AGENTS.md) or a few lines of text. */
#ifndef TK_TOOLS_TKC_RUN_REPORT_H
#define TK_TOOLS_TKC_RUN_REPORT_H

#include "run_internal.h"

typedef struct {
    const RunOptions *o;
    const TirFunc *f;          /* NULL if no kernel was found */
    const RunArgs *args;
    int status;                /* the exit status */
    char err[1024];            /* why, when status != 0 */
    bool compiled, cache_hit;
    bool unspecialised;   /* compiled for any sizes although tkc run specialises (the GPU targets and the emulator) */
    bool gpu;             /* ran on a GPU through the CUDA driver */
    bool emulated;        /* ran on the emulation target: its counts of the checked launch follow */
    unsigned long ldmatrix, ldmatrix_conflicts, cp_async, wgmma, tma;
    double compile_ms;
    bool check_failed;         /* status 1 because of the check alone */
    RunCheck check;
    bool timed;
    RunTiming *timing;
    int threads;
    bool flops_known;
    double flops, bytes;
    RunPeak peak;
} RunReport;

void run_report(const RunReport *r);

#endif
