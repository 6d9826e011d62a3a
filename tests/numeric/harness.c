/* harness.c — see numeric.h. */
#define _GNU_SOURCE   /* dladdr */
#include "numeric.h"

#include "tir_bind.h"
#include "tk/dtype.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "target.h"
#include "../common/link_shared.h"

extern char **environ;

#ifndef NUM_KERNEL_DIR
#define NUM_KERNEL_DIR "."
#endif
#ifndef NUM_TKC
#define NUM_TKC "tkc"
#endif
#ifndef NUM_CC
#define NUM_CC "cc"   /* the system C compiler, which links the AOT objects */
#endif

/* ---------------------------------------------------------------- numbers
 * The bf16/f16 conversions are those of tools/tkc/run.c. */

uint16_t num_f32_to_bf16(float f)
{
    return tk_bf16_from_f32(f);
}

float num_bf16_to_f32(uint16_t h)
{
    return tk_bf16_to_f32(h);
}

uint16_t num_f32_to_f16(float f)
{
    return tk_f16_from_f32(f);
}

float num_f16_to_f32(uint16_t u)
{
    return tk_f16_to_f32(u);
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

uint64_t num_rng_next(uint64_t *s) { return tv_rng_next(s); }

double num_uniform(uint64_t *s, double lo, double hi) { return tv_uniform(s, lo, hi); }

NumTol num_tol_dot(int64_t K) { return (NumTol){ .atol = (double)(K + 2) * 0x1p-24 * (double)(K > 0 ? K : 1) }; }

double num_zero_rows_gen(unsigned p, TkTypeKind elem, int64_t idx, uint64_t *rng, void *ctx)
{
    (void)elem;
    const NumZeroRows *z = ctx;
    double x = num_uniform(rng, -1, 1);
    if (p == 0 && (idx / z->K / 8) % 3 == 1 && idx % z->K >= z->zero_from) return 0;
    if (p == 0 && z->late > 0 && (idx / z->K / 8) % 3 == 2) {
        int64_t row = idx / z->K, col = idx % z->K;
        return row % 8 == 7 && (col % z->late == z->late - 1 || col == z->K - 1) ? x : 0;
    }
    if (p == 1 && z->inf_in_b && idx == (z->inf_at > 0 ? z->inf_at : 5)) return INFINITY;
    return x;
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

static void count3(uint64_t launches, uint64_t elements, uint64_t aot_launches)
{
    const char *path = getenv("NUM_STATS_FILE");
    if (!path || !*path) return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) return;
    char line[96];
    int n = snprintf(line, sizeof line, "%llu %llu %llu\n", (unsigned long long)launches, (unsigned long long)elements,
                     (unsigned long long)aot_launches);
    if (write(fd, line, (size_t)n) != n) { /* statistics only */ }
    close(fd);
}

void num_count(uint64_t launches, uint64_t elements) { count3(launches, elements, 0); }

/* ---------------------------------------------------------------- programs */

static double num_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

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

/* The paths of the programs built now: set by the first fixture of each TCase (num_tcase_paths). */
static unsigned build_paths = NUM_JIT;

/* Programs built with both paths, for aot_object_is_jit_object. */
#define NUM_MAX_BOTH 8
static const NumProg *both_progs[NUM_MAX_BOTH];

static bool aot_keep(void)
{
    const char *e = getenv("NUM_AOT_KEEP");
    return e && strcmp(e, "1") == 0;
}

/* Removes path: a file, or a directory with what is in it (one level of subdirectories: jit_cache). */
static void remove_tree(const char *path, int depth)
{
    DIR *d = depth < 2 ? opendir(path) : NULL;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                char sub[1400];
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                remove_tree(sub, depth + 1);
            }
        closedir(d);
    }
    remove(path);   /* a file, or the directory now empty */
}

