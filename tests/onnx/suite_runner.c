/* suite_runner.c — runs the ONNX backend node suite (written by
 * gen_node_suite.py) through tk_onnx_load / tk_model_run and judges each
 * case by the rule ort_suite.py applies to ONNX Runtime: every output's
 * dtype and shape equal, values within the case's rtol/atol
 * (|a - e| <= atol + rtol * |e|; NaN matches NaN), every data set.
 *
 *   tk_onnx_suite SUITE_DIR [--report FILE.json] [--expect PASS_LIST] [--write-passes FILE] [--filter TEXT] [--no-fork] [--no-fuse] [--fuse-ffn-always]
 *                 [--check-infer [--full-infer]] [-v]
 *
 * --check-infer loads with tk_onnx_opts.check_infer: every value a run makes
 * is compared with the type and shape graph_infer.c inferred at load (a
 * mismatch fails the case), and the totals of values fully inferred are printed;
 * --full-infer also fails a case where some value's type or a dim is not derived.
 *
 * --write-passes writes the passing cases' names, one per line: how
 * expected_pass.txt is made after ops are added (the ratchet only goes up).
 *
 * Each case runs in a child process, so a crash is reported as "crash"
 * (and fails the run) instead of ending it. With --expect, every case named
 * in the list must pass: one that no longer does fails the run, so the list
 * is a ratchet. Exit status: 0 fine, 1 a crash or a regression, 2 usage. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "onnx_tensor.h"   /* runtime/io: TensorProto decoding, for SequenceProto / OptionalProto files */
#include "pb_wire.h"
#include "tk/io.h"
#include "tk/onnx.h"
#include "tk/tensor.h"

#define RESULT_LEN 400

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static char **list_dirs(const char *dir, const char *prefix, int *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d) return NULL;
    char **names = NULL;
    int cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || (prefix && strncmp(e->d_name, prefix, strlen(prefix)) != 0)) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            char **t = realloc(names, (size_t)cap * sizeof *t);
            if (!t) break;
            names = t;
        }
        names[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (*n) qsort(names, (size_t)*n, sizeof *names, by_name);
    return names;
}

/* One line of the context's message (the first), for the report. */
static void first_line(char *dst, size_t len, const char *prefix, const char *msg)
{
    snprintf(dst, len, "%s%s", prefix, msg);
    for (char *p = dst; *p; p++)
        if (*p == '\n') {
            /* keep the first listed problem of a multi-line check message */
            char *next = strchr(p + 1, '\n');
            if (next) *next = 0;
            *p = ' ';
        }
}

/* Values of t as doubles (ints exactly up to 2^53, which the suite's values are). */
static double *values_of(tk_context *ctx, const tk_tensor *t)
{
    tk_tensor *d;
    if (tk_to_dtype(ctx, t, TK_DTYPE_F64, &d) != TK_OK) return NULL;
    int64_t n = tk_tensor_numel(t);
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    if (v && tk_to_data(ctx, d, v, (size_t)n * sizeof *v) != TK_OK) {
        free(v);
        v = NULL;
    }
    tk_tensor_release(d);
    return v;
}

static bool compare(tk_context *ctx, const tk_tensor *e, const tk_tensor *a, double rtol, double atol, char *why, size_t len)
{
    if (tk_tensor_dtype(e) != tk_tensor_dtype(a)) {
        snprintf(why, len, "dtype %s, expected %s", tk_dtype_name(tk_tensor_dtype(a)), tk_dtype_name(tk_tensor_dtype(e)));
        return false;
    }
    int nd = tk_tensor_ndim(e);
    bool same = nd == tk_tensor_ndim(a);
    for (int i = 0; same && i < nd; i++) same = tk_tensor_shape(e)[i] == tk_tensor_shape(a)[i];
    if (!same) {
        char es[200] = "[", as[200] = "[";
        for (int i = 0; i < nd; i++) snprintf(es + strlen(es), sizeof es - strlen(es), i ? ",%lld" : "%lld", (long long)tk_tensor_shape(e)[i]);
        for (int i = 0; i < tk_tensor_ndim(a); i++)
            snprintf(as + strlen(as), sizeof as - strlen(as), i ? ",%lld" : "%lld", (long long)tk_tensor_shape(a)[i]);
        snprintf(why, len, "shape %s], expected %s]", as, es);
        return false;
    }
    int64_t n = tk_tensor_numel(e);
    double *ev = values_of(ctx, e), *av = values_of(ctx, a);
    bool ok = ev && av;
    if (!ok) snprintf(why, len, "cannot read values: %s", tk_last_error(ctx));
    for (int64_t i = 0; ok && i < n; i++) {
        double x = av[i], y = ev[i];
        if ((isnan(x) && isnan(y)) || x == y) continue;
        if (!(fabs(x - y) <= atol + rtol * fabs(y))) {
            snprintf(why, len, "element %lld is %.9g, expected %.9g", (long long)i, x, y);
            ok = false;
        }
    }
    free(ev);
    free(av);
    return ok;
}

