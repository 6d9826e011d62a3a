/* cpu_jit.c — see cpu_jit.h. */
#include "cpu_jit.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "llvm_emit.h"

struct TkCpuModule {
    LLVMOrcLLJITRef jit;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void init_native(void)
{
    static int done;
    if (!done) {
        LLVMInitializeNativeTarget();
        LLVMInitializeNativeAsmPrinter();
        done = 1;
    }
}

static int take_error(LLVMErrorRef e, const char *what, char *err, size_t errlen)
{
    if (!e) return 0;
    char *msg = LLVMGetErrorMessage(e);
    snprintf(err, errlen, "%s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
}

static LLVMTargetMachineRef host_machine(int opt_level, char *err, size_t errlen)
{
    char *triple = LLVMGetDefaultTargetTriple();
    char *cpu = LLVMGetHostCPUName();
    char *features = LLVMGetHostCPUFeatures();
    LLVMTargetRef target;
    char *msg = NULL;
    LLVMTargetMachineRef tm = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &msg) != 0) {
        snprintf(err, errlen, "no LLVM target for %s: %s", triple, msg ? msg : "?");
        LLVMDisposeMessage(msg);
    } else {
        LLVMCodeGenOptLevel lvl = opt_level >= 3 ? LLVMCodeGenLevelAggressive : opt_level == 0 ? LLVMCodeGenLevelNone : LLVMCodeGenLevelDefault;
        tm = LLVMCreateTargetMachine(target, triple, cpu, features, lvl, LLVMRelocDefault, LLVMCodeModelJITDefault);
        if (!tm) snprintf(err, errlen, "cannot create a target machine for %s (%s)", triple, cpu);
    }
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    return tm;
}

/* Emits, verifies and optimises m into a new module in ctx. */
static LLVMModuleRef build_module(const TirModule *m, LLVMContextRef ctx, LLVMTargetMachineRef tm, int opt_level, char *err,
                                  size_t errlen)
{
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("tilekit", ctx);
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(mod, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(mod, td);
    LLVMDisposeTargetData(td);
    char *features = LLVMGetTargetMachineFeatureString(tm);
    int rc = tk_emit_llvm(m, ctx, mod, features, err, errlen);
    LLVMDisposeMessage(features);
    if (rc != 0) {
        LLVMDisposeModule(mod);
        return NULL;
    }
    char *msg = NULL;
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg) != 0) {
        snprintf(err, errlen, "internal error: generated LLVM IR does not verify: %.200s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        LLVMDisposeModule(mod);
        return NULL;
    }
    LLVMDisposeMessage(msg);
    if (opt_level > 0) {
        LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
        char pipeline[32];
        snprintf(pipeline, sizeof pipeline, "default<O%d>", opt_level > 3 ? 3 : opt_level);
        LLVMErrorRef e = LLVMRunPasses(mod, pipeline, tm, po);
        LLVMDisposePassBuilderOptions(po);
        if (take_error(e, "optimisation failed", err, errlen) != 0) {
            LLVMDisposeModule(mod);
            return NULL;
        }
    }
    return mod;
}

int tk_cpu_print_llvm(const TirModule *m, int opt_level, FILE *out, char *err, size_t errlen)
{
    init_native();
    LLVMTargetMachineRef tm = host_machine(opt_level, err, errlen);
    if (!tm) return -1;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = build_module(m, ctx, tm, opt_level, err, errlen);
    int rc = -1;
    if (mod) {
        char *text = LLVMPrintModuleToString(mod);
        fputs(text, out);
        LLVMDisposeMessage(text);
        LLVMDisposeModule(mod);
        rc = 0;
    }
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    return rc;
}

int tk_cpu_jit(const TirModule *m, const TkCpuJitOptions *opts, TkCpuModule **out, char *err, size_t errlen)
{
    *out = NULL;
    init_native();
    int opt = opts ? opts->opt_level : 3;
    double t0 = now_ms();
    LLVMTargetMachineRef tm = host_machine(opt, err, errlen);
    if (!tm) return -1;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = build_module(m, ctx, tm, opt, err, errlen);
    if (!mod) {
        LLVMContextDispose(ctx);
        LLVMDisposeTargetMachine(tm);
        return -1;
    }
    if (opts && opts->dump_llvm) {
        char *text = LLVMPrintModuleToString(mod);
        fputs(text, opts->dump_llvm);
        LLVMDisposeMessage(text);
    }
    /* The JIT builds its own machine from this one (it takes ownership). */
    LLVMOrcJITTargetMachineBuilderRef jtmb = LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm);
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);
    TkCpuModule *cm = calloc(1, sizeof *cm);
    if (!cm) {
        LLVMOrcDisposeLLJITBuilder(builder);
        LLVMDisposeModule(mod);
        LLVMContextDispose(ctx);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (take_error(LLVMOrcCreateLLJIT(&cm->jit, builder), "cannot create the JIT", err, errlen) != 0) {
        free(cm);
        LLVMDisposeModule(mod);
        LLVMContextDispose(ctx);
        return -1;
    }
    /* libm (expf, tanhf, ...) and memcpy/memset come from this process */
    LLVMOrcDefinitionGeneratorRef gen;
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(cm->jit);
    if (LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(cm->jit), NULL, NULL) == NULL)
        LLVMOrcJITDylibAddGenerator(jd, gen);
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContextFromLLVMContext(ctx);
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(mod, tsc);
    LLVMOrcDisposeThreadSafeContext(tsc);
    if (take_error(LLVMOrcLLJITAddLLVMIRModule(cm->jit, jd, tsm), "cannot add the module", err, errlen) != 0) {
        tk_cpu_module_free(cm);
        return -1;
    }
    /* Look every kernel up once now, so that compilation happens here and is timed. */
    for (const TirFunc *f = m->funcs; f; f = f->next) {
        TkGridFn g;
        TkBlockFn b;
        if (tk_cpu_lookup(cm, f->name, &g, &b, err, errlen) != 0) {
            tk_cpu_module_free(cm);
            return -1;
        }
    }
    if (opts && opts->compile_ms) *opts->compile_ms = now_ms() - t0;
    *out = cm;
    return 0;
}

int tk_cpu_lookup(TkCpuModule *mod, const char *kernel, TkGridFn *grid, TkBlockFn *block, char *err, size_t errlen)
{
    char name[512];
    LLVMOrcExecutorAddress addr;
    snprintf(name, sizeof name, "%s__grid", kernel);
    if (take_error(LLVMOrcLLJITLookup(mod->jit, &addr, name), "lookup failed", err, errlen) != 0) return -1;
    *grid = (TkGridFn)(uintptr_t)addr;
    snprintf(name, sizeof name, "%s__block", kernel);
    if (take_error(LLVMOrcLLJITLookup(mod->jit, &addr, name), "lookup failed", err, errlen) != 0) return -1;
    *block = (TkBlockFn)(uintptr_t)addr;
    return 0;
}

void tk_cpu_module_free(TkCpuModule *mod)
{
    if (!mod) return;
    if (mod->jit) LLVMOrcDisposeLLJIT(mod->jit);
    free(mod);
}