static void aot_cleanup(NumProg *p)
{
    if (p->so) dlclose(p->so);
    p->so = NULL;
    if (!p->aot_dir[0]) return;
    if (aot_keep()) fprintf(stderr, "numeric: AOT files of group %s kept in %s\n", p->group, p->aot_dir);
    else remove_tree(p->aot_dir, 0);
    p->aot_dir[0] = '\0';
}

/* Reads a whole file (NULL if it cannot); *len its size. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            unsigned char *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(fp);
                return NULL;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0) break;
    }
    fclose(fp);
    *len = n;
    return buf;
}

/* `cc -shared -o so obj -lm`, output into log. 0, or -1 with err. */
static int link_shared(const char *obj, const char *so, const char *log, char *err, size_t errlen)
{
    return tk_test_link_shared(NUM_CC, obj, so, log, err, errlen);
}

static int aot_symbols(const NumProg *p, const char *kernel, TkGridFn *grid, TkBlockFn *block, char *err, size_t errlen)
{
    char name[512];
    snprintf(name, sizeof name, "%s__grid", kernel);
    void *g = dlsym(p->so, name);
    snprintf(name, sizeof name, "%s__block", kernel);
    void *b = dlsym(p->so, name);
    if (!g || !b) {
        snprintf(err, errlen, "%.600s/%.100s.so defines no %.200s__%s", p->aot_dir, p->group, kernel, g ? "block" : "grid");
        return -1;
    }
    /* ISO C forbids object → function pointer casts; POSIX dlsym requires them to work */
    memcpy(grid, &g, sizeof *grid);
    memcpy(block, &b, sizeof *block);
    return 0;
}

/* The AOT path: GROUP.o from tk_cpu_emit, GROUP.so from cc, dlopen, dlsym of
 * every kernel. 0, or -1 with p->err. */
static int build_aot(NumProg *p, const char *target)
{
    char err[2048] = "";
    if (target) {   /* like the JIT: code for a CPU that is not this one is not run */
        const TkTarget *t = tk_target_find(target);
        TkResolvedTarget rt;
        if (!t || tk_target_resolve(t, &rt, err, sizeof err) != 0) {
            snprintf(p->err, sizeof p->err, "AOT: unknown target %s: %s", target, err);
            return -1;
        }
        bool here = tk_target_runs_here(&rt);
        tk_target_resolved_free(&rt);
        if (!here) {
            p->unavailable = true;
            snprintf(p->err, sizeof p->err, "AOT: target '%s' cannot run on this CPU", target);
            return -1;
        }
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(p->aot_dir, sizeof p->aot_dir, "%s/tk_numeric_aot_%.64s_XXXXXX", tmp && *tmp ? tmp : "/tmp", p->group);
    if (!mkdtemp(p->aot_dir)) {
        snprintf(p->err, sizeof p->err, "AOT: cannot create %s: %s", p->aot_dir, strerror(errno));
        p->aot_dir[0] = '\0';
        return -1;
    }
    char obj[700], so[700], log[700];
    snprintf(obj, sizeof obj, "%s/%s.o", p->aot_dir, p->group);
    snprintf(so, sizeof so, "%s/%s.so", p->aot_dir, p->group);
    snprintf(log, sizeof log, "%s/link.log", p->aot_dir);
    FILE *fp = fopen(obj, "wb");
    if (!fp) {
        snprintf(p->err, sizeof p->err, "AOT: cannot write %s: %s", obj, strerror(errno));
        return -1;
    }
    TkCpuJitOptions jo = { .target = target, .opt_level = 3 };
    int rc = tk_cpu_emit(&p->m, &jo, TK_EMIT_OBJ, fp, err, sizeof err);
    if (fclose(fp) != 0 && rc == 0) {
        rc = -1;
        snprintf(err, sizeof err, "cannot write %s", obj);
    }
    if (rc != 0) {
        snprintf(p->err, sizeof p->err, "AOT: tk_cpu_emit failed for %s%s%s: %s", p->path, target ? " --target=" : "",
                 target ? target : "", err);
        return -1;
    }
    if (link_shared(obj, so, log, err, sizeof err) != 0) {
        snprintf(p->err, sizeof p->err, "AOT: %s", err);
        return -1;
    }
    p->so = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!p->so) {
        const char *e = dlerror();
        snprintf(p->err, sizeof p->err, "AOT: dlopen(%s) failed: %s", so, e ? e : "?");
        return -1;
    }
    for (const TirFunc *f = p->m.funcs; f; f = f->next) {
        TkGridFn g;
        TkBlockFn b;
        if (aot_symbols(p, f->name, &g, &b, err, sizeof err) != 0) {
            snprintf(p->err, sizeof p->err, "AOT: %s", err);
            return -1;
        }
        /* and they are the shared object's own code, not a namesake elsewhere in the process */
        Dl_info gi, bi;
        void *ga, *ba;
        memcpy(&ga, &g, sizeof ga);
        memcpy(&ba, &b, sizeof ba);
        if (!dladdr(ga, &gi) || !dladdr(ba, &bi) || !gi.dli_fname || !bi.dli_fname || strcmp(gi.dli_fname, so) != 0 ||
            strcmp(bi.dli_fname, so) != 0) {
            snprintf(p->err, sizeof p->err, "AOT: %.200s__grid / __block do not come from %.700s", f->name, so);
            return -1;
        }
    }
    return 0;
}