typedef struct {
    double rtol, atol;
    bool non_tensor;   /* a map or an unwritable value: not supported */
    char kinds[2][64][32];   /* [input/output][index] of data set 0: "tensor", "sequence", "optional" */
} Meta;

static Meta read_meta(const char *dir)
{
    Meta m = { 1e-3, 1e-7, false, { { { 0 } } } };
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s/meta.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) return m;
    while (fgets(line, sizeof line, f)) {
        double v;
        if (sscanf(line, "rtol %lf", &v) == 1) m.rtol = v;
        else if (sscanf(line, "atol %lf", &v) == 1) m.atol = v;
        else {
            int set, idx;
            char which[16], kind[32];
            if (sscanf(line, "%d %15s %d %31s", &set, which, &idx, kind) == 4 && set == 0 && idx >= 0 && idx < 64) {
                snprintf(m.kinds[strcmp(which, "output") == 0][idx], sizeof m.kinds[0][0], "%s", kind);
                if (strcmp(kind, "tensor") && strcmp(kind, "sequence") && strcmp(kind, "optional")) m.non_tensor = true;
            }
        }
    }
    fclose(f);
    return m;
}

/* ------------------------------------------------------------ sequence and optional files */

/* The tensors of a SequenceProto (field 3 tensor_values) or the value of an
 * OptionalProto (3 tensor_value, 5 sequence_value) in buf. */
static tk_status decode_value(tk_context *ctx, const uint8_t *buf, size_t len, bool optional, tk_value *out, int depth)
{
    TkrPbReader r = tkr_pb_reader(buf, len);
    TkrPbField f;
    tk_tensor *items[4096];
    int n = 0;
    tk_status s = TK_OK;
    *out = (tk_value){ 0 };
    while (!s && tkr_pb_next(&r, &f)) {
        if (f.wire != TKR_PB_BYTES) continue;
        if (f.number == 3 && !optional && n < 4096)
            s = tkr_onnx_tensor_decode(ctx, "suite", "a sequence item", NULL, f.bytes, f.len, &items[n++], NULL, NULL);
        else if (f.number == 3 && optional) s = tkr_onnx_tensor_decode(ctx, "suite", "an optional", NULL, f.bytes, f.len, &out->tensor, NULL, NULL);
        else if (f.number == 5 && optional && depth < 2) s = decode_value(ctx, f.bytes, f.len, false, out, depth + 1);
    }
    if (!s && r.error) s = TK_ERR_IO;
    if (!s && !optional) s = tk_seq_new(ctx, items, n, false, &out->seq);
    if (!s && optional && !out->tensor && !out->seq) s = tk_seq_new(ctx, NULL, 0, true, &out->seq);
    for (int i = 0; i < n; i++) tk_tensor_release(items[i]);
    return s;
}

static tk_status load_value(tk_context *ctx, const char *path, const char *kind, tk_value *out)
{
    *out = (tk_value){ 0 };
    if (!kind[0] || strcmp(kind, "tensor") == 0) return tk_load_onnx_tensor(ctx, path, &out->tensor);
    FILE *f = fopen(path, "rb");
    if (!f) return TK_ERR_IO;
    static uint8_t buf[1 << 24];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return decode_value(ctx, buf, len, strcmp(kind, "optional") == 0, out, 0);
}

static void value_release(tk_value *v)
{
    tk_tensor_release(v->tensor);
    tk_seq_release(v->seq);
    *v = (tk_value){ 0 };
}

static bool compare(tk_context *ctx, const tk_tensor *e, const tk_tensor *a, double rtol, double atol, char *why, size_t len);

static bool compare_values(tk_context *ctx, const tk_value *e, const tk_value *a, double rtol, double atol, char *why, size_t len)
{
    if (e->tensor && a->tensor) return compare(ctx, e->tensor, a->tensor, rtol, atol, why, len);
    if (e->tensor || a->tensor || !e->seq || !a->seq) {
        snprintf(why, len, "a %s where a %s was expected", a->tensor ? "tensor" : "sequence or empty optional",
                 e->tensor ? "tensor" : "sequence or empty optional");
        return false;
    }
    if (tk_seq_length(e->seq) != tk_seq_length(a->seq)) {
        snprintf(why, len, "a sequence of %d, expected %d (-1: an empty optional)", tk_seq_length(a->seq), tk_seq_length(e->seq));
        return false;
    }
    for (int i = 0; i < tk_seq_length(e->seq); i++)
        if (!compare(ctx, tk_seq_item(e->seq, i), tk_seq_item(a->seq, i), rtol, atol, why, len)) return false;
    return true;
}

