#ifndef PUCKD_CLINUX_GPIO_H
#define PUCKD_CLINUX_GPIO_H
// GPIO-side helpers that do not import into Swift: eventfd (the simulated GPIO twin's pollable
// descriptors) and the kernel PPS ioctls (request numbers encode the pointer size, so they differ
// between 64-bit arm64/x86_64 and 32-bit armhf; computed here by the C compiler from linux/pps.h).
#include <stdint.h>

/// A non-blocking, close-on-exec eventfd with counter 0, or -1 with errno set.
int clinux_gpio_eventfd(void);

/// Blocks SIGINT and SIGTERM for the calling thread and returns a non-blocking signalfd that polls
/// readable when one arrives (used by `puckd gpio watch|set` to release lines cleanly), or -1 with errno.
int clinux_gpio_termination_signalfd(void);

/// PPS_GETCAP and PPS_FETCH as this platform encodes them (for tests and diagnostics).
unsigned long clinux_pps_getcap_request(void);
unsigned long clinux_pps_fetch_request(void);

/// One PPS_FETCH result: sequence numbers and CLOCK_REALTIME timestamps (ns since 1970) of the last
/// assert and clear events, and the device's current mode bits.
typedef struct {
    uint32_t assert_sequence;
    uint32_t clear_sequence;
    int64_t assert_realtime_ns;
    int64_t clear_realtime_ns;
    int32_t current_mode;
} clinux_pps_reading;

/// PPS_GETCAP: the capability bits (PPS_CAPTUREASSERT = 0x01, PPS_CAPTURECLEAR = 0x02, …) into *mode.
/// Returns 0, or -1 with errno set (ENOTTY: not a PPS device).
int clinux_pps_getcap(int fd, int32_t *mode);

/// PPS_FETCH with a zero timeout (returns at once with the last event). Returns 0, or -1 with errno set.
int clinux_pps_fetch(int fd, clinux_pps_reading *reading);
#endif
