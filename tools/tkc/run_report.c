/* run_report.c — see run_report.h. JSON has no NaN or infinity: such numbers
 * are written as the strings "nan", "inf", "-inf". */
#include "run_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Below this many mma FLOPs per byte moved a kernel is reported by its
 * bandwidth too: CPUs' ridge points (peak FLOP/s over DRAM bytes/s) lie
 * around 10–60 for vector FMA, higher only for AMX. */
#define BANDWIDTH_INTENSITY 64.0

static void json_str(const char *s)
{
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
        if (*c == '"' || *c == '\\') printf("\\%c", *c);
        else if (*c < 0x20) printf("\\u%04x", *c);
        else putchar(*c);
    }
    putchar('"');
}

static void json_num(double v)
{
    if (isnan(v)) printf("\"nan\"");
    else if (isinf(v)) printf(v > 0 ? "\"inf\"" : "\"-inf\"");
    else printf("%.9g", v);
}

static const char *elem_name(TkTypeKind k) { return k == TK_TY_BF16 ? "bf16" : k == TK_TY_F16 ? "f16" : "f32"; }

/* The multi-index of flat index i of tensor p. */
static unsigned unflatten(const RunArgs *A, unsigned p, int64_t i, int64_t *at)
{
    unsigned rank = A->args[p].rank;
    for (int d = (int)rank - 1; d >= 0; d--) {
        int64_t e = A->args[p].shape[d] > 0 ? A->args[p].shape[d] : 1;
        at[d] = i % e;
        i /= e;
    }
    return rank;
}

static void print_json(const RunReport *r)
{
    const RunOptions *o = r->o;
    const RunCheck *c = &r->check;
    const RunTiming *t = r->timing;
    printf("{\"file\":");
    json_str(o->file);
    printf(",\"kernel\":");
    json_str(r->f ? r->f->display : "");
    printf(",\"target\":");
    json_str(o->target ? o->target : "host");
    printf(",\"compiled\":%s,\"compile_ms\":%.1f,\"cache_hit\":%s,", r->compiled ? "true" : "false", r->compile_ms,
           r->cache_hit ? "true" : "false");
    if (c->ran) {
        int64_t nan_both = 0;
        for (unsigned i = 0; i < c->ntensors; i++) nan_both += c->t[i].output ? c->t[i].nan_both : 0;
        printf("\"correct\":%s,\"checked_against\":", c->correct ? "true" : "false");
        json_str(c->basis);
        printf(",\"reference\":");
        if (o->reference) json_str(o->reference);
        else printf("null");
        printf(",\"bounds_note\":");
        if (c->bounds_note[0]) json_str(c->bounds_note);
        else printf("null");
        printf(",\"max_abs_err\":");
        json_num(c->max_abs);
        printf(",\"max_rel_err\":");
        json_num(c->max_rel);
        printf(",\"nan_outputs\":%lld,\"tensors\":[", (long long)nan_both);
        for (unsigned i = 0; i < c->ntensors; i++) {
            const RunTensorCheck *k = &c->t[i];
            printf("%s{\"name\":", i ? "," : "");
            json_str(k->name);
            printf(",\"dtype\":\"%s\",\"output\":%s,\"against\":", elem_name(k->elem), k->output ? "true" : "false");
            json_str(k->against);
            printf(",\"checked\":%lld,\"bad\":%lld,\"max_abs_err\":", (long long)k->checked, (long long)k->bad);
            json_num(k->max_abs);
            printf(",\"max_rel_err\":");
            json_num(k->max_rel);
            printf(",\"max_ratio\":");
            json_num(k->max_ratio);
            printf(",\"atol\":");
            json_num(k->atol);
            printf(",\"rtol\":");
            json_num(k->rtol);
            printf(",\"depth\":");
            json_num(k->depth);
            printf(",\"scale\":");
            json_num(k->scale);
            printf(",\"bounds\":%s}", k->bounds ? "true" : "false");
        }
        printf("],\"worst\":");
        if (c->worst_tensor >= 0) {
            const RunTensorCheck *k = &c->t[c->worst_tensor];
            int64_t at[TK_GL_MAX_RANK];
            unsigned rank = unflatten(r->args, k->param, k->worst, at);
            printf("{\"tensor\":");
            json_str(k->name);
            printf(",\"index\":%lld,\"at\":[", (long long)k->worst);
            for (unsigned d = 0; d < rank; d++) printf("%s%lld", d ? "," : "", (long long)at[d]);
            printf("],\"value\":");
            json_num(k->worst_value);
            printf(",\"reference\":");
            json_num(k->worst_ref);
            printf(",\"abs_err\":");
            json_num(k->worst_abs);
            printf(",\"allowed\":");
            json_num(k->worst_allowed);
            printf(",\"ratio\":");
            json_num(k->worst_ratio);
            printf("}");
        } else {
            printf("null");
        }
        printf(",");
    } else {
        printf("\"correct\":null,");
    }
    if (r->timed) {
        printf("\"ms\":%.6f,\"min_ms\":%.6f,\"spread_ms\":%.6f,\"p10_ms\":%.6f,\"p90_ms\":%.6f,\"samples\":%d,\"batch\":%d,", t->median,
               t->min, t->spread, t->p10, t->p90, t->n, t->inner);
        if (o->times) {
            printf("\"times_ms\":[");
            for (int i = 0; i < t->n; i++) printf("%s%.6f", i ? "," : "", t->samples[i]);
            printf("],");
        }
    } else {
        printf("\"ms\":null,");
    }
    printf("\"threads\":%d,", r->threads);
    if (r->emulated)
        printf("\"ldmatrix\":%lu,\"ldmatrix_conflicts\":%lu,\"cp_async\":%lu,\"wgmma\":%lu,\"tma\":%lu,", r->ldmatrix,
               r->ldmatrix_conflicts, r->cp_async, r->wgmma, r->tma);
    if (r->timed && r->flops_known) {
        double gflops = t->median > 0 ? r->flops / (t->median * 1e6) : 0;
        printf("\"gflop\":%.6g,\"gflops\":%.2f,", r->flops / 1e9, gflops);
        if (r->flops > 0) {
            printf("\"peak_gflops\":%.1f,\"peak_basis\":", r->peak.gflops);
            json_str(r->peak.basis);
            printf(",\"pct_peak\":%.2f,", r->peak.gflops > 0 ? 100 * gflops / r->peak.gflops : 0);
        }
    }
    if (r->timed) {
        printf("\"bytes\":%.0f,\"gbps\":%.3f,", r->bytes, t->median > 0 ? r->bytes / (t->median * 1e6) : 0);
        if (r->flops_known) printf("\"intensity\":%.4g,", r->bytes > 0 ? r->flops / r->bytes : 0);
    }
    printf("\"error\":");
    if (r->status) json_str(r->err);
    else printf("null");
    printf("}\n");
}

