/* difftest.c — tk_difftest, the random-program differential test.
 *
 *   tk_difftest [--first S] [--count N] [--time-budget SECONDS] [--stmts N]
 *               [--configs LIST] [--out DIR] [--reduce [--reduce-trials N]] [--json FILE] [--verbose]
 *       Generates the programs of seeds S .. S+N-1 (tests/gen/rpg.h), runs
 *       each on every configuration of this machine (dt_config.h) against
 *       the interpreter's error bounds, each program in a child process, and
 *       stops starting new ones after the time budget. A failing program is
 *       kept in DIR/failures (g<seed>.tk, its case and report in g<seed>.txt)
 *       and, with --reduce, shrunk to g<seed>.min.tk (dt_reduce.h). Prints a
 *       summary — programs, configurations run, failures by kind, the
 *       features covered — and exits 1 if anything failed.
 *   tk_difftest --emit-batch DIR [--first S] [--count N] [--time-budget SECONDS]
 *       Writes the usable programs of those seeds to DIR/kernels and their
 *       cases to DIR/manifest.txt (tol=bounds), for the AArch64 runs under
 *       qemu through tk_cross_gen and tests/cross/runner.c.
 *   tk_difftest --manifest FILE --kernels DIR [--configs LIST]
 *       Runs the cases of a manifest (the regression reproducers of
 *       tests/gen/regress) on every configuration.
 *   tk_difftest --run FILE --kernel K --sizes S --scalars V --input-seed X
 *               [--configs LIST] [--timeout SECONDS]
 *       The child: one program, in this process (dt_run.h).
 *   tk_difftest --list-configs */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dt_config.h"
#include "dt_reduce.h"
#include "dt_run.h"
#include "rpg.h"

typedef struct {
    uint64_t first, count;
    double budget_s;
    unsigned stmts;
    const char *configs;
    const char *out;
    const char *json;
    bool reduce, verbose;
    unsigned timeout_s;
    unsigned reduce_trials;   /* candidates a reduction may try (0: 400) */
} Options;

typedef struct {
    unsigned generated, usable, unreliable, failures;
    unsigned by_outcome[DT_INTERNAL + 1];
    unsigned configs_run, configs_skipped;
    unsigned features[RPG_NFEATURES];
    uint64_t last_seed;
    double compile_ms;
    long long checked, exact;
    double use;                 /* the largest fraction of a bound any element used */
    unsigned use_hist[5];       /* programs by their largest use: < 1e-3, < 1e-2, < 0.1, < 0.5, ≥ 0.5 */
} Totals;

static char self[4096];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int usage(void)
{
    fprintf(stderr, "usage: tk_difftest [--first S] [--count N] [--time-budget SECONDS] [--stmts N] [--configs LIST]\n"
                    "                   [--out DIR] [--reduce [--reduce-trials N]] [--json FILE] [--verbose]\n"
                    "       tk_difftest --emit-batch DIR [--first S] [--count N] [--time-budget SECONDS]\n"
                    "       tk_difftest --manifest FILE --kernels DIR [--configs LIST]\n"
                    "       tk_difftest --run FILE --kernel K --sizes S --scalars V --input-seed X [--configs LIST] [--timeout S]\n"
                    "       tk_difftest --list-configs\n");
    return 2;
}

static bool write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (!fp) return false;
    bool ok = fputs(text, fp) >= 0;
    return fclose(fp) == 0 && ok;
}

static bool make_dir(const char *path)
{
    return mkdir(path, 0755) == 0 || errno == EEXIST;
}

/* ---------------------------------------------------------------- one failure */

