/* cpu_jit.h — CPU code generation: TIR → LLVM IR → machine code, either in
 * this process (ORC LLJIT, with a disk cache of compiled objects) or into
 * files (LLVM IR, assembly, object) for any CPU target of targets/target.h. */
#ifndef TK_TARGETS_CPU_JIT_H
#define TK_TARGETS_CPU_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "launch.h"
#include "tir.h"

typedef struct TkCpuModule TkCpuModule;
struct LLVMOpaqueModule;

typedef struct {
    const char *target;   /* a name from targets/target.h; NULL = host */
    int opt_level;        /* 0..3 */
    bool debug_info;      /* DWARF line tables pointing at the .tk source */
    bool no_cache;        /* skip the disk cache (TK_CACHE=0 does the same) */
    const char *specialise_kernel;   /* if set: compile this kernel for these sizes only */
    const int64_t *specialise_sizes; /* (lower/passes/tir_specialise.h); they join the cache key */
    unsigned specialise_count;
    double *compile_ms;   /* if set: wall time from TIR to callable code */
    bool *cache_hit;      /* if set: whether the object came from the cache */
    /* tk_cpu_emit only: called with the LLVM module (an LLVMModuleRef) once the
     * kernels are in it, to add globals of its own (tkc -c for a GPU target) */
    void (*extend)(struct LLVMOpaqueModule *mod, void *arg);
    void *extend_arg;
} TkCpuJitOptions;

/* Compiles every kernel of m for a target that runs here (the target's passes
 * and any specialisation rewrite m). 0, or -1 + message. */
int tk_cpu_jit(TirModule *m, const TkCpuJitOptions *opts, TkCpuModule **out, char *err, size_t errlen);
int tk_cpu_lookup(TkCpuModule *mod, const char *kernel, TkGridFn *grid, TkBlockFn *block, char *err, size_t errlen);
void tk_cpu_module_free(TkCpuModule *mod);

/* A function the JIT'd code calls that this process does not export by name. */
typedef struct {
    const char *name;
    void *addr;
} TkCpuSymbol;

/* Loads host object code (obj, consumed; e.g. from the emulation target)
 * into a new JIT of this process, with syms[0 .. nsyms) defined for it. */
struct LLVMOpaqueMemoryBuffer;
int tk_cpu_jit_object(struct LLVMOpaqueMemoryBuffer *obj, const TkCpuSymbol *syms, unsigned nsyms, TkCpuModule **out,
                      char *err, size_t errlen);
/* The address of symbol `name` of mod. */
int tk_cpu_lookup_symbol(TkCpuModule *mod, const char *name, void **addr, char *err, size_t errlen);

typedef enum { TK_EMIT_LLVM_IR, TK_EMIT_ASM, TK_EMIT_OBJ } TkEmitKind;

/* Writes LLVM IR / assembly / an object file for any CPU target (the
 * target's passes rewrite m, as for the JIT). */
int tk_cpu_emit(TirModule *m, const TkCpuJitOptions *opts, TkEmitKind kind, FILE *out, char *err, size_t errlen);

/* Where compiled objects are cached: $TK_CACHE_DIR, else $XDG_CACHE_HOME/tilekit,
 * else ~/.cache/tilekit. */
int tk_cpu_cache_dir(char *buf, size_t len);

#endif
