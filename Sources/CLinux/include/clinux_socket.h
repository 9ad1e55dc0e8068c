#ifndef PUCKD_CLINUX_SOCKET_H
#define PUCKD_CLINUX_SOCKET_H
// epoll and accept4 for the gpsd-protocol server (accept4 is a GNU extension Glibc's module hides); struct epoll_event is packed on x86_64, which Swift does not
// import reliably, so the calls take and give its two members as plain arrays.
#include <stdint.h>

enum {
    CLINUX_EPOLL_IN = 0x001, CLINUX_EPOLL_OUT = 0x004, CLINUX_EPOLL_ERR = 0x008, CLINUX_EPOLL_HUP = 0x010,
    CLINUX_EPOLL_RDHUP = 0x2000,
    CLINUX_EPOLL_ADD = 1, CLINUX_EPOLL_DEL = 2, CLINUX_EPOLL_MOD = 3,
};

/// epoll_create1(EPOLL_CLOEXEC): the descriptor, or -errno.
int clinux_epoll_create(void);
/// epoll_ctl: 0, or -errno.
int clinux_epoll_control(int epoll, int operation, int fd, uint32_t events, uint64_t token);
/// epoll_wait with timeout 0 (EINTR retried): the number of ready entries written to tokens/events
/// (at most capacity), or -errno.
int clinux_epoll_ready(int epoll, uint64_t *tokens, uint32_t *events, int capacity);
/// accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC), EINTR and ECONNABORTED retried: the
/// descriptor, or -errno.
int clinux_accept(int listener);
#endif