static void keep_failure(const Options *o, const RpgProgram *p, uint64_t seed, const char *file, const DtRunResult *r)
{
    char dir[4200], path[4400], text[16384];
    snprintf(dir, sizeof dir, "%s/failures", o->out);
    make_dir(dir);
    snprintf(path, sizeof path, "%s/g%llu.tk", dir, (unsigned long long)seed);
    write_file(path, p->source);
    snprintf(text, sizeof text, "case:    g%llu.tk %s %s %s seed=%llu\noutcome: %s on %s\ndetail:  %s\nrerun:   %s --run %s --kernel %s --sizes %s --scalars %s --input-seed %llu --configs %s\n",
             (unsigned long long)seed, p->kernel, p->sizes, p->scalars, (unsigned long long)seed, dt_outcome_name(r->outcome), r->config,
             r->detail, self, path, p->kernel, p->sizes, p->scalars, (unsigned long long)seed, r->config);
    snprintf(path, sizeof path, "%s/g%llu.txt", dir, (unsigned long long)seed);
    write_file(path, text);
    printf("FAIL seed %llu: %s on %s: %s\n  kept in %s/g%llu.tk (case in .txt)\n", (unsigned long long)seed, dt_outcome_name(r->outcome),
           r->config, r->detail, dir, (unsigned long long)seed);
    if (!o->reduce || r->outcome == DT_INVALID) return;

    char *src = strdup(p->source);
    char sizes[256];
    snprintf(sizes, sizeof sizes, "%s", p->sizes);
    DtReduceSpec rs = { .self = self, .work_dir = dir, .kernel = p->kernel, .scalars = p->scalars, .input_seed = seed,
                        .config = r->config[0] && strcmp(r->config, "?") != 0 ? r->config : "all", .outcome = r->outcome,
                        .timeout_s = o->timeout_s, .max_trials = o->reduce_trials, .verbose = o->verbose };
    double t0 = now_s();
    int trials = src ? dt_reduce(&rs, &src, sizes, sizeof sizes) : -1;
    if (trials < 0) {
        printf("  reduce: out of memory\n");
        free(src);
        return;
    }
    unsigned lines = 0;
    for (const char *c = src; *c; c++) lines += *c == '\n';
    snprintf(path, sizeof path, "%s/g%llu.min.tk", dir, (unsigned long long)seed);
    write_file(path, src);
    snprintf(path, sizeof path, "%s/g%llu.min.txt", dir, (unsigned long long)seed);
    snprintf(text, sizeof text, "g%llu.min.tk %s %s %s tol=bounds,seed=%llu\n", (unsigned long long)seed, p->kernel, sizes, p->scalars,
             (unsigned long long)seed);
    write_file(path, text);
    printf("  reduced in %d trials (%.0f s) to %u lines, sizes %s: %s/g%llu.min.tk\n", trials, now_s() - t0, lines, sizes, dir,
           (unsigned long long)seed);
    /* the reproducer itself, so that a CI log (whose build directory is gone) carries it */
    printf("---- g%llu.min.tk (case: %s %s %s seed=%llu) ----\n%s---- end ----\n", (unsigned long long)seed, p->kernel, sizes, p->scalars,
           (unsigned long long)seed, src);
    free(src);
    (void)file;
}

/* ---------------------------------------------------------------- the run */

