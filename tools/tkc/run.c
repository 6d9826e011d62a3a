/* run.c — see run.h. This is the edit-compile-measure loop for people and
 * agents writing kernels:
 *
 *   tkc run examples/gemm.tk --kernel gemm --size M=512,N=512,K=512 --check --json
 *
 * Pipeline, read top to bottom in tkc_run: options (run_opts.c) → load →
 * check → TIR → JIT → arguments (run_args.c: random, --input) → first launch
 * → --output-dir → check (run_check.c: own interpretation, --reference,
 * --expect) → timing (run_time.c) → FLOPs, bytes, peak (peak_probe.c) →
 * report (run_report.c). */
#include "run.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_jit.h"
#include "front.h"
#include "launch.h"
#include "lower.h"
#include "run_internal.h"
#include "run_report.h"
#include "emu.h"
#include "run_cuda.h"
#include "target.h"
#include "tir_bind.h"
#include "tir_flops.h"

typedef struct {
    TkGridFn grid;
    TkBlockFn block;
    void *ptrs[RUN_MAX_PARAMS];
    const int64_t *sizes;
    int threads;
    bool emulated;   /* an emulation target: a failed block leaves its message with the emulator */
} Launch;

static int launch_once(void *ctx, char *err, size_t errlen)
{
    Launch *l = ctx;
    int rc = tk_cpu_launch(l->grid, l->block, l->ptrs, l->sizes, l->threads, err, errlen);
    if (rc == 0 && l->emulated && tk_emu_take_error(err, errlen)) rc = -1;
    return rc;
}

/* Binds `--size` to the kernel's size variables, by name. */
static int parse_sizes(const RunOptions *o, const TirFunc *f, int64_t *sizes, char *err, size_t errlen)
{
    unsigned n = f->sizes ? f->sizes->count : 0;
    bool seen[TK_MAX_SIZES] = { false };
    const char *p = o->sizes ? o->sizes : "";
    while (*p) {
        const char *eq = strchr(p, '=');
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        if (!eq || eq > end) {
            snprintf(err, errlen, "--size wants NAME=VALUE pairs separated by commas, got '%.*s'", (int)(end - p), p);
            return -1;
        }
        unsigned k = 0;
        while (k < n && (strlen(f->sizes->names[k]) != (size_t)(eq - p) || strncmp(f->sizes->names[k], p, (size_t)(eq - p)) != 0)) k++;
        if (k == n) {
            snprintf(err, errlen, "kernel %s has no size '%.*s'", f->display, (int)(eq - p), p);
            return -1;
        }
        char *stop;
        errno = 0;
        long long v = strtoll(eq + 1, &stop, 10);
        if (stop != end || errno || v < 0 || v > INT32_MAX) {
            snprintf(err, errlen, "size %s: '%.*s' is not a size (0 .. 2147483647)", f->sizes->names[k], (int)(end - eq - 1), eq + 1);
            return -1;
        }
        sizes[k] = v;
        seen[k] = true;
        p = *end ? end + 1 : end;
    }
    for (unsigned k = 0; k < n; k++) {
        if (!seen[k]) {
            size_t len = (size_t)snprintf(err, errlen, "--size must give %s (kernel %s has sizes:", f->sizes->names[k], f->display);
            for (unsigned j = 0; j < n && len < errlen; j++) len += (size_t)snprintf(err + len, errlen - len, " %s", f->sizes->names[j]);
            if (len < errlen) snprintf(err + len, errlen - len, ")");
            return -1;
        }
    }
    return 0;
}

/* Does the kernel multiply bf16 operands? Then its peak is the bf16 one. */
static bool has_bf16_mma(const TirRegion *r)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_MMA && i->nargs > 1 && i->args[1]->type->elem == TK_TY_BF16) return true;
        if (has_bf16_mma(&i->body[0]) || has_bf16_mma(&i->body[1])) return true;
    }
    return false;
}

/* Every tensor the kernel loads from counted once, every one it stores into once more. */
static double bytes_moved(const TirFunc *f, const RunArgs *A)
{
    bool loaded[RUN_MAX_PARAMS], stored[RUN_MAX_PARAMS];
    run_tensor_use(f, loaded, stored);
    double bytes = 0;
    for (unsigned p = 0; p < f->nparams; p++)
        if (f->params[p].type->kind == TK_TY_GL)
            bytes += (double)A->count[p] * (double)tir_elem_size(f->params[p].type->elem) * (loaded[p] + stored[p]);
    return bytes;
}

