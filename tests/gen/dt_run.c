/* dt_run.c — see dt_run.h. */
#define _GNU_SOURCE
#include "dt_run.h"
#include "emu.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dt_case.h"
#include "dt_config.h"

extern char **environ;

const char *dt_outcome_name(DtOutcome o)
{
    static const char *const names[] = { "ok", "invalid", "mismatch", "compile-error", "launch-error", "threads-differ", "crash", "internal" };
    return o <= DT_INTERNAL ? names[o] : "?";
}

/* ---------------------------------------------------------------- child */

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    while (s) {
        size_t k = fread(s + n, 1, cap - n - 1, fp);
        n += k;
        if (k == 0) break;
        if (cap - n < 2) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                s = NULL;
            } else {
                s = t;
            }
        }
    }
    fclose(fp);
    if (s) s[n] = '\0';
    return s;
}

static bool selected(const char *list, const char *name)
{
    if (strcmp(list, "all") == 0) return true;
    size_t nl = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == nl && strncmp(p, name, nl) == 0) return true;
        p += l + (e ? 1 : 0);
    }
    return false;
}

/* One configuration: compile, run on 2 threads and on 1, compare. Returns true if it agreed. */
static bool run_config(const DtConfig *c, const DtRunSpec *s, const char *text, DtCase *cs)
{
    char err[2048] = "";
    printf("start %s\n", c->name);
    fflush(stdout);
    DtCompiled k;
    int rc = dt_compile(c, s->file, text, s->kernel, cs->sizes, cs->nsizes, &k, err, sizeof err);
    if (rc != 0) {
        for (char *p = err; *p; p++)
            if (*p == '\n') *p = ' ';
        if (rc == 1) {   /* outside what the GPU lowering takes: not a failure */
            printf("config %s skipped %s\n", c->name, err);
            fflush(stdout);
            return true;
        }
        printf("config %s compile-error %s\n", c->name, err);
        return false;
    }
    bool ok = true;
    dt_case_reset(cs);
    if (tk_cpu_launch(k.grid, k.block, cs->args, cs->sizes, c->threads, err, sizeof err) != 0 ||
        (c->emu && tk_emu_take_error(err, sizeof err))) {
        printf("config %s launch-error %s\n", c->name, err);
        ok = false;
    }
    DtCompare r;
    if (ok && dt_case_compare(cs, &r) != 0) {
        printf("config %s mismatch %s: got %.9g, want %.9g (allowed difference %.3g); %lld of %lld elements outside their bounds\n", c->name,
               r.where, r.got, r.want, r.allowed, (long long)r.bad, (long long)r.checked);
        ok = false;
    }
    if (ok) {
        /* the same bits on one thread: blocks reduce in a fixed order */
        void *two = dt_case_save(cs);
        dt_case_reset(cs);
        char where[160] = "";
        if (two && tk_cpu_launch(k.grid, k.block, cs->args, cs->sizes, 1, err, sizeof err) == 0 && !(c->emu && tk_emu_take_error(err, sizeof err)) &&
            !dt_case_same_bits(cs, two, where, sizeof where)) {
            printf("config %s threads-differ %s differs between 2 threads and 1\n", c->name, where);
            ok = false;
        }
        free(two);
    }
    if (ok)
        printf("config %s ok %.1f ms, %lld elements checked (%lld exact), %.3g of the largest bound used\n", c->name, k.compile_ms,
               (long long)r.checked, (long long)r.exact, r.use);
    fflush(stdout);
    dt_compiled_free(&k);
    return ok;
}

int dt_run_child(const DtRunSpec *s)
{
    if (s->timeout_s) alarm(s->timeout_s);   /* a hang ends as SIGALRM: the parent reports it */
    char *text = slurp(s->file);
    if (!text) {
        printf("internal cannot read %s: %s\ndone\n", s->file, strerror(errno));
        return 2;
    }
    char err[2048] = "";
    DtProgram p;
    DtLoad l = dt_program_load(&p, s->file, text, err, sizeof err);
    if (l != DT_LOAD_OK) {
        printf("%s %s\ndone\n", l == DT_LOAD_REJECTED ? "reject" : "internal", err);
        dt_program_free(&p);
        free(text);
        return 2;
    }
    const TirFunc *f = dt_program_kernel(&p, s->kernel);
    DtCase cs;
    int status = 2;
    if (!f) {
        printf("internal no kernel %s\n", s->kernel);
    } else if (dt_case_make(&cs, f, s->sizes, s->scalars, s->input_seed, err, sizeof err) != 0) {
        printf("interp-error %s\n", err);
    } else if (cs.unreliable) {
        printf("unreliable %s\n", cs.why);
        dt_case_free(&cs);
    } else {
        status = 0;
        for (unsigned i = 0; i < dt_nconfigs; i++) {
            const DtConfig *c = &dt_configs[i];
            if (!selected(s->configs, c->name)) continue;
            char why[256] = "";
            if (!dt_config_available(c, why, sizeof why)) {
                printf("config %s skipped %s\n", c->name, why);
                continue;
            }
            if (!run_config(c, s, text, &cs)) status = 1;
        }
        dt_case_free(&cs);
    }
    printf("done\n");
    fflush(stdout);
    dt_program_free(&p);
    free(text);
    return status;
}

