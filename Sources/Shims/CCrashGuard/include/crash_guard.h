#ifndef PAJAMA_CRASH_GUARD_H
#define PAJAMA_CRASH_GUARD_H

#include <stddef.h>

/// Saves the terminal's modes (of standard input) and `reset` (at most 256 bytes, copied), then installs
/// handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP that put the modes back, write the
/// bytes to standard output and re-raise the signal with its default action. The handler is C and only
/// calls async-signal-safe functions (tcsetattr, write, sigaction, raise): Swift code in a signal handler is
/// not (a handler in Swift trapped under load, exit 132, and left the terminal raw). Returns 0, or -1 with
/// errno set when a handler could not be installed.
int pajama_crash_guard_install(const unsigned char *reset, size_t count);

#endif
