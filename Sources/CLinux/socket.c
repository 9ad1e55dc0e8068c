#define _GNU_SOURCE
#include "clinux_socket.h"
#include <errno.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/socket.h>

int clinux_epoll_create(void) {
    int fd = epoll_create1(EPOLL_CLOEXEC);
    return fd >= 0 ? fd : -errno;
}

int clinux_epoll_control(int epoll, int operation, int fd, uint32_t events, uint64_t token) {
    struct epoll_event e = { .events = events, .data = { .u64 = token } };
    return epoll_ctl(epoll, operation, fd, &e) == 0 ? 0 : -errno;
}

int clinux_epoll_ready(int epoll, uint64_t *tokens, uint32_t *events, int capacity) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    int n;
    do { n = epoll_wait(epoll, ready, capacity, 0); } while (n < 0 && errno == EINTR);
    if (n < 0) return -errno;
    for (int i = 0; i < n; i++) { tokens[i] = ready[i].data.u64; events[i] = ready[i].events; }
    return n;
}

int clinux_accept(int listener) {
    for (;;) {
        int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) return fd;
        if (errno != EINTR && errno != ECONNABORTED) return -errno;
    }
}