/* ---------------------------------------------------------------- parent */

int dt_run_spawn(const char *self, const DtRunSpec *s, const char *log_path, DtRunResult *r)
{
    memset(r, 0, sizeof *r);
    char seed[32], timeout[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->input_seed);
    snprintf(timeout, sizeof timeout, "%u", s->timeout_s);
    char *argv[] = { (char *)self, "--run", (char *)s->file, "--kernel", (char *)s->kernel, "--sizes", (char *)s->sizes,
                     "--scalars", (char *)s->scalars, "--input-seed", seed, "--configs", (char *)s->configs, "--timeout", timeout, NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid;
    int rc = posix_spawn(&pid, self, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        snprintf(r->detail, sizeof r->detail, "cannot run %s: %s", self, strerror(rc));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(r->detail, sizeof r->detail, "waitpid: %s", strerror(errno));
            return -1;
        }
    char *log = slurp(log_path);
    char last_start[64] = "";
    bool done = false;
    r->outcome = DT_OK;
    for (char *line = log; line && *line;) {
        char *end = strchr(line, '\n');
        if (end) *end = '\0';
        char name[64], what[32];
        int off = 0;
        if (sscanf(line, "start %63s", name) == 1) {
            snprintf(last_start, sizeof last_start, "%s", name);
        } else if (sscanf(line, "config %63s %31s %n", name, what, &off) >= 2) {
            static const struct { const char *word; DtOutcome o; } kinds[] = {
                { "mismatch", DT_MISMATCH }, { "compile-error", DT_COMPILE }, { "launch-error", DT_LAUNCH }, { "threads-differ", DT_THREADS } };
            if (strcmp(what, "ok") == 0) {
                r->configs_run++;
                double ms = 0, use = 0;
                long long checked = 0, exact = 0;
                if (sscanf(line + off, "%lf ms, %lld elements checked (%lld exact), %lf", &ms, &checked, &exact, &use) >= 1) r->compile_ms += ms;
                r->checked += checked;
                r->exact += exact;
                if (use > r->use) r->use = use;
            } else if (strcmp(what, "skipped") == 0) {
                r->configs_skipped++;
            }
            for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
                if (strcmp(what, kinds[k].word) == 0 && r->outcome == DT_OK) {
                    r->outcome = kinds[k].o;
                    r->configs_run++;
                    snprintf(r->config, sizeof r->config, "%s", name);
                    snprintf(r->detail, sizeof r->detail, "%s", off ? line + off : "");
                }
            last_start[0] = '\0';
        } else if (strncmp(line, "reject ", 7) == 0 || strncmp(line, "unreliable ", 11) == 0 || strncmp(line, "interp-error ", 13) == 0 ||
                   strncmp(line, "internal ", 9) == 0) {
            bool internal = line[0] == 'i' && line[1] == 'n';
            r->outcome = internal ? DT_INTERNAL : DT_INVALID;
            r->rejected = line[0] == 'r';
            snprintf(r->detail, sizeof r->detail, "%s", line);
        } else if (strcmp(line, "done") == 0) {
            done = true;
        }
        line = end ? end + 1 : NULL;
    }
    free(log);
    if (!done || !WIFEXITED(status)) {
        r->outcome = DT_CRASH;
        snprintf(r->config, sizeof r->config, "%s", last_start[0] ? last_start : "?");
        if (WIFSIGNALED(status))
            snprintf(r->detail, sizeof r->detail, "the child died of signal %d (%s)%s", WTERMSIG(status), strsignal(WTERMSIG(status)),
                     WTERMSIG(status) == SIGALRM ? ": it ran past its time-out" : "");
        else snprintf(r->detail, sizeof r->detail, "the child exited %d without finishing", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    return 0;
}
