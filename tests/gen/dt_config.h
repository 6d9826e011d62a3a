/* dt_config.h — the ways the differential test compiles and runs a program
 * on this machine: the host JIT at -O0 and -O3, specialised on the sizes
 * (as `tkc run` does) and generic (as libtk does), the JIT for each explicit
 * x86-64 target this CPU can run (SSE2, AVX2, AVX-512, AVX-512-BF16, AMX),
 * an AOT object (tk_cpu_emit, linked into a shared object by the system
 * C compiler, dlopen'ed), and the sm_80 GPU lowering on the emulation target
 * (programs within what it lowers; the others are counted as skipped). The AArch64 targets run the same programs under
 * qemu in batches (tests/gen/CMakeLists.txt, through tests/cross). */
#ifndef TK_TESTS_GEN_DT_CONFIG_H
#define TK_TESTS_GEN_DT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "launch.h"

typedef struct {
    const char *name;      /* as reports and --config name it */
    const char *target;    /* NULL: host */
    int opt_level;
    bool specialise;       /* compile for the case's sizes only */
    bool aot;              /* an object, linked and dlopen'ed */
    int threads;
    bool emu;              /* the GPU lowering on the emulation target (targets/emu): a program outside what it lowers is skipped */
} DtConfig;

extern const DtConfig dt_configs[];
extern const unsigned dt_nconfigs;

const DtConfig *dt_config_find(const char *name);
/* Whether the config's code can run on this CPU (why not, in why). */
bool dt_config_available(const DtConfig *c, char *why, size_t len);

typedef struct {
    void *mod;             /* TkCpuModule (JIT) */
    void *so;              /* dlopen handle (AOT) */
    char dir[512];         /* AOT scratch directory */
    TkGridFn grid;
    TkBlockFn block;
    double compile_ms;
} DtCompiled;

/* Compiles kernel of source text under config c (sizes: the case's, for
 * specialisation). 0; 1 with err if an emulation config does not lower the
 * program (it is skipped, not failed); -1 with err. */
int dt_compile(const DtConfig *c, const char *name, const char *text, const char *kernel, const int64_t *sizes, unsigned nsizes,
               DtCompiled *out, char *err, size_t errlen);
void dt_compiled_free(DtCompiled *o);

#endif
