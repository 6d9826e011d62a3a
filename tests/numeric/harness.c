/* harness.c — see numeric.h. */
#include "numeric.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NUM_KERNEL_DIR
#define NUM_KERNEL_DIR "."
#endif
#ifndef NUM_TKC
#define NUM_TKC "tkc"
#endif

/* ---------------------------------------------------------------- numbers
 * The bf16/f16 conversions are those of tools/tkc/run.c. */

uint16_t num_f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);   /* quiet NaN */
    u += 0x7fffu + ((u >> 16) & 1u);                                            /* round to nearest even */
    return (uint16_t)(u >> 16);
}

float num_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t num_f32_to_f16(float f)
{
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}

float num_f16_to_f32(uint16_t u)
{
    _Float16 h;
    memcpy(&h, &u, 2);
    return (float)h;
}

double num_round(TkTypeKind k, double x)
{
    switch (k) {
    case TK_TY_F32: return (float)x;
    case TK_TY_BF16: return num_bf16_to_f32(num_f32_to_bf16((float)x));
    case TK_TY_F16: return num_f16_to_f32(num_f32_to_f16((float)x));
    default: return x;
    }
}

double num_eps(TkTypeKind k) { return k == TK_TY_BF16 ? 0x1p-7 : k == TK_TY_F16 ? 0x1p-10 : 0x1p-23; }

static size_t elem_size(TkTypeKind k) { return k == TK_TY_F32 ? 4 : 2; }

static double elem_get(TkTypeKind k, const void *data, int64_t i)
{
    switch (k) {
    case TK_TY_F32: return ((const float *)data)[i];
    case TK_TY_BF16: return num_bf16_to_f32(((const uint16_t *)data)[i]);
    case TK_TY_F16: return num_f16_to_f32(((const uint16_t *)data)[i]);
    default: return 0;
    }
}

static void elem_set(TkTypeKind k, void *data, int64_t i, double v)
{
    switch (k) {
    case TK_TY_F32: ((float *)data)[i] = (float)v; break;
    case TK_TY_BF16: ((uint16_t *)data)[i] = num_f32_to_bf16((float)v); break;
    case TK_TY_F16: ((uint16_t *)data)[i] = num_f32_to_f16((float)v); break;
    default: break;
    }
}

/* Position of x on the line of representable values of kind k (monotone in
 * x, consecutive values differ by 1), for ulp distances. x finite. */
static int64_t ordinal(TkTypeKind k, double x)
{
    int64_t u;
    if (k == TK_TY_F32) {
        float f = (float)x;
        uint32_t b;
        memcpy(&b, &f, 4);
        u = b & 0x7fffffff;
        return (b >> 31) ? -u : u;
    }
    uint16_t h = k == TK_TY_BF16 ? num_f32_to_bf16((float)x) : num_f32_to_f16((float)x);
    u = h & 0x7fff;
    return (h >> 15) ? -u : u;
}

uint64_t num_rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

double num_uniform(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(num_rng_next(s) >> 11) / 9007199254740992.0);
}

/* ---------------------------------------------------------------- strings */

void ns_printf(NumStr *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) abort();
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + (size_t)n + 1) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) abort();
        b->s = s;
        b->cap = cap;
    }
}

void ns_free(NumStr *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

/* ---------------------------------------------------------------- stats */

void num_count(uint64_t launches, uint64_t elements)
{
    const char *path = getenv("NUM_STATS_FILE");
    if (!path || !*path) return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) return;
    char line[64];
    int n = snprintf(line, sizeof line, "%llu %llu\n", (unsigned long long)launches, (unsigned long long)elements);
    if (write(fd, line, (size_t)n) != n) { /* statistics only */ }
    close(fd);
}

/* ---------------------------------------------------------------- programs */

static void write_source(NumProg *p)
{
    mkdir(NUM_KERNEL_DIR, 0755);
    snprintf(p->path, sizeof p->path, "%s/%s.tk", NUM_KERNEL_DIR, p->group);
    FILE *fp = fopen(p->path, "w");
    if (!fp) {
        snprintf(p->path, sizeof p->path, "%s.tk", p->group);   /* display name only */
        return;
    }
    fputs(p->src, fp);
    fclose(fp);
}

void num_build(NumProg *p, const char *group, const char *src) { num_build_target(p, group, src, NULL); }

