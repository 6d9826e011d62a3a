/* dt_run.h — running one program on every configuration of this machine, in
 * a child process (dt_run_child), and the parent's view of the outcome
 * (dt_run_spawn). A crash or a hang of generated code then kills the child
 * only; the parent names the configuration that was running.
 *
 * The child prints one line per event on stdout:
 *   reject MSG | internal MSG | interp-error MSG | unreliable WHY
 *   start CONFIG
 *   config CONFIG ok|mismatch|compile-error|launch-error|threads-differ|skipped DETAIL
 *   done
 * and exits 0 (all configurations agree), 1 (a failure), 2 (not a usable
 * program: rejected, unreliable bounds, interpreter error). */
#ifndef TK_TESTS_GEN_DT_RUN_H
#define TK_TESTS_GEN_DT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    DT_OK,            /* every configuration matched the interpreter */
    DT_INVALID,       /* rejected by the checker, or the case is not usable */
    DT_MISMATCH,      /* a result outside its bound */
    DT_COMPILE,       /* a configuration failed to compile a checked program */
    DT_LAUNCH,        /* a launch failed */
    DT_THREADS,       /* 1 and 2 threads gave different bits */
    DT_CRASH,         /* the child died (signal) or hung */
    DT_INTERNAL,      /* lowering or the interpreter failed */
} DtOutcome;

const char *dt_outcome_name(DtOutcome o);

typedef struct {
    const char *file;       /* the .tk */
    const char *kernel;
    const char *sizes, *scalars;
    uint64_t input_seed;
    const char *configs;    /* comma-separated names, "all", or "none" (check and interpret only) */
    unsigned timeout_s;
} DtRunSpec;

typedef struct {
    DtOutcome outcome;
    char config[64];        /* the failing (or crashing) configuration */
    char detail[512];       /* its message */
    unsigned configs_run, configs_skipped;
    double compile_ms;      /* all configurations */
    long long checked, exact;   /* elements compared (all configurations), and those that had to match exactly */
    double use;             /* the largest fraction of an element's bound a configuration used */
    bool rejected;          /* DT_INVALID because the checker rejected it (a generator or checker bug) */
} DtRunResult;

/* Child side: run spec in this process, print the protocol. Returns the exit status. */
int dt_run_child(const DtRunSpec *spec);

/* Parent side: spawn `self --run ...` and read its report. 0, or -1 if the child could not be run. */
int dt_run_spawn(const char *self, const DtRunSpec *spec, const char *log_path, DtRunResult *r);

#endif