/* The kind of input (io 0) or output (io 1) i: meta.txt's when the suite
 * wrote one, else what the model declares (older suites have no meta.txt). */
static const char *kind_of(const tk_model *m, const Meta *meta, int io, int i)
{
    if (i < 64 && meta->kinds[io][i][0]) return meta->kinds[io][i];
    tk_value_info info;
    if ((io ? tk_model_output(m, i, &info) : tk_model_input(m, i, &info)) == TK_OK && info.kind) return info.kind;
    return "tensor";
}

/* The onnx 1.12 suites (Debian's) store bfloat16 data as UINT16 tensors of
 * its bits (NumPy has no bfloat16): where the model declares bf16, read a
 * u16 tensor as those bits. */
static tk_status bf16_bits(tk_context *ctx, const tk_model *m, int io, int i, tk_value *v)
{
    tk_value_info info;
    if (!v->tensor || tk_tensor_dtype(v->tensor) != TK_DTYPE_U16) return TK_OK;
    if ((io ? tk_model_output(m, i, &info) : tk_model_input(m, i, &info)) != TK_OK || !info.known_dtype ||
        info.dtype != TK_DTYPE_BF16)
        return TK_OK;
    tk_tensor *b;
    tk_status s = tk_from_data(ctx, tk_tensor_data(v->tensor), TK_DTYPE_BF16, tk_tensor_ndim(v->tensor), tk_tensor_shape(v->tensor), &b);
    if (s) return s;
    tk_tensor_release(v->tensor);
    v->tensor = b;
    return TK_OK;
}

/* Runs one case; writes "pass", "fail: ...", or "unsupported: ..." into result. */
static bool no_fuse;       /* --no-fuse: load without the rewrites to fused kernels */
static bool ffn_always;    /* --fuse-ffn-always: the FFN rewrite wherever it fits (tk_onnx_opts.fuse_ffn ALWAYS) */
static bool check_infer;   /* --check-infer: inferred types checked against every value a run makes */
static bool full_infer;    /* --full-infer: every value must be fully inferred */

