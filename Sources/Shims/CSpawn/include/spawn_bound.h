#ifndef PAJAMA_SPAWN_BOUND_H
#define PAJAMA_SPAWN_BOUND_H

#include <sys/types.h>

/// Starts `path` (argv, envp: NULL-terminated) as a child bound to the calling thread's life: the child gets
/// `death_signal` when that thread ends, however it ends (a crash, SIGKILL of the whole process included;
/// prctl PR_SET_PDEATHSIG). Its standard input is /dev/null, its output and error go to `output_fd` (open,
/// append), every other descriptor is closed, its signal mask and dispositions are the defaults, and it is the
/// leader of a process group of its own (so a terminal's Ctrl-C reaches the caller, which stops it itself).
/// The calling thread must live as long as the child should (`pajama relay` waits for it on a thread of its
/// own). Returns the child's pid, or -1 with errno set. Between fork and exec the child calls only
/// async-signal-safe functions.
pid_t pajama_spawn_bound(const char *path, char *const argv[], char *const envp[], int output_fd, int death_signal);

#endif