static void print_summary(const Options *o, const Totals *t, double elapsed, FILE *out, bool json)
{
    if (json) {
        fprintf(out, "{\"first_seed\":%llu,\"last_seed\":%llu,\"generated\":%u,\"usable\":%u,\"unreliable\":%u,\"failures\":%u,",
                (unsigned long long)o->first, (unsigned long long)t->last_seed, t->generated, t->usable, t->unreliable, t->failures);
        fprintf(out, "\"configs_run\":%u,\"configs_skipped\":%u,\"elapsed_s\":%.1f,\"checked\":%lld,\"exact\":%lld,\"largest_bound_use\":%.4g,",
                t->configs_run, t->configs_skipped, elapsed, t->checked, t->exact, t->use);
        fprintf(out, "\"outcomes\":{");
        for (unsigned k = 0; k <= DT_INTERNAL; k++) fprintf(out, "%s\"%s\":%u", k ? "," : "", dt_outcome_name((DtOutcome)k), t->by_outcome[k]);
        fprintf(out, "},\"features\":{");
        for (unsigned f = 0; f < RPG_NFEATURES; f++) fprintf(out, "%s\"%s\":%u", f ? "," : "", rpg_feature_name(f), t->features[f]);
        fprintf(out, "}}\n");
        return;
    }
    unsigned covered = 0;
    for (unsigned f = 0; f < RPG_NFEATURES; f++) covered += t->features[f] > 0;
    fprintf(out, "difftest: seeds %llu..%llu: %u programs generated, %u run on every configuration (%u configuration runs, %u skipped: "
                 "not this CPU, or outside the GPU lowering for emu-sm80), %u discarded (bounds unreliable), %u failed; %.0f s (%.0f s compiling)\n",
            (unsigned long long)o->first, (unsigned long long)t->last_seed, t->generated, t->usable, t->configs_run, t->configs_skipped,
            t->unreliable, t->failures, elapsed, t->compile_ms / 1e3);
    fprintf(out, "difftest: %lld elements compared, %lld of them exactly (bound 0); the largest share of a bound used: %.3g; "
                 "programs by their largest share: <0.001 %u, <0.01 %u, <0.1 %u, <0.5 %u, >=0.5 %u\n",
            t->checked, t->exact, t->use, t->use_hist[0], t->use_hist[1], t->use_hist[2], t->use_hist[3], t->use_hist[4]);
    fprintf(out, "difftest: outcomes:");
    for (unsigned k = 0; k <= DT_INTERNAL; k++)
        if (t->by_outcome[k]) fprintf(out, " %s %u", dt_outcome_name((DtOutcome)k), t->by_outcome[k]);
    fprintf(out, "\ndifftest: %u of %u features covered:", covered, (unsigned)RPG_NFEATURES);
    for (unsigned f = 0; f < RPG_NFEATURES; f++) fprintf(out, " %s%s %u", f ? "," : "", rpg_feature_name(f), t->features[f]);
    fprintf(out, "\n");
}

static int run_seeds(const Options *o)
{
    char work[4200], file[4400], log[4400];
    if (!make_dir(o->out)) {
        fprintf(stderr, "tk_difftest: cannot create %s: %s\n", o->out, strerror(errno));
        return 2;
    }
    snprintf(work, sizeof work, "%s/work", o->out);
    make_dir(work);
    Totals t = { 0 };
    double t0 = now_s();
    for (uint64_t seed = o->first; seed < o->first + o->count; seed++) {
        if (o->budget_s > 0 && now_s() - t0 > o->budget_s) break;
        RpgOptions ro = { .seed = seed, .max_stmts = o->stmts };
        RpgProgram p;
        if (rpg_generate(&ro, &p) != 0) {
            fprintf(stderr, "tk_difftest: out of memory\n");
            return 2;
        }
        t.generated++;
        t.last_seed = seed;
        snprintf(file, sizeof file, "%s/g%llu.tk", work, (unsigned long long)seed);
        snprintf(log, sizeof log, "%s/g%llu.log", work, (unsigned long long)seed);
        if (!write_file(file, p.source)) {
            fprintf(stderr, "tk_difftest: cannot write %s\n", file);
            rpg_free(&p);
            return 2;
        }
        DtRunSpec rs = { .file = file, .kernel = p.kernel, .sizes = p.sizes, .scalars = p.scalars, .input_seed = seed,
                         .configs = o->configs, .timeout_s = o->timeout_s };
        DtRunResult r;
        if (dt_run_spawn(self, &rs, log, &r) != 0) {
            fprintf(stderr, "tk_difftest: %s\n", r.detail);
            rpg_free(&p);
            return 2;
        }
        t.by_outcome[r.outcome]++;
        t.configs_run += r.configs_run;
        t.configs_skipped += r.configs_skipped;
        t.compile_ms += r.compile_ms;
        t.checked += r.checked;
        t.exact += r.exact;
        if (r.outcome == DT_OK) {
            if (r.use > t.use) t.use = r.use;
            t.use_hist[r.use < 1e-3 ? 0 : r.use < 1e-2 ? 1 : r.use < 0.1 ? 2 : r.use < 0.5 ? 3 : 4]++;
        }
        bool failed = r.outcome != DT_OK && !(r.outcome == DT_INVALID && !r.rejected);
        if (r.outcome == DT_INVALID && !r.rejected) t.unreliable++;
        else {
            t.usable += r.outcome == DT_OK;
            for (unsigned f = 0; f < RPG_NFEATURES; f++) t.features[f] += p.features[f];
        }
        if (o->verbose) printf("seed %llu: %s%s%s (%u configurations)\n", (unsigned long long)seed, dt_outcome_name(r.outcome),
                               r.detail[0] ? ": " : "", r.detail, r.configs_run);
        if (failed) {
            t.failures++;
            keep_failure(o, &p, seed, file, &r);
        } else {
            remove(file);
            remove(log);
        }
        rpg_free(&p);
        if (!o->verbose && t.generated % 25 == 0) {
            printf("difftest: %u programs, %u failures, %.0f s\n", t.generated, t.failures, now_s() - t0);
            fflush(stdout);
        }
    }
    double elapsed = now_s() - t0;
    print_summary(o, &t, elapsed, stdout, false);
    if (o->json) {
        FILE *fp = fopen(o->json, "w");
        if (fp) {
            print_summary(o, &t, elapsed, fp, true);
            fclose(fp);
        }
    }
    rmdir(work);
    return t.failures ? 1 : 0;
}

