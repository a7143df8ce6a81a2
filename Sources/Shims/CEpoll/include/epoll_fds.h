#ifndef PAJAMA_EPOLL_FDS_H
#define PAJAMA_EPOLL_FDS_H

// epoll for pajama-bench's crowd of bare sockets (FrameCrowd): Swift's Glibc module has no sys/epoll.h, and
// `struct epoll_event` is packed on x86-64, so these take and give plain descriptors and event masks.

#include <sys/epoll.h>

/// A new epoll instance (close-on-exec), or -1 with errno.
int pajama_epoll_create(void);
/// Watches `fd` for `events` (EPOLLIN, EPOLLOUT, ...): added, or changed if it is watched (`change` != 0).
int pajama_epoll_watch(int epoll, int fd, unsigned events, int change);
/// Waits up to `timeout_ms` for at most `max` ready descriptors: their numbers in `fds`, what happened to each in
/// `events`; returns how many (0 on timeout, -1 with errno).
int pajama_epoll_wait_fds(int epoll, int *fds, unsigned *events, int max, int timeout_ms);

#endif
