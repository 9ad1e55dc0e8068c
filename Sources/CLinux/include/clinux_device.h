#ifndef PUCKD_CLINUX_DEVICE_H
#define PUCKD_CLINUX_DEVICE_H
// Helpers for puckd's device loop that do not import into Swift as-is: timerfd, signalfd with the
// loop's signal set, the two clocks, the sd_notify datagram (sockaddr_un with abstract names) and a
// directory fsync. Each is a direct, allocation-free syscall wrapper.
#include <stdint.h>
#include <stddef.h>

/// CLOCK_MONOTONIC in nanoseconds.
int64_t clinux_monotonic_ns(void);
/// CLOCK_REALTIME in nanoseconds since 1970.
int64_t clinux_realtime_ns(void);

/// A non-blocking, close-on-exec timerfd on CLOCK_MONOTONIC, or -errno.
int clinux_timerfd_create(void);
/// Arms `fd` to expire first at monotonic `first_ns` (absolute) and then every `period_ns`
/// (0: once). `first_ns` 0 disarms. Returns 0 or -errno.
int clinux_timerfd_arm(int fd, int64_t first_ns, int64_t period_ns);
/// Reads the expiration count (drains the descriptor). Returns the count, 0 when none, or -errno.
int64_t clinux_timerfd_drain(int fd);

/// Blocks SIGTERM, SIGINT and SIGHUP for the calling thread, ignores SIGPIPE, and returns a
/// non-blocking, close-on-exec signalfd for the three signals, or -errno (signals then unblocked).
int clinux_device_signalfd(void);
/// Reads one pending signal from a signalfd: its number, 0 when none is pending, or -errno.
int clinux_signalfd_next(int fd);
/// Unblocks SIGTERM, SIGINT and SIGHUP again (after the loop ended; tests).
void clinux_device_signals_unblock(void);

/// A non-blocking, close-on-exec unix datagram socket for sd_notify, or -errno.
int clinux_notify_socket(void);
/// Sends `message` to the unix socket `path` (a leading '@' names an abstract socket, as
/// $NOTIFY_SOCKET spells it). Returns the bytes sent or -errno.
int64_t clinux_notify_send(int fd, const char *path, const void *message, size_t length);

/// Opens a directory read-only for fsync (O_DIRECTORY | O_CLOEXEC). Returns the fd or -errno.
int clinux_directory_open(const char *path);

/// 1 when `fd` can take a write of up to PIPE_BUF bytes without blocking, 0 when not, -errno on error.
int clinux_writable_now(int fd);
#endif