void num_build_target(NumProg *p, const char *group, const char *src, const char *target)
{
    memset(p, 0, sizeof *p);
    p->group = group;
    p->target = target;
    p->src = strdup(src);
    if (!p->src) {
        snprintf(p->err, sizeof p->err, "out of memory");
        return;
    }
    write_source(p);
    if (tk_front_load_memory(&p->fe, p->path, p->src, strlen(p->src)) != 0) {
        snprintf(p->err, sizeof p->err, "cannot load the source");
        return;
    }
    p->have_front = true;
    char *text = NULL;
    size_t len = 0;
    FILE *ms = open_memstream(&text, &len);
    unsigned errors = tk_front_parse(&p->fe);
    if (errors == 0) errors = tk_front_check(&p->fe);
    if (errors) {
        tk_diags_print_text(&p->fe.diags, ms);
        fclose(ms);
        snprintf(p->err, sizeof p->err, "front end rejected %s:\n%.2900s", p->path, text ? text : "");
        free(text);
        return;
    }
    if (tir_from_ast(&p->m, &p->fe.arena, &p->fe.src, &p->fe.diags, p->fe.items) != 0) {
        tk_diags_print_text(&p->fe.diags, ms);
        fclose(ms);
        snprintf(p->err, sizeof p->err, "lowering failed for %s:\n%.2900s", p->path, text ? text : "");
        free(text);
        return;
    }
    if (tir_verify(&p->m, ms) != 0) {
        fclose(ms);
        snprintf(p->err, sizeof p->err, "TIR does not verify for %s:\n%.2900s", p->path, text ? text : "");
        free(text);
        return;
    }
    fclose(ms);
    free(text);
    char err[1024] = "";
    double jit_ms = 0;
    TkCpuJitOptions jo = { .target = target, .opt_level = 3, .compile_ms = &jit_ms };
    if (tk_cpu_jit(&p->m, &jo, &p->mod, err, sizeof err) != 0) {
        if (target && strstr(err, "cannot run on this CPU")) p->unavailable = true;
        snprintf(p->err, sizeof p->err, "JIT failed for %s%s%s: %s", p->path, target ? " --target=" : "", target ? target : "", err);
        p->mod = NULL;
        return;
    }
    p->built = true;
    if (getenv("NUM_VERBOSE")) fprintf(stderr, "numeric: group %s (%s) compiled in %.0f ms\n", group, target ? target : "host", jit_ms);
}

void num_free(NumProg *p)
{
    if (p->mod) tk_cpu_module_free(p->mod);
    if (p->have_front) tk_front_free(&p->fe);
    free(p->src);
    memset(p, 0, sizeof *p);
}

static const TirFunc *find_kernel(const NumProg *p, const char *name)
{
    for (const TirFunc *f = p->m.funcs; f; f = f->next)
        if (strcmp(f->name, name) == 0) return f;
    return NULL;
}

/* ---------------------------------------------------------------- runs */

/* Value of `name` in "a=1,b=2" (NULL if absent); copied into buf. */
static const char *lookup_kv(const char *list, const char *name, char *buf, size_t buflen)
{
    if (!list) return NULL;
    size_t nl = strlen(name);
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (eq && (size_t)(eq - p) == nl && strncmp(p, name, nl) == 0) {
            size_t vl = (size_t)(end - eq - 1);
            if (vl >= buflen) vl = buflen - 1;
            memcpy(buf, eq + 1, vl);
            buf[vl] = '\0';
            return buf;
        }
        p = *end ? end + 1 : end;
    }
    return NULL;
}

static NumTol tol_for(const NumSpec *s, const char *param)
{
    for (unsigned k = 0; k < sizeof s->per / sizeof s->per[0]; k++)
        if (s->per[k].param && strcmp(s->per[k].param, param) == 0) return s->per[k].tol;
    return s->tol;
}

