#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "spawn_bound.h"

pid_t pajama_spawn_bound(const char *path, char *const argv[], char *const envp[], int output_fd, int death_signal) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) return pid;  /* the caller (or -1) */
    /* The child: only async-signal-safe calls until exec. */
    if (prctl(PR_SET_PDEATHSIG, death_signal) != 0) _exit(126);
    if (getppid() != parent) _exit(126);  /* the caller ended before the prctl */
    setpgid(0, 0);
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(output_fd, 1) < 0 || dup2(output_fd, 2) < 0) _exit(126);
    syscall(SYS_close_range, 3U, ~0U, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &dfl, NULL);
    }
    execve(path, argv, envp);
    _exit(127);
}