static void print_text(const RunReport *r)
{
    const RunOptions *o = r->o;
    const RunCheck *c = &r->check;
    const RunTiming *t = r->timing;
    printf("kernel    %s (%s)\n", r->f ? r->f->display : "?", o->file);
    printf("compiled  %s", r->compiled ? "yes" : "no");
    if (r->compiled)
        printf(" (%.1f ms, %s %s, O3, %s%s)", r->compile_ms, o->target ? o->target : "host", r->gpu ? "driver JIT of the PTX" : "JIT",
               o->generic || r->unspecialised ? "generic" : "specialised for the sizes", r->cache_hit ? ", from the cache" : "");
    printf("\n");
    if (c->ran) {
        printf("correct   %s (vs %s", c->correct ? "yes" : "NO", c->basis);
        if (o->reference) printf(": %s", o->reference);
        printf(")\n");
        for (unsigned i = 0; i < c->ntensors; i++) {
            const RunTensorCheck *k = &c->t[i];
            if (!k->output && !k->bad) continue;   /* inputs that stayed as they were */
            printf("  %-8s %s%s: %lld of %lld bad, max abs err %.3g (atol %.3g), max rel err %.3g (rtol %.3g), depth %.0f%s\n", k->name,
                   elem_name(k->elem), k->output ? "" : " input", (long long)k->bad, (long long)k->checked, k->max_abs, k->atol,
                   k->max_rel, k->rtol, k->depth, k->bounds ? ", and the interpreter's bounds" : "");
        }
        if (c->bounds_note[0]) printf("  note: %s\n", c->bounds_note);
        if (!c->correct && c->worst_tensor >= 0) {
            const RunTensorCheck *k = &c->t[c->worst_tensor];
            int64_t at[TK_GL_MAX_RANK];
            unsigned rank = unflatten(r->args, k->param, k->worst, at);
            printf("  worst    %s[", k->name);
            for (unsigned d = 0; d < rank; d++) printf("%s%lld", d ? ", " : "", (long long)at[d]);
            printf("] (flat %lld) = %.9g, reference %.9g, |diff| %.3g > allowed %.3g\n", (long long)k->worst, k->worst_value,
                   k->worst_ref, k->worst_abs, k->worst_allowed);
        }
        int64_t nan_both = 0;
        for (unsigned i = 0; i < c->ntensors; i++) nan_both += c->t[i].output ? c->t[i].nan_both : 0;
        if (nan_both) printf("warning   %lld elements are NaN in both (the kernel as written produces them)\n", (long long)nan_both);
    }
    if (r->emulated && r->compiled)
        printf("emulator  %lu ldmatrix in the first launch, %lu of their 8x8 matrices with shared-memory bank conflicts; %lu cp.async; %lu wgmma; %lu tma\n",
               r->ldmatrix, r->ldmatrix_conflicts, r->cp_async, r->wgmma, r->tma);
    if (r->timed) {
        printf("time      %.4g ms (median; min %.4g ms, spread p90-p10 %.2g ms over %d samples; %d thread%s)\n", t->median, t->min,
               t->spread, t->n, r->threads, r->threads == 1 ? "" : "s");
        double gflops = t->median > 0 ? r->flops / (t->median * 1e6) : 0;
        if (r->flops_known && r->flops > 0 && r->peak.gflops > 0)
            printf("speed     %.2f GFLOP/s (%.3f GFLOP of mma), %.1f%% of %.0f GFLOP/s peak (%s)\n", gflops, r->flops / 1e9,
                   100 * gflops / r->peak.gflops, r->peak.gflops, r->peak.basis);
        else if (r->flops_known && r->flops > 0)   /* a GPU or the emulator: no CPU peak to compare with */
            printf("speed     %.2f GFLOP/s (%.3f GFLOP of mma)\n", gflops, r->flops / 1e9);
        if (!r->flops_known || r->flops <= 0 || r->flops / (r->bytes > 0 ? r->bytes : 1) < BANDWIDTH_INTENSITY)
            printf("memory    %.2f GB/s (%.4g MB: tensors loaded once + stored once)\n", t->median > 0 ? r->bytes / (t->median * 1e6) : 0,
                   r->bytes / 1e6);
    }
    if (r->status) fprintf(stderr, "tkc run: %s\n", r->err);
}

void run_report(const RunReport *r)
{
    if (r->o->json) {
        print_json(r);
        if (r->status && !r->check_failed) fprintf(stderr, "tkc run: %s\n", r->err);
    } else {
        print_text(r);
    }
}