/* Both paths: the object the JIT linked is the one its disk cache keeps;
 * compare it with GROUP.o. */
static void compare_objects(NumProg *p)
{
    char dir[700], obj[700];
    snprintf(dir, sizeof dir, "%s/jit_cache", p->aot_dir);
    snprintf(obj, sizeof obj, "%s/%s.o", p->aot_dir, p->group);
    DIR *d = opendir(dir);
    struct dirent *e;
    char cached[1100] = "";
    unsigned found = 0;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l > 2 && strcmp(e->d_name + l - 2, ".o") == 0) {
            snprintf(cached, sizeof cached, "%s/%s", dir, e->d_name);
            found++;
        }
    }
    if (d) closedir(d);
    if (found != 1) {
        snprintf(p->obj_note, sizeof p->obj_note, "the JIT left %u objects in its cache %.700s (expected 1)", found, dir);
        return;
    }
    size_t na = 0, nb = 0;
    unsigned char *a = slurp(obj, &na), *b = slurp(cached, &nb);
    p->obj_compared = a && b;
    p->obj_same = a && b && na == nb && memcmp(a, b, na) == 0;
    if (!p->obj_compared) snprintf(p->obj_note, sizeof p->obj_note, "cannot read %.700s or %.1100s", obj, cached);
    else if (!p->obj_same) {
        size_t i = 0;
        while (i < na && i < nb && a[i] == b[i]) i++;
        snprintf(p->obj_note, sizeof p->obj_note, "%.700s (%zu bytes, tk_cpu_emit) and the JIT's %.1100s (%zu bytes) first differ at byte %zu",
                 obj, na, cached, nb, i);
    }
    free(a);
    free(b);
}

/* tk_cpu_jit with its disk cache on, into the temporary directory: the only
 * way to see the object it links (main() turns the cache off for everything else). */