static void run_case(const char *dir, char *result, size_t len)
{
    Meta meta = read_meta(dir);
    tk_context *ctx;
    if (tk_context_create(NULL, &ctx) != TK_OK) {
        snprintf(result, len, "fail: no context");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/model.onnx", dir);
    tk_model *m = NULL;
    char *dump = NULL;
    size_t dump_len = 0;
    FILE *dump_file = check_infer ? open_memstream(&dump, &dump_len) : NULL;   /* for the count of values inferred */
    tk_status s = tk_onnx_load(ctx, path,
                               &(tk_onnx_opts){ .no_fuse = no_fuse, .fuse_ffn = ffn_always ? TK_ONNX_FFN_ALWAYS : TK_ONNX_FFN_AUTO, .check_infer = check_infer, .dump = dump_file ? "infer" : NULL,
                                                .dump_file = dump_file },
                               &m);
    int inferred_full = 0, inferred_values = 0;
    if (dump_file) {
        fclose(dump_file);
        const char *at = dump ? strstr(dump, "# inferred: ") : NULL;
        if (at && sscanf(at, "# inferred: %d of %d", &inferred_full, &inferred_values) != 2) inferred_full = inferred_values = 0;
        free(dump);
    }
    if (s) {
        first_line(result, len, s == TK_ERR_UNSUPPORTED ? "unsupported: " : "fail: load: ", tk_last_error(ctx));
        tk_context_free(ctx);
        return;
    }
    if (meta.non_tensor) {
        snprintf(result, len, "unsupported: map or unwritable values");
        tk_model_free(m);
        tk_context_free(ctx);
        return;
    }
    int nsets;
    char **sets = list_dirs(dir, "test_data_set_", &nsets);
    int nin = tk_model_num_inputs(m), nout = tk_model_num_outputs(m);
    tk_value *in = calloc((size_t)nin + 1, sizeof *in), *out = calloc((size_t)nout + 1, sizeof *out);
    snprintf(result, len, "pass");
    for (int k = 0; k < nsets && strcmp(result, "pass") == 0; k++) {
        for (int i = 0; i < nin; i++) {
            snprintf(path, sizeof path, "%s/%s/input_%d.pb", dir, sets[k], i);
            if (access(path, R_OK) != 0) continue;   /* an omitted optional input */
            if (load_value(ctx, path, kind_of(m, &meta, 0, i), &in[i]) != TK_OK || bf16_bits(ctx, m, 0, i, &in[i]) != TK_OK) {
                first_line(result, len, "fail: input: ", tk_last_error(ctx));
                break;
            }
        }
        if (strcmp(result, "pass") != 0) {
            for (int i = 0; i < nin; i++) value_release(&in[i]);
            break;
        }
        s = tk_model_run_values(m, in, out);
        if (s) first_line(result, len, s == TK_ERR_UNSUPPORTED ? "unsupported: run: " : "fail: run: ", tk_last_error(ctx));
        for (int o = 0; !s && o < nout; o++) {
            snprintf(path, sizeof path, "%s/%s/output_%d.pb", dir, sets[k], o);
            tk_value e;
            if (access(path, R_OK) != 0) continue;
            if (load_value(ctx, path, kind_of(m, &meta, 1, o), &e) != TK_OK || bf16_bits(ctx, m, 1, o, &e) != TK_OK) {
                first_line(result, len, "fail: expected output: ", tk_last_error(ctx));
                break;
            }
            char why[300];
            bool same = compare_values(ctx, &e, &out[o], meta.rtol, meta.atol, why, sizeof why);
            value_release(&e);
            if (!same) {
                snprintf(result, len, "fail: output %d: %s", o, why);
                break;
            }
        }
        for (int i = 0; i < nin; i++) value_release(&in[i]);
        for (int o = 0; o < nout; o++) value_release(&out[o]);
    }
    for (int k = 0; k < nsets; k++) free(sets[k]);
    free(sets);
    free(in);
    free(out);
    tk_model_free(m);
    tk_memory_stats st;
    tk_memory_stats_get(ctx, &st);
    if (strcmp(result, "pass") == 0 && st.live_tensors != 0)
        snprintf(result, len, "fail: %lld tensors leaked", (long long)st.live_tensors);
    if (full_infer && strcmp(result, "pass") == 0 && inferred_full != inferred_values)
        snprintf(result, len, "fail: inference derived %d of %d values fully", inferred_full, inferred_values);
    if (check_infer) {   /* the counts ride after a tab; main takes them off */
        size_t at = strlen(result);
        if (at + 32 > len) at = len - 32;
        snprintf(result + at, len - at, "\t%d %d", inferred_full, inferred_values);
    }
    tk_context_free(ctx);
}

/* Runs a case in a child, so a crash is a result, not the end of the run. */
static void run_isolated(const char *dir, char *result, size_t len)
{
    int fd[2];
    if (pipe(fd) != 0) {
        snprintf(result, len, "fail: pipe");
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        char r[RESULT_LEN];
        run_case(dir, r, sizeof r);
        ssize_t w = write(fd[1], r, strlen(r));
        (void)w;
        close(fd[1]);
        exit(0);   /* not _exit: under ASan the leak check runs at exit, and a leak then fails the case as a crash */
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t k;
    while (got < len - 1 && (k = read(fd[0], result + got, len - 1 - got)) > 0) got += (size_t)k;
    result[got] = 0;
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) snprintf(result, len, "crash: signal %d", WTERMSIG(status));
    else if (WEXITSTATUS(status) != 0 || !got)
        snprintf(result, len, "crash: exit status %d%s", WEXITSTATUS(status), WEXITSTATUS(status) == 23 ? " (a leak, under LeakSanitizer)" : "");
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 32) fprintf(f, "\\u%04x", *s);
        else fputc(*s, f);
    fputc('"', f);
}