static void target_features(const char *target, char *out, size_t len)
{
    out[0] = '\0';
    const TkTarget *t = tk_target_find(target ? target : "host");
    TkResolvedTarget rt;
    char err[256];
    if (!t || tk_target_resolve(t, &rt, err, sizeof err) != 0) return;
    snprintf(out, len, "%s", rt.features ? rt.features : "");
    tk_target_resolved_free(&rt);
}

void tkc_run_help(void) { run_print_help(); }

int tkc_run(int argc, char **argv)
{
    RunOptions o;
    int rc = run_parse_options(argc, argv, &o);
    if (rc != RUN_OK) return rc;
    if (o.help) {
        run_print_help();
        return RUN_OK;
    }
    RunReport R;
    memset(&R, 0, sizeof R);
    R.o = &o;
    char *err = R.err;
    const size_t errlen = sizeof R.err;
    TkFront f;
    if (tk_front_load(&f, o.file) != 0) {
        fprintf(stderr, "tkc run: cannot read '%s': %s\n", o.file, strerror(errno));
        return RUN_USAGE;
    }
    int status = RUN_OK;
    TkCpuModule *mod = NULL;
    RunCuda gpu;   /* an NVIDIA target: the kernel runs on the GPU */
    memset(&gpu, 0, sizeof gpu);
    RunArgs A;
    memset(&A, 0, sizeof A);
    static RunTiming timing;
    R.timing = &timing;
    /* --kernel 'gemm<64,64,128>' asks the front end for that instance */
    const char *keys[3];
    unsigned nkeys = tk_target_default_keys(tk_target_find(o.target ? o.target : "host"), keys);
    f.generic = (TkGenericOptions){ .instances = o.kernel ? (const char *const *)&o.kernel : NULL, .ninstances = o.kernel ? 1 : 0,
                                    .target_keys = keys, .ntarget_keys = nkeys, .target_name = o.target ? o.target : "host" };
    char want[512];
    if (o.kernel && tk_generic_canonical(o.kernel, want, sizeof want) != 0) snprintf(want, sizeof want, "%s", o.kernel);
    tk_front_parse(&f);
    tk_front_check(&f);
    TirModule m;
    int64_t sizes[TK_MAX_SIZES] = { 0 };
    const TirFunc *fn = NULL;
    if (f.diags.errors) {
        tk_diags_print_text(&f.diags, stderr);
        snprintf(err, errlen, "%s has errors", o.file);
        status = RUN_FAILED;
    } else if (tir_from_ast(&m, &f.arena, &f.src, &f.diags, f.items) != 0 || tir_verify(&m, stderr) != 0) {
        tk_diags_print_text(&f.diags, stderr);
        snprintf(err, errlen, "internal error while lowering %s", o.file);
        status = RUN_FAILED;
    } else {
        for (const TirFunc *k = m.funcs; k; k = k->next)
            if (o.kernel ? strcmp(k->display, want) == 0 : !fn) fn = k;
        if (!fn) {
            snprintf(err, errlen, o.kernel ? "no kernel named '%s' in %s" : "%s%s has no kernel", o.kernel ? o.kernel : "", o.file);
            status = RUN_USAGE;
        } else if (!o.kernel && m.funcs->next) {
            snprintf(err, errlen, "%s has several kernels; choose one with --kernel", o.file);
            status = RUN_USAGE;
        } else if (parse_sizes(&o, fn, sizes, err, errlen) != 0) {
            status = RUN_USAGE;
        } else {
            /* the arguments first: a bad --input is a usage error, and needs no compile */
            status = run_make_args(&o, fn, sizes, &A, err, errlen);
            if (status == RUN_OK && tir_bind_sizes(fn, A.args, A.n, sizes, err, errlen) != 0) status = RUN_USAGE;
        }
        if (status == RUN_OK) {
            /* the sizes are known: compile the kernel specialised for them */
            TkCpuJitOptions jo = { .target = o.target, .opt_level = 3, .debug_info = o.debug, .compile_ms = &R.compile_ms,
                                   .cache_hit = &R.cache_hit };
            if (!o.generic) {
                jo.specialise_kernel = fn->name;
                jo.specialise_sizes = sizes;
                jo.specialise_count = fn->sizes ? fn->sizes->count : 0;
            }
            const TkTarget *tt = tk_target_find(o.target ? o.target : "host");
            bool gpu_like = tt && (tt->kind == TK_TARGET_NVPTX || tt->kind == TK_TARGET_EMU);
            double t0 = run_now_ms();
            /* the emulator compiles only the kernel it runs: a file's other kernels
             * can keep LLVM busy for a minute (attention.tk's packed forms) */
            int rc;
            if (tt && tt->kind == TK_TARGET_EMU) {
                TirFunc *only = (TirFunc *)fn, *rest = only->next;
                TirModule one = m;
                one.funcs = only;
                only->next = NULL;
                rc = tk_emu_jit(&one, o.target, &mod, err, errlen);
                only->next = rest;
            } else {
                rc = tt && tt->kind == TK_TARGET_NVPTX ? run_cuda_start(&gpu, &m, fn, o.target, &A, sizes, err, errlen)
                                                       : tk_cpu_jit(&m, &jo, &mod, err, errlen);
            }
            if (gpu_like) {   /* the CPU JIT times itself */
                R.compile_ms = run_now_ms() - t0;
                R.unspecialised = true;
                R.gpu = tt->kind == TK_TARGET_NVPTX;
            }
            if (rc == 0) R.compiled = true;
            else status = RUN_FAILED;
        }
    }
    R.f = fn;
    R.args = &A;
    const TkTarget *target = tk_target_find(o.target ? o.target : "host");
    Launch L = { .sizes = sizes, .threads = tk_cpu_threads(o.threads), .emulated = target && target->kind == TK_TARGET_EMU };
    R.threads = L.threads;
    bool launched = false;
    bool on_gpu = gpu.cu != NULL;
    int (*launch)(void *, char *, size_t) = on_gpu ? run_cuda_launch : launch_once;
    void *launch_ctx = on_gpu ? (void *)&gpu : (void *)&L;
    if (status == RUN_OK && !on_gpu && tk_cpu_lookup(mod, fn->name, &L.grid, &L.block, err, errlen) != 0) status = RUN_FAILED;
    for (unsigned p = 0; p < A.n; p++) L.ptrs[p] = A.args[p].data;
    /* the first launch is the one that is checked and written out */
    TkEmuCounts counts;
    tk_emu_take_counts(&counts);
    if (status == RUN_OK && launch(launch_ctx, err, errlen) != 0) status = RUN_FAILED;
    tk_emu_take_counts(&counts);
    R.emulated = L.emulated && status == RUN_OK;
    R.ldmatrix = counts.ldmatrix;
    R.ldmatrix_conflicts = counts.ldmatrix_conflicts;
    R.cp_async = counts.cp_async;
    R.wgmma = counts.wgmma;
    R.tma = counts.tma;
    if (status == RUN_OK && on_gpu && run_cuda_fetch(&gpu, &A, err, errlen) != 0) status = RUN_FAILED;
    launched = status == RUN_OK;
    if (status == RUN_OK && o.output_dir && run_write_outputs(o.output_dir, fn, &A, err, errlen) != 0) status = RUN_USAGE;
    if (status == RUN_OK) {
        double flops = 0;
        R.flops_known = tir_count_flops(fn, A.scalar, sizes, &flops);
        R.flops = flops;
        R.bytes = bytes_moved(fn, &A);
    }
    if (status == RUN_OK && o.check) {
        RunCheckInput in = { &o, fn, sizes, R.flops_known ? R.flops / 2 : -1 };
        status = run_check(&in, &A, &R.check, err, errlen);
        if (status == RUN_OK && !R.check.correct) {
            status = RUN_FAILED;
            R.check_failed = true;
            snprintf(err, errlen, "check failed: results differ from the %s beyond the pass rule",
                     o.reference ? "reference" : o.nexpects && !o.reference ? "expected values" : "interpreter");
        }
    }
    /* timing runs even when the check failed: the numbers still say something */
    if (launched && (status == RUN_OK || R.check_failed)) {
        char terr[256];
        if (run_time_kernel(&o, L.threads, launch, launch_ctx, &timing, terr, sizeof terr) != 0) {
            snprintf(err, errlen, "a timed launch failed: %s", terr);
            status = RUN_FAILED;
            R.check_failed = false;
        } else {
            R.timed = true;
        }
    }
    if (R.timed && R.flops_known && R.flops > 0 && !on_gpu && !L.emulated) {   /* the CPU's peak */
        char features[4096];
        target_features(o.target, features, sizeof features);
        run_peak(L.threads, has_bf16_mma(&fn->body), features, &R.peak);
    }
    R.status = status;
    run_report(&R);
    run_free_args(&A);
    tk_cpu_module_free(mod);
    run_cuda_end(&gpu);
    tk_front_free(&f);
    return status;
}
