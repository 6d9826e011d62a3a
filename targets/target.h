/* target.h — the machines tkc generates code for, one table row each: the
 * LLVM triple, CPU and feature string, and which backend handles it. `host`
 * is resolved from the running CPU. Names are what --target accepts. */
#ifndef TK_TARGETS_TARGET_H
#define TK_TARGETS_TARGET_H

#include <stdbool.h>
#include <stddef.h>

/* TK_TARGET_EMU: a GPU's lowering run on this CPU (targets/emu/); its cpu is
 * the emulated processor ("sm_80"), its code is for the host */
typedef enum { TK_TARGET_CPU, TK_TARGET_AMDGPU, TK_TARGET_NVPTX, TK_TARGET_EMU } TkTargetKind;

typedef struct {
    const char *name;
    TkTargetKind kind;
    const char *triple;        /* NULL: the host's */
    const char *cpu;           /* NULL: the host's */
    const char *features;      /* NULL: the host's; listed in full, since they also pick micro-kernels */
    const char *description;
} TkTarget;

/* NULL if unknown. */
const TkTarget *tk_target_find(const char *name);
const TkTarget *tk_target_table(unsigned *count);

/* The concrete triple/cpu/features of a target (host fields filled in).
 * Strings are owned by the result; free with tk_target_resolved_free. */
typedef struct {
    const TkTarget *target;
    char *triple, *cpu, *features;
} TkResolvedTarget;

int tk_target_resolve(const TkTarget *t, TkResolvedTarget *out, char *err, size_t errlen);
void tk_target_resolved_free(TkResolvedTarget *r);

/* The keys a per-target default `target(...)` matches for this target, most
 * specific first: a GPU's processor (sm_90a, gfx942), its family (x86,
 * aarch64, amdgpu, nvptx), then its class (cpu, gpu); how many (2 or 3).
 * t NULL: the host. */
unsigned tk_target_default_keys(const TkTarget *t, const char *keys[3]);

/* Can code for this target run in this process? (same arch and the CPU has its features) */
bool tk_target_runs_here(const TkResolvedTarget *r);

#endif
