/* ptxas.c — see ptxas.h. ptxas runs as a child process (posix_spawn): no
 * shell, so paths need no quoting. */
#include "ptxas.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const char *tkc_find_ptxas(char *buf, size_t len)
{
    const char *forced = getenv("TK_PTXAS");
    if (forced) return *forced && strcmp(forced, "none") != 0 ? forced : NULL;
    const char *path = getenv("PATH");
    for (const char *p = path; p && *p;) {
        const char *e = strchr(p, ':');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, len, "%.*s/ptxas", (int)l, p);
        if (l && access(buf, X_OK) == 0) return buf;
        p = e ? e + 1 : NULL;
    }
    snprintf(buf, len, "/usr/local/cuda/bin/ptxas");
    return access(buf, X_OK) == 0 ? buf : NULL;
}

int tkc_run_ptxas(const char *ptxas, const char *arch, const char *ptx, const char *out, int verbose, const char *log)
{
    char a[64];
    snprintf(a, sizeof a, "-arch=%s", arch);
    char *argv[8];
    int n = 0;
    argv[n++] = (char *)"ptxas";
    argv[n++] = a;
    if (verbose) argv[n++] = (char *)"-v";
    argv[n++] = (char *)ptx;
    argv[n++] = (char *)"-o";
    argv[n++] = (char *)out;
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int e = posix_spawn(&pid, ptxas, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0) return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