static bool within(double got, double want, TkTypeKind k, NumTol t)
{
    if (t.skip) return true;
    want = num_round(k, want);   /* what a tensor of kind k can hold (the interpreter keeps f32 values in double) */
    if (isnan(got) || isnan(want)) return t.nan_ok || (isnan(got) && isnan(want));
    if (isinf(got) || isinf(want)) return got == want;
    if (t.zero_sign && got == 0 && want == 0 && signbit(got) != signbit(want)) return false;
    if (t.rtol == 0 && t.atol == 0) {
        /* exact mode: got within `ulps` of want rounded to the element type */
        double w = num_round(k, want);
        if (isinf(w)) return got == w;
        int64_t d = ordinal(k, got) - ordinal(k, w);
        return (d < 0 ? -d : d) <= t.ulps;
    }
    if (fabs(got - want) <= t.atol + t.rtol * fabs(want)) return true;
    if (t.ulps > 0) {
        double w = num_round(k, want);
        if (isinf(w)) return false;
        int64_t d = ordinal(k, got) - ordinal(k, w);
        if (d < 0) d = -d;
        return d <= t.ulps;
    }
    return false;
}

static void describe_index(const NumRun *r, unsigned p, int64_t i, char *buf, size_t len)
{
    int64_t idx[4], rest = i;
    for (int d = (int)r->rank[p] - 1; d >= 0; d--) {
        int64_t e = r->shape[p][d] > 0 ? r->shape[p][d] : 1;
        idx[d] = rest % e;
        rest /= e;
    }
    size_t o = (size_t)snprintf(buf, len, "[");
    for (unsigned d = 0; d < r->rank[p] && o < len; d++) o += (size_t)snprintf(buf + o, len - o, "%s%lld", d ? ", " : "", (long long)idx[d]);
    if (o < len) snprintf(buf + o, len - o, "]");
}

void num_expect(const double *got, const double *want, int64_t n, TkTypeKind k, NumTol tol, const char *what)
{
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < n; i++)
        if (!within(got[i], want[i], k, tol)) {
            if (first < 0) first = i;
            bad++;
        }
    num_count(0, (uint64_t)n);
    if (bad)
        ck_abort_msg("%s: %lld of %lld elements differ; first at %lld: got %.9g, want %.9g (rtol %g, atol %g, ulps %d)", what,
                     (long long)bad, (long long)n, (long long)first, got[first], want[first], tol.rtol, tol.atol, tol.ulps);
}

static void parse_sizes(const char *list, const TirFunc *f, int64_t *sizes, const char *kernel)
{
    unsigned n = f->sizes ? f->sizes->count : 0;
    for (unsigned k = 0; k < n; k++) {
        char buf[64];
        const char *v = lookup_kv(list, f->sizes->names[k], buf, sizeof buf);
        ck_assert_msg(v != NULL, "kernel %s: size %s not given in \"%s\"", kernel, f->sizes->names[k], list ? list : "");
        sizes[k] = strtoll(v, NULL, 10);
    }
}