/* ---------------------------------------------------------------- the AArch64 batch */

static int emit_batch(const Options *o, const char *dir)
{
    char kdir[4200], file[4400], log[4400], line[1024];
    snprintf(kdir, sizeof kdir, "%s/kernels", dir);
    if (!make_dir(dir) || !make_dir(kdir)) {
        fprintf(stderr, "tk_difftest: cannot create %s: %s\n", kdir, strerror(errno));
        return 2;
    }
    snprintf(file, sizeof file, "%s/manifest.txt", dir);
    FILE *man = fopen(file, "w");
    if (!man) {
        fprintf(stderr, "tk_difftest: cannot write %s\n", file);
        return 2;
    }
    fprintf(man, "# generated by tk_difftest --emit-batch (tests/gen): the usable programs of seeds %llu..\n", (unsigned long long)o->first);
    unsigned kept = 0, tried = 0;
    double t0 = now_s();
    for (uint64_t seed = o->first; seed < o->first + o->count; seed++) {
        if (o->budget_s > 0 && now_s() - t0 > o->budget_s) break;
        RpgOptions ro = { .seed = seed, .max_stmts = o->stmts };
        RpgProgram p;
        if (rpg_generate(&ro, &p) != 0) break;
        tried++;
        snprintf(file, sizeof file, "%s/g%llu.tk", kdir, (unsigned long long)seed);
        snprintf(log, sizeof log, "%s/g%llu.log", kdir, (unsigned long long)seed);
        bool ok = write_file(file, p.source);
        DtRunSpec rs = { .file = file, .kernel = p.kernel, .sizes = p.sizes, .scalars = p.scalars, .input_seed = seed, .configs = "none",
                         .timeout_s = o->timeout_s };
        DtRunResult r;
        ok = ok && dt_run_spawn(self, &rs, log, &r) == 0 && r.outcome == DT_OK;
        remove(log);
        if (ok) {
            snprintf(line, sizeof line, "g%llu.tk %s %s %s tol=bounds,seed=%llu\n", (unsigned long long)seed, p.kernel, p.sizes, p.scalars,
                     (unsigned long long)seed);
            fputs(line, man);
            kept++;
        } else {
            remove(file);
        }
        rpg_free(&p);
    }
    fclose(man);
    printf("difftest: %u of %u programs (seeds %llu..) written to %s\n", kept, tried, (unsigned long long)o->first, dir);
    return kept ? 0 : 1;
}

/* ---------------------------------------------------------------- a manifest of reproducers */

