/* link_shared.c — see link_shared.h. */
#include "link_shared.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int tk_test_link_shared(const char *cc, const char *obj, const char *so, const char *log, char *err, size_t errlen)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    char *argv[] = { (char *)cc, "-shared", "-o", (char *)so, (char *)obj, "-lm", NULL };
    pid_t pid;
    int rc = posix_spawnp(&pid, cc, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        snprintf(err, errlen, "cannot run %s: %s", cc, strerror(rc));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(err, errlen, "waitpid: %s", strerror(errno));
            return -1;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    char text[1500] = "";
    FILE *fp = fopen(log, "r");
    if (fp) {
        size_t n = fread(text, 1, sizeof text - 1, fp);
        text[n] = '\0';
        fclose(fp);
    }
    snprintf(err, errlen, "%s -shared -o %s %s -lm failed (status %d): %s", cc, so, obj, status, text);
    return -1;
}
