#include "epoll_fds.h"

int pajama_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int pajama_epoll_watch(int epoll, int fd, unsigned events, int change) {
    struct epoll_event event = {.events = events, .data = {.fd = fd}};
    return epoll_ctl(epoll, change ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event);
}

int pajama_epoll_wait_fds(int epoll, int *fds, unsigned *events, int max, int timeout_ms) {
    struct epoll_event ready[512];
    if (max > 512) max = 512;
    int count = epoll_wait(epoll, ready, max, timeout_ms);
    for (int i = 0; i < count; i++) {
        fds[i] = ready[i].data.fd;
        events[i] = ready[i].events;
    }
    return count;
}
