#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include "clinux_device.h"

static int64_t clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t clinux_monotonic_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
int64_t clinux_realtime_ns(void) { return clock_ns(CLOCK_REALTIME); }

int clinux_timerfd_create(void) {
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static struct timespec to_timespec(int64_t ns) {
    struct timespec ts;
    ts.tv_sec = ns / 1000000000;
    ts.tv_nsec = ns % 1000000000;
    return ts;
}

int clinux_timerfd_arm(int fd, int64_t first_ns, int64_t period_ns) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    if (first_ns > 0) {
        spec.it_value = to_timespec(first_ns);
        spec.it_interval = to_timespec(period_ns > 0 ? period_ns : 0);
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL) == 0 ? 0 : -errno;
}

int64_t clinux_timerfd_drain(int fd) {
    uint64_t count = 0;
    ssize_t n = read(fd, &count, sizeof count);
    if (n == (ssize_t)sizeof count) return (int64_t)count;
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return 0;
    return n < 0 ? -errno : 0;
}

static void loop_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGHUP);
}

int clinux_device_signalfd(void) {
    sigset_t set;
    loop_signals(&set);
    signal(SIGPIPE, SIG_IGN);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -EINVAL;
    int fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (fd < 0) {
        int saved = errno;
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        return -saved;
    }
    return fd;
}

int clinux_signalfd_next(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n == (ssize_t)sizeof info) return (int)info.ssi_signo;
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return 0;
    return n < 0 ? -errno : 0;
}

void clinux_device_signals_unblock(void) {
    sigset_t set;
    loop_signals(&set);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int clinux_notify_socket(void) {
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    return fd < 0 ? -errno : fd;
}

int64_t clinux_notify_send(int fd, const char *path, const void *message, size_t length) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    size_t path_length = strlen(path);
    if (path_length == 0 || path_length >= sizeof address.sun_path) return -EINVAL;
    memcpy(address.sun_path, path, path_length);
    if (path[0] == '@') address.sun_path[0] = '\0';
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + path_length);
    ssize_t n = sendto(fd, message, length, MSG_NOSIGNAL, (struct sockaddr *)&address, size);
    return n < 0 ? -errno : (int64_t)n;
}

int clinux_directory_open(const char *path) {
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int clinux_writable_now(int fd) {
    struct pollfd p = { .fd = fd, .events = POLLOUT, .revents = 0 };
    int n = poll(&p, 1, 0);
    if (n < 0) return -errno;
    if (n == 0) return 0;
    return (p.revents & (POLLERR | POLLHUP | POLLNVAL)) ? -EPIPE : 1;
}