static int run_manifest(const Options *o, const char *manifest, const char *kdir)
{
    FILE *fp = fopen(manifest, "r");
    if (!fp) {
        fprintf(stderr, "tk_difftest: cannot open %s: %s\n", manifest, strerror(errno));
        return 2;
    }
    char line[2048], log[4400];
    snprintf(log, sizeof log, "%s/difftest_manifest.log", o->out);
    make_dir(o->out);
    unsigned cases = 0, failed = 0;
    while (fgets(line, sizeof line, fp)) {
        char file[512], kernel[128], sizes[256], scalars[256], opts[512] = "";
        if (line[0] == '#' || sscanf(line, "%511s %127s %255s %255s %511s", file, kernel, sizes, scalars, opts) < 4) continue;
        unsigned long long seed = 1;
        const char *sp = strstr(opts, "seed=");
        if (sp) seed = strtoull(sp + 5, NULL, 10);
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", kdir, file);
        DtRunSpec rs = { .file = path, .kernel = kernel, .sizes = sizes, .scalars = scalars, .input_seed = seed, .configs = o->configs,
                         .timeout_s = o->timeout_s };
        DtRunResult r;
        if (dt_run_spawn(self, &rs, log, &r) != 0) {
            fprintf(stderr, "tk_difftest: %s\n", r.detail);
            fclose(fp);
            return 2;
        }
        cases++;
        if (r.outcome != DT_OK) {
            failed++;
            printf("FAIL %s %s: %s on %s: %s\n", file, kernel, dt_outcome_name(r.outcome), r.config, r.detail);
        } else {
            printf("ok   %s %s (%u configurations)\n", file, kernel, r.configs_run);
        }
    }
    fclose(fp);
    remove(log);
    printf("difftest: %u cases of %s, %u failed\n", cases, manifest, failed);
    return failed || !cases ? 1 : 0;
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    Options o = { .first = 1, .count = 100, .configs = "all", .out = "difftest-out", .timeout_s = 120 };
    DtRunSpec child = { .configs = "all", .scalars = "-" };
    const char *batch = NULL, *manifest = NULL, *kdir = NULL;
    bool is_child = false;
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) snprintf(self, sizeof self, "%s", argv[0]);
    else self[n] = '\0';
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define VALUE() (v ? argv[++i] : (usage(), exit(2), ""))
        if (strcmp(a, "--first") == 0) o.first = strtoull(VALUE(), NULL, 0);
        else if (strcmp(a, "--count") == 0) o.count = strtoull(VALUE(), NULL, 0);
        else if (strcmp(a, "--time-budget") == 0) o.budget_s = strtod(VALUE(), NULL);
        else if (strcmp(a, "--stmts") == 0) o.stmts = (unsigned)atoi(VALUE());
        else if (strcmp(a, "--configs") == 0) o.configs = child.configs = VALUE();
        else if (strcmp(a, "--out") == 0) o.out = VALUE();
        else if (strcmp(a, "--json") == 0) o.json = VALUE();
        else if (strcmp(a, "--reduce") == 0) o.reduce = true;
        else if (strcmp(a, "--reduce-trials") == 0) o.reduce_trials = (unsigned)atoi(VALUE());
        else if (strcmp(a, "--verbose") == 0) o.verbose = true;
        else if (strcmp(a, "--timeout") == 0) o.timeout_s = child.timeout_s = (unsigned)atoi(VALUE());
        else if (strcmp(a, "--emit-batch") == 0) batch = VALUE();
        else if (strcmp(a, "--manifest") == 0) manifest = VALUE();
        else if (strcmp(a, "--kernels") == 0) kdir = VALUE();
        else if (strcmp(a, "--run") == 0) child.file = VALUE(), is_child = true;
        else if (strcmp(a, "--kernel") == 0) child.kernel = VALUE();
        else if (strcmp(a, "--sizes") == 0) child.sizes = VALUE();
        else if (strcmp(a, "--scalars") == 0) child.scalars = VALUE();
        else if (strcmp(a, "--input-seed") == 0) child.input_seed = strtoull(VALUE(), NULL, 0);
        else if (strcmp(a, "--list-configs") == 0) {
            for (unsigned k = 0; k < dt_nconfigs; k++) {
                char why[256] = "";
                bool here = dt_config_available(&dt_configs[k], why, sizeof why);
                printf("%-26s %s\n", dt_configs[k].name, here ? "runs here" : why);
            }
            return 0;
        } else return usage();
#undef VALUE
    }
    if (is_child) {
        if (!child.kernel || !child.sizes) return usage();
        return dt_run_child(&child);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (batch) return emit_batch(&o, batch);
    if (manifest) {
        if (!kdir) return usage();
        return run_manifest(&o, manifest, kdir);
    }
    return run_seeds(&o);
}
