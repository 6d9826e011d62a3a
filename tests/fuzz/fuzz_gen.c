/* fuzz_gen.c — libFuzzer target over the whole pipeline, fed with valid
 * programs: the input's bytes are the choices of the random program
 * generator (tests/gen/rpg.h), so every input is a program the checker must
 * accept, and libFuzzer's coverage feedback steers the generator towards
 * untried paths of the checker, the lowering, the passes and the emitter:
 *
 *   generate → check → TIR (verified) → interpreter with error bounds →
 *   TIR passes → LLVM IR → machine code (host JIT, O1) → run → compare
 *
 * A rejected program, a TIR that fails verification, an interpreter error, a
 * compile error or a result outside the interpreter's bounds prints the
 * program and calls abort(), which libFuzzer reports as a crash and saves as
 * a reproducer (replay: fuzz_gen FILE). Sanitizer reports, leaks and hangs
 * fail it the same way. A case whose bounds are unreliable is skipped.
 *
 * Build: scripts/fuzz.sh (clang-22, -fsanitize=fuzzer,address,undefined). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_case.h"
#include "dt_config.h"
#include "rpg.h"

static void fail(const char *what, const char *detail, const RpgProgram *p)
{
    fprintf(stderr, "\nfuzz_gen: %s: %s\n---- program (case %s %s) ----\n%s\n", what, detail, p->sizes, p->scalars, p->source);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    RpgOptions o = { .bytes = data, .nbytes = size, .max_stmts = 8, .kernel_name = "fuzzed" };
    RpgProgram p;
    if (rpg_generate(&o, &p) != 0) return 0;   /* out of memory: not the pipeline's fault */
    char err[2048] = "";
    DtProgram prog;
    DtLoad l = dt_program_load(&prog, "fuzzed.tk", p.source, err, sizeof err);
    if (l != DT_LOAD_OK) fail(l == DT_LOAD_REJECTED ? "the checker rejected a generated program" : "lowering failed", err, &p);
    const TirFunc *f = dt_program_kernel(&prog, p.kernel);
    if (!f) fail("no kernel", p.kernel, &p);
    DtCase c;
    if (dt_case_make(&c, f, p.sizes, p.scalars, 1, err, sizeof err) != 0) fail("the interpreter failed", err, &p);
    if (!c.unreliable) {
        static const DtConfig jit = { "fuzz-jit-host-O1", NULL, 1, false, false, 1, false };
        DtCompiled k;
        if (dt_compile(&jit, "fuzzed.tk", p.source, p.kernel, c.sizes, c.nsizes, &k, err, sizeof err) != 0)
            fail("a checked program did not compile", err, &p);
        if (tk_cpu_launch(k.grid, k.block, c.args, c.sizes, 1, err, sizeof err) != 0) fail("the launch failed", err, &p);
        DtCompare r;
        if (dt_case_compare(&c, &r) != 0) {
            snprintf(err, sizeof err, "%s: got %.9g, want %.9g (allowed %.3g); %lld elements outside their bounds", r.where, r.got, r.want,
                     r.allowed, (long long)r.bad);
            fail("a result is outside the interpreter's bounds", err, &p);
        }
        dt_compiled_free(&k);
    }
    dt_case_free(&c);
    dt_program_free(&prog);
    rpg_free(&p);
    return 0;
}