void num_run(const NumProg *p, const char *kernel, const NumSpec *spec, NumRun *r)
{
    memset(r, 0, sizeof *r);
    NUM_NEED(p);
    const TirFunc *f = find_kernel(p, kernel);
    ck_assert_msg(f != NULL, "group %s has no kernel %s", p->group, kernel);
    ck_assert_msg(f->nparams <= NUM_MAX_PARAMS, "too many parameters");
    r->prog = p;
    r->f = f;
    r->n = f->nparams;
    int threads = spec->threads > 0 ? spec->threads : 2;
    int o = snprintf(r->desc, sizeof r->desc, "%.300s --kernel %.64s --size %.64s --threads %d%s%.40s", p->path, kernel,
                     spec->sizes ? spec->sizes : "", threads, p->target ? " --target=" : "", p->target ? p->target : "");
    /* each name=value of sets as its own --set */
    for (const char *c = spec->sets; c && *c && o > 0 && (size_t)o < sizeof r->desc;) {
        const char *e = strchr(c, ',');
        size_t l = e ? (size_t)(e - c) : strlen(c);
        o += snprintf(r->desc + o, sizeof r->desc - (size_t)o, " --set %.*s", (int)l, c);
        c = e ? e + 1 : c + l;
    }
    int64_t sizes[TK_MAX_SIZES] = { 0 };
    parse_sizes(spec->sizes, f, sizes, kernel);

    uint64_t seed = spec->seed ? spec->seed : 0x5eed;
    double lo = spec->lo, hi = spec->hi;
    if (lo == 0 && hi == 0) lo = -1, hi = 1;
    TkArg args[NUM_MAX_PARAMS];
    memset(args, 0, sizeof args);
    for (unsigned q = 0; q < f->nparams; q++) {
        const TkType *t = f->params[q].type;
        if (t->kind == TK_TY_GL) {
            r->is_tensor[q] = true;
            r->elem[q] = t->elem;
            r->rank[q] = t->rank;
            int64_t n = tir_tensor_elements(f, q, sizes);
            for (unsigned d = 0; d < t->rank; d++) r->shape[q][d] = tir_tensor_dim(f, q, d, sizes);
            r->count[q] = n;
            size_t cnt = (size_t)(n > 0 ? n : 1);
            r->raw[q] = calloc(cnt, elem_size(t->elem));
            r->init[q] = calloc(cnt, sizeof(double));
            r->got[q] = calloc(cnt, sizeof(double));
            ck_assert_msg(r->raw[q] && r->init[q] && r->got[q], "out of memory for %lld elements", (long long)n);
            uint64_t rng = seed * 0x9E3779B97F4A7C15ull + q + 1;
            for (int64_t i = 0; i < n; i++) {
                double v = spec->gen ? spec->gen(q, t->elem, i, &rng, spec->gen_ctx) : num_uniform(&rng, lo, hi);
                elem_set(t->elem, r->raw[q], i, v);
                r->init[q][i] = elem_get(t->elem, r->raw[q], i);
            }
            args[q].data = r->raw[q];
            args[q].rank = t->rank;
            memcpy(args[q].shape, r->shape[q], sizeof args[q].shape);
            continue;
        }
        r->elem[q] = t->kind;
        char buf[64];
        const char *sv = lookup_kv(spec->sets, f->params[q].name, buf, sizeof buf);
        double v = t->kind == TK_TY_BOOL ? 0 : 1;
        if (sv) v = strcmp(sv, "true") == 0 ? 1 : strcmp(sv, "false") == 0 ? 0 : strtod(sv, NULL);
        r->scalar[q] = v;
        switch (t->kind) {
        case TK_TY_BOOL: r->smem[q][0] = v != 0; break;
        case TK_TY_I32: { int32_t x = sv ? (int32_t)strtoll(sv, NULL, 0) : 1; memcpy(r->smem[q], &x, 4); r->scalar[q] = x; break; }
        case TK_TY_I64: { int64_t x = sv ? strtoll(sv, NULL, 0) : 1; memcpy(r->smem[q], &x, 8); r->scalar[q] = (double)x; break; }
        case TK_TY_F32: { float x = (float)v; memcpy(r->smem[q], &x, 4); r->scalar[q] = x; break; }
        case TK_TY_BF16: { uint16_t x = num_f32_to_bf16((float)v); memcpy(r->smem[q], &x, 2); r->scalar[q] = num_bf16_to_f32(x); break; }
        case TK_TY_F16: { uint16_t x = num_f32_to_f16((float)v); memcpy(r->smem[q], &x, 2); r->scalar[q] = num_f16_to_f32(x); break; }
        default: break;
        }
        args[q].data = r->smem[q];
    }
    char err[1024] = "";
    ck_assert_msg(tir_bind_sizes(f, args, f->nparams, r->sizes, err, sizeof err) == 0, "%s: binding failed: %s", r->desc, err);

    TkGridFn grid;
    TkBlockFn block;
    ck_assert_msg(tk_cpu_lookup(p->mod, kernel, &grid, &block, err, sizeof err) == 0, "%s: lookup: %s", r->desc, err);
    void *ptrs[NUM_MAX_PARAMS];
    for (unsigned q = 0; q < f->nparams; q++) ptrs[q] = args[q].data;
    ck_assert_msg(tk_cpu_launch(grid, block, ptrs, r->sizes, threads, err, sizeof err) == 0, "%s: launch: %s", r->desc, err);
    for (unsigned q = 0; q < f->nparams; q++)
        if (r->is_tensor[q])
            for (int64_t i = 0; i < r->count[q]; i++) r->got[q][i] = elem_get(r->elem[q], r->raw[q], i);
    num_count(1, 0);
    if (spec->no_interp) return;

    double *tensors[NUM_MAX_PARAMS] = { 0 };
    for (unsigned q = 0; q < f->nparams; q++) {
        if (!r->is_tensor[q]) continue;
        size_t cnt = (size_t)(r->count[q] > 0 ? r->count[q] : 1);
        r->ref[q] = malloc(cnt * sizeof(double));
        ck_assert_ptr_nonnull(r->ref[q]);
        memcpy(r->ref[q], r->init[q], cnt * sizeof(double));
        tensors[q] = r->ref[q];
    }
    ck_assert_msg(tir_interp_run(f, tensors, r->scalar, r->sizes, err, sizeof err) == 0, "%s: interpreter: %s", r->desc, err);

    const char *dump = getenv("NUM_DUMP");   /* debugging aid: NUM_DUMP=kernel prints small tensors */
    if (dump && strcmp(dump, kernel) == 0)
        for (unsigned q = 0; q < f->nparams; q++) {
            if (!r->is_tensor[q] || r->count[q] > 4096) continue;
            fprintf(stderr, "%s: %s (got | interpreter)\n", r->desc, f->params[q].name);
            for (int64_t i = 0; i < r->count[q]; i++)
                fprintf(stderr, "  [%lld] %.9g | %.9g\n", (long long)i, r->got[q][i], r->ref[q][i]);
        }
    uint64_t compared = 0;
    for (unsigned q = 0; q < f->nparams; q++) {
        if (!r->is_tensor[q]) continue;
        NumTol t = tol_for(spec, f->params[q].name);
        int64_t bad = 0, first = -1;
        double worst = 0;
        for (int64_t i = 0; i < r->count[q]; i++) {
            if (!within(r->got[q][i], r->ref[q][i], r->elem[q], t)) {
                if (first < 0) first = i;
                bad++;
            }
            double d = fabs(r->got[q][i] - r->ref[q][i]);
            if (d > worst) worst = d;
        }
        compared += (uint64_t)r->count[q];
        if (bad) {
            char where[96];
            describe_index(r, q, first, where, sizeof where);
            ck_abort_msg("JIT differs from the interpreter: %s: tensor %s%s: got %.9g, want %.9g (initially %.9g); %lld of %lld "
                         "elements outside rtol %g atol %g ulps %d (max abs diff %.3g). Reproduce: %s run %s --check",
                         r->desc, f->params[q].name, where, r->got[q][first], r->ref[q][first], r->init[q][first], (long long)bad,
                         (long long)r->count[q], t.rtol, t.atol, t.ulps, worst, NUM_TKC, r->desc);
        }
    }
    num_count(0, compared);
}

