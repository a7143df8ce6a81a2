#include "crash_guard.h"

#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static unsigned char reset_bytes[256];
static size_t reset_count;
static struct termios saved_modes;
static int have_modes;

static void crash_handler(int number) {
    if (have_modes) tcsetattr(STDIN_FILENO, TCSANOW, &saved_modes);
    size_t done = 0;
    while (done < reset_count) {
        ssize_t written = write(STDOUT_FILENO, reset_bytes + done, reset_count - done);
        if (written <= 0) break;
        done += (size_t)written;
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(number, &fallback, NULL);
    raise(number);
}

int pajama_crash_guard_install(const unsigned char *reset, size_t count) {
    if (count > sizeof reset_bytes) count = sizeof reset_bytes;
    memcpy(reset_bytes, reset, count);
    reset_count = count;
    have_modes = tcgetattr(STDIN_FILENO, &saved_modes) == 0;
    static const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = crash_handler;
    // Every signal blocked while the handler runs; the re-raised one is delivered as it returns (a fault
    // repeats as its instruction runs again), with the default action: the process ends by that signal.
    sigfillset(&action.sa_mask);
    action.sa_flags = 0;
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}