int main(int argc, char **argv)
{
    const char *suite = NULL, *report = NULL, *expect = NULL, *filter = NULL, *passes = NULL;
    bool fork_cases = true, verbose = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) report = argv[++i];
        else if (strcmp(argv[i], "--expect") == 0 && i + 1 < argc) expect = argv[++i];
        else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) filter = argv[++i];
        else if (strcmp(argv[i], "--write-passes") == 0 && i + 1 < argc) passes = argv[++i];
        else if (strcmp(argv[i], "--no-fork") == 0) fork_cases = false;
        else if (strcmp(argv[i], "--no-fuse") == 0) no_fuse = true;
        else if (strcmp(argv[i], "--fuse-ffn-always") == 0) ffn_always = true;
        else if (strcmp(argv[i], "--check-infer") == 0) check_infer = true;
        else if (strcmp(argv[i], "--full-infer") == 0) check_infer = full_infer = true;
        else if (strcmp(argv[i], "-v") == 0) verbose = true;
        else if (argv[i][0] != '-' && !suite) suite = argv[i];
        else {
            fprintf(stderr, "usage: tk_onnx_suite SUITE_DIR [--report FILE.json] [--expect PASS_LIST] [--write-passes FILE] [--filter TEXT] "
                            "[--no-fork] [--no-fuse] [--fuse-ffn-always] [--check-infer [--full-infer]] [-v]\n");
            return 2;
        }
    }
    if (!suite) {
        fprintf(stderr, "tk_onnx_suite: no suite folder given\n");
        return 2;
    }
    int n;
    char **cases = list_dirs(suite, "test_", &n);
    if (!n) {
        fprintf(stderr, "tk_onnx_suite: no test_* cases in '%s'\n", suite);
        return 2;
    }
    char (*results)[RESULT_LEN] = calloc((size_t)n, RESULT_LEN);
    int npass = 0, nunsup = 0, nfail = 0, ncrash = 0, nrun = 0;
    long infer_full = 0, infer_values = 0;
    for (int i = 0; i < n; i++) {
        if (filter && !strstr(cases[i], filter)) continue;
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", suite, cases[i]);
        if (fork_cases) run_isolated(dir, results[i], RESULT_LEN);
        else run_case(dir, results[i], RESULT_LEN);
        nrun++;
        char *tab = strchr(results[i], '\t');
        if (tab) {
            int f = 0, v = 0;
            if (sscanf(tab + 1, "%d %d", &f, &v) == 2) infer_full += f, infer_values += v;
            *tab = 0;
        }
        const char *r = results[i];
        if (strcmp(r, "pass") == 0) npass++;
        else if (strncmp(r, "unsupported", 11) == 0) nunsup++;
        else if (strncmp(r, "crash", 5) == 0) ncrash++;
        else nfail++;
        if (verbose || strncmp(r, "crash", 5) == 0) printf("%s: %s\n", cases[i], r);
    }
    printf("tk: %d of %d node cases pass (%d unsupported, %d fail, %d crash)\n", npass, nrun, nunsup, nfail, ncrash);
    if (check_infer)
        printf("inference: %ld of %ld values made by nodes fully inferred (type and every dim), each checked against the run\n",
               infer_full, infer_values);
    int rc = ncrash ? 1 : 0;
    if (expect) {
        FILE *f = fopen(expect, "r");
        if (!f) {
            fprintf(stderr, "tk_onnx_suite: cannot read '%s'\n", expect);
            return 2;
        }
        char line[512];
        int regressions = 0, listed = 0;
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\r\n")] = 0;
            if (!line[0] || line[0] == '#') continue;
            listed++;
            int k = 0;
            while (k < n && strcmp(cases[k], line) != 0) k++;
            if (k == n) {
                printf("REGRESSION %s: no such case in the suite\n", line);
                regressions++;
            } else if (results[k][0] && strcmp(results[k], "pass") != 0) {
                printf("REGRESSION %s: %s\n", line, results[k]);
                regressions++;
            }
        }
        fclose(f);
        printf("expected-pass list: %d listed, %d no longer pass\n", listed, regressions);
        if (regressions) rc = 1;
    }
    if (report) {
        FILE *f = fopen(report, "w");
        if (!f) {
            fprintf(stderr, "tk_onnx_suite: cannot write '%s'\n", report);
            return 2;
        }
        fprintf(f, "{\n");
        bool first = true;
        for (int i = 0; i < n; i++) {
            if (!results[i][0]) continue;
            fprintf(f, "%s", first ? "" : ",\n");
            json_string(f, cases[i]);
            fprintf(f, ": ");
            json_string(f, results[i]);
            first = false;
        }
        fprintf(f, "\n}\n");
        fclose(f);
    }
    if (passes) {
        FILE *f = fopen(passes, "w");
        if (!f) {
            fprintf(stderr, "tk_onnx_suite: cannot write '%s'\n", passes);
            return 2;
        }
        fprintf(f, "# cases that must pass (tk_onnx_suite --write-passes); CI fails when one stops passing\n");
        for (int i = 0; i < n; i++)
            if (strcmp(results[i], "pass") == 0) fprintf(f, "%s\n", cases[i]);
        fclose(f);
    }
    for (int i = 0; i < n; i++) free(cases[i]);
    free(cases);
    free(results);
    return rc;
}