void num_run_free(NumRun *r)
{
    for (unsigned q = 0; q < NUM_MAX_PARAMS; q++) {
        free(r->raw[q]);
        free(r->init[q]);
        free(r->got[q]);
        free(r->ref[q]);
    }
    memset(r, 0, sizeof *r);
}

unsigned num_param(const NumRun *r, const char *name)
{
    for (unsigned q = 0; q < r->n; q++)
        if (strcmp(r->f->params[q].name, name) == 0) return q;
    ck_abort_msg("kernel %s has no parameter %s", r->f->name, name);
    return 0;
}

void num_expect_identical(const NumRun *a, const NumRun *b)
{
    ck_assert_ptr_eq(a->f, b->f);
    for (unsigned q = 0; q < a->n; q++) {
        if (!a->is_tensor[q]) continue;
        ck_assert_int_eq(a->count[q], b->count[q]);
        size_t bytes = (size_t)a->count[q] * elem_size(a->elem[q]);
        if (memcmp(a->raw[q], b->raw[q], bytes) != 0) {
            int64_t i = 0;
            while (i < a->count[q] && memcmp((char *)a->raw[q] + i * elem_size(a->elem[q]), (char *)b->raw[q] + i * elem_size(a->elem[q]),
                                             elem_size(a->elem[q])) == 0)
                i++;
            ck_abort_msg("results depend on the thread count: %s vs %s: tensor %s element %lld: %.9g vs %.9g", a->desc, b->desc,
                         a->f->params[q].name, (long long)i, a->got[q][i], b->got[q][i]);
        }
    }
    num_count(1, 0);
}

/* ---------------------------------------------------------------- cases */

TCase *num_tcase(const char *name, void (*setup)(void), void (*teardown)(void))
{
    TCase *tc = tcase_create(name);
    if (setup || teardown) tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);   /* generous for sanitizer builds; a hang still ends */
    return tc;
}

bool num_known_failures(void)
{
    const char *e = getenv("NUM_KNOWN_FAILURES");
    return e && strcmp(e, "1") == 0;
}