static int jit_with_cache(NumProg *p, const TkCpuJitOptions *jo, char *err, size_t errlen)
{
    char dir[700];
    snprintf(dir, sizeof dir, "%s/jit_cache", p->aot_dir);
    char *old_cache = getenv("TK_CACHE") ? strdup(getenv("TK_CACHE")) : NULL;
    char *old_dir = getenv("TK_CACHE_DIR") ? strdup(getenv("TK_CACHE_DIR")) : NULL;
    setenv("TK_CACHE", "1", 1);
    setenv("TK_CACHE_DIR", dir, 1);
    int rc = tk_cpu_jit(&p->m, jo, &p->mod, err, errlen);
    if (old_cache) setenv("TK_CACHE", old_cache, 1);
    else unsetenv("TK_CACHE");
    if (old_dir) setenv("TK_CACHE_DIR", old_dir, 1);
    else unsetenv("TK_CACHE_DIR");
    free(old_cache);
    free(old_dir);
    if (rc == 0) compare_objects(p);
    return rc;
}

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
    unsigned paths = build_paths;
    double t0 = num_now_ms();
    /* AOT first: the module as `tkc -c` sees it, the target's passes not yet run */
    if ((paths & NUM_AOT) && build_aot(p, target) != 0) return;
    double t1 = num_now_ms();
    char err[1024] = "";
    double jit_ms = 0;
    TkCpuJitOptions jo = { .target = target, .opt_level = 3, .compile_ms = &jit_ms };
    if (paths & NUM_JIT) {
        int rc = paths & NUM_AOT ? jit_with_cache(p, &jo, err, sizeof err) : tk_cpu_jit(&p->m, &jo, &p->mod, err, sizeof err);
        if (rc != 0) {
            if (target && strstr(err, "cannot run on this CPU")) p->unavailable = true;
            snprintf(p->err, sizeof p->err, "JIT failed for %s%s%s: %s", p->path, target ? " --target=" : "", target ? target : "", err);
            p->mod = NULL;
            return;
        }
    }
    p->paths = paths;
    p->built = true;
    if (paths == (NUM_JIT | NUM_AOT))
        for (unsigned k = 0; k < NUM_MAX_BOTH; k++)
            if (!both_progs[k]) {
                both_progs[k] = p;
                break;
            }
    if (getenv("NUM_VERBOSE")) {
        if (paths & NUM_AOT)
            fprintf(stderr, "numeric: group %s (%s) emitted, linked and loaded (AOT) in %.0f ms\n", group, target ? target : "host", t1 - t0);
        if (paths & NUM_JIT) fprintf(stderr, "numeric: group %s (%s) compiled in %.0f ms\n", group, target ? target : "host", jit_ms);
    }
}

void num_free(NumProg *p)
{
    for (unsigned k = 0; k < NUM_MAX_BOTH; k++)
        if (both_progs[k] == p) both_progs[k] = NULL;
    if (p->mod) tk_cpu_module_free(p->mod);
    aot_cleanup(p);
    if (p->have_front) tk_front_free(&p->fe);
    free(p->src);
    memset(p, 0, sizeof *p);
}

bool num_aot(const NumProg *p) { return (p->paths & NUM_AOT) != 0; }

static int lookup_path(const NumProg *p, unsigned path, const char *kernel, TkGridFn *grid, TkBlockFn *block, char *err, size_t errlen)
{
    if (path == NUM_AOT) return aot_symbols(p, kernel, grid, block, err, errlen);
    return tk_cpu_lookup(p->mod, kernel, grid, block, err, errlen);
}

void num_lookup(const NumProg *p, const char *kernel, TkGridFn *grid, TkBlockFn *block)
{
    NUM_NEED(p);
    char err[1024] = "";
    unsigned path = num_aot(p) ? NUM_AOT : NUM_JIT;
    ck_assert_msg(lookup_path(p, path, kernel, grid, block, err, sizeof err) == 0, "group %s (%s): lookup of %s: %s", p->group,
                  path == NUM_AOT ? "AOT" : "JIT", kernel, err);
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

/* Tensor memory as the runtime allocates it (runtime/core/device_cpu.c):
 * zeroed, 64-byte aligned, so that code that depends on alignment (the
 * streaming stores of lower/cpu/emit_stream.c) runs here as it does there. */
static void *tensor_alloc(size_t bytes)
{
    size_t padded = (bytes + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, padded ? padded : 64);
    if (p) memset(p, 0, padded ? padded : 64);
    return p;
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
            r->raw[q] = tensor_alloc(cnt * tir_elem_size(t->elem));
            r->init[q] = calloc(cnt, sizeof(double));
            r->got[q] = calloc(cnt, sizeof(double));
            ck_assert_msg(r->raw[q] && r->init[q] && r->got[q], "out of memory for %lld elements", (long long)n);
            uint64_t rng = seed * 0x9E3779B97F4A7C15ull + q + 1;
            for (int64_t i = 0; i < n; i++) {
                double v = spec->gen ? spec->gen(q, t->elem, i, &rng, spec->gen_ctx) : num_uniform(&rng, lo, hi);
                tir_elem_set(t->elem, r->raw[q], i, v);
                r->init[q][i] = tir_elem_get(t->elem, r->raw[q], i);
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

    /* AOT if the group has it, else the JIT; with both, the JIT too, on a copy of the same initial contents */
    r->path = num_aot(p) ? NUM_AOT : NUM_JIT;
    const char *pname = r->path == NUM_AOT ? "AOT" : "JIT";
    bool both = p->paths == (NUM_JIT | NUM_AOT);
    void *ptrs[NUM_MAX_PARAMS], *jit_ptrs[NUM_MAX_PARAMS];
    for (unsigned q = 0; q < f->nparams; q++) {
        ptrs[q] = jit_ptrs[q] = args[q].data;
        if (both && r->is_tensor[q]) {
            size_t bytes = (size_t)(r->count[q] > 0 ? r->count[q] : 1) * tir_elem_size(r->elem[q]);
            jit_ptrs[q] = tensor_alloc(bytes);
            ck_assert_ptr_nonnull(jit_ptrs[q]);
            memcpy(jit_ptrs[q], r->raw[q], bytes);
        }
    }
    TkGridFn grid;
    TkBlockFn block;
    ck_assert_msg(lookup_path(p, r->path, kernel, &grid, &block, err, sizeof err) == 0, "%s (%s): lookup: %s", r->desc, pname, err);
    ck_assert_msg(tk_cpu_launch(grid, block, ptrs, r->sizes, threads, err, sizeof err) == 0, "%s (%s): launch: %s", r->desc, pname, err);
    for (unsigned q = 0; q < f->nparams; q++)
        if (r->is_tensor[q])
            for (int64_t i = 0; i < r->count[q]; i++) r->got[q][i] = tir_elem_get(r->elem[q], r->raw[q], i);
    count3(r->path == NUM_JIT, 0, r->path == NUM_AOT);
    if (both) {
        ck_assert_msg(lookup_path(p, NUM_JIT, kernel, &grid, &block, err, sizeof err) == 0, "%s (JIT): lookup: %s", r->desc, err);
        ck_assert_msg(tk_cpu_launch(grid, block, jit_ptrs, r->sizes, threads, err, sizeof err) == 0, "%s (JIT): launch: %s", r->desc, err);
        uint64_t compared = 0;
        for (unsigned q = 0; q < f->nparams; q++) {
            if (!r->is_tensor[q]) continue;
            size_t es = tir_elem_size(r->elem[q]);
            if (memcmp(jit_ptrs[q], r->raw[q], (size_t)r->count[q] * es) != 0) {
                int64_t i = 0;
                while (memcmp((char *)jit_ptrs[q] + (size_t)i * es, (char *)r->raw[q] + (size_t)i * es, es) == 0) i++;
                char where[96];
                describe_index(r, q, i, where, sizeof where);
                ck_abort_msg("AOT and JIT results differ (the same object, linked by cc + dlopen vs by ORC): %s: tensor %s%s: AOT %.9g, "
                             "JIT %.9g (initially %.9g)",
                             r->desc, f->params[q].name, where, r->got[q][i], tir_elem_get(r->elem[q], jit_ptrs[q], i), r->init[q][i]);
            }
            compared += (uint64_t)r->count[q];
            free(jit_ptrs[q]);
        }
        num_count(1, compared);
    }
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
            char aot[1400] = "";
            if (r->path == NUM_AOT)
                snprintf(aot, sizeof aot, "; the AOT object: %s -c %s%s%.40s -o %s.o && %s -shared -o %s.so %s.o -lm", NUM_TKC, p->path,
                         p->target ? " --target=" : "", p->target ? p->target : "", p->group, NUM_CC, p->group, p->group);
            ck_abort_msg("%s differs from the interpreter: %s: tensor %s%s: got %.9g, want %.9g (initially %.9g); %lld of %lld "
                         "elements outside rtol %g atol %g ulps %d (max abs diff %.3g). Reproduce: %s run %s --check%s",
                         r->path == NUM_AOT ? "AOT object" : "JIT", r->desc, f->params[q].name, where, r->got[q][first], r->ref[q][first],
                         r->init[q][first], (long long)bad, (long long)r->count[q], t.rtol, t.atol, t.ulps, worst, NUM_TKC, r->desc, aot);
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
        size_t bytes = (size_t)a->count[q] * tir_elem_size(a->elem[q]);
        if (memcmp(a->raw[q], b->raw[q], bytes) != 0) {
            int64_t i = 0;
            while (i < a->count[q] && memcmp((char *)a->raw[q] + i * tir_elem_size(a->elem[q]), (char *)b->raw[q] + i * tir_elem_size(a->elem[q]),
                                             tir_elem_size(a->elem[q])) == 0)
                i++;
            ck_abort_msg("results depend on the thread count: %s vs %s: tensor %s element %lld: %.9g vs %.9g", a->desc, b->desc,
                         a->f->params[q].name, (long long)i, a->got[q][i], b->got[q][i]);
        }
    }
    num_count(1, 0);
}

/* ---------------------------------------------------------------- cases */

static void paths_jit(void) { build_paths = NUM_JIT; }
static void paths_aot(void) { build_paths = NUM_AOT; }
static void paths_both(void) { build_paths = NUM_JIT | NUM_AOT; }

/* Both paths: the JIT linked the very object tk_cpu_emit wrote (compared in compare_objects). */
START_TEST(aot_object_is_jit_object)
{
    unsigned n = 0;
    for (unsigned k = 0; k < NUM_MAX_BOTH; k++) {
        const NumProg *p = both_progs[k];
        if (!p) continue;
        n++;
        ck_assert_msg(p->obj_compared, "group %s: the JIT's object was not compared with GROUP.o: %s", p->group, p->obj_note);
        ck_assert_msg(p->obj_same, "group %s: tk_cpu_emit wrote another object than the JIT linked: %s", p->group, p->obj_note);
    }
    ck_assert_msg(n > 0, "no group of this TCase was built for both paths (did it compile?)");
}
END_TEST

/* TCase names made here (Check keeps the pointer): reachable till exit. */
static char *tcase_names[64];

TCase *num_tcase_paths(const char *name, void (*setup)(void), void (*teardown)(void), unsigned paths)
{
    const char *full = name;
    if (paths & NUM_AOT) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s_aot", name);
        for (unsigned k = 0; k < sizeof tcase_names / sizeof tcase_names[0]; k++)
            if (!tcase_names[k]) {
                full = tcase_names[k] = strdup(buf);
                break;
            }
        if (!full || full == name) abort();
    }
    TCase *tc = tcase_create(full);
    /* first: the paths of every program this TCase's fixtures build */
    tcase_add_unchecked_fixture(tc, paths == NUM_AOT ? paths_aot : paths == NUM_JIT ? paths_jit : paths_both, NULL);
    if (setup || teardown) tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);   /* generous for sanitizer builds; a hang still ends */
    if (paths == (NUM_JIT | NUM_AOT)) tcase_add_test(tc, aot_object_is_jit_object);
    return tc;
}

TCase *num_tcase(const char *name, void (*setup)(void), void (*teardown)(void)) { return num_tcase_paths(name, setup, teardown, NUM_JIT); }

unsigned num_variant(unsigned v, unsigned aot)
{
    if (v == 0) return NUM_JIT;
    const char *e = getenv("NUM_AOT");
    return e && strcmp(e, "0") == 0 ? 0 : aot;
}

bool num_known_failures(void)
{
    const char *e = getenv("NUM_KNOWN_FAILURES");
    return e && strcmp(e, "1") == 0;
}
