#ifndef PUCKD_CGPIOD_H
#define PUCKD_CGPIOD_H
// puckd's one GPIO API over libgpiod, the same for libgpiod v1 (1.6, GPIO uAPI v1) and v2 (2.x, uAPI v2):
// gpiod_shim.c is compiled against whichever <gpiod.h> pkg-config found, so the API is chosen when puckd
// is built (no dlopen). Every libgpiod call of puckd is in that file; Swift sees only these functions.
// One request per line (each input has its own pollable descriptor, set non-blocking here). Functions
// that can fail return NULL or -1 with errno set, as libgpiod does. Start-up functions may allocate;
// puckd_gpiod_line_set and puckd_gpiod_read_events (the loop's) do not.
#include <stddef.h>
#include <stdint.h>

/// The libgpiod API this build was compiled against: 1 or 2.
int puckd_gpiod_api_major(void);
/// The libgpiod library's version at run time, e.g. "1.6.3" or "2.2.1".
const char *puckd_gpiod_library_version(void);

/// An open GPIO chip (opaque).
typedef struct puckd_gpiod_chip puckd_gpiod_chip;
/// Opens the chip device at `path` (NULL with errno: ENOTTY/ENODEV not a GPIO chip, EACCES, ENOENT, …).
puckd_gpiod_chip *puckd_gpiod_chip_open(const char *path);
/// Closes the chip (requests made from it stay valid until released).
void puckd_gpiod_chip_close(puckd_gpiod_chip *chip);
/// The kernel name (e.g. "gpiochip0"), the label (e.g. "pinctrl-bcm2711") and the number of lines, read
/// once at open.
const char *puckd_gpiod_chip_name(const puckd_gpiod_chip *chip);
const char *puckd_gpiod_chip_label(const puckd_gpiod_chip *chip);
unsigned int puckd_gpiod_chip_line_count(const puckd_gpiod_chip *chip);
/// The consumer holding line `offset` (copied into `buffer`; "" when the line is free or has no consumer
/// name). 0, or -1 with errno.
int puckd_gpiod_line_consumer(puckd_gpiod_chip *chip, unsigned int offset, char *buffer, size_t capacity);
/// The debounce period the kernel applies to line `offset`, microseconds (0: none; always 0 with
/// uAPI v1, which has no debounce). -1 with errno.
int64_t puckd_gpiod_line_debounce_us(puckd_gpiod_chip *chip, unsigned int offset);

/// Pull resistor of an input.
enum {
    PUCKD_GPIOD_BIAS_AS_IS = 0,
    PUCKD_GPIOD_BIAS_DISABLED = 1,
    PUCKD_GPIOD_BIAS_PULL_UP = 2,
    PUCKD_GPIOD_BIAS_PULL_DOWN = 3,
};

/// What to request for one line.
typedef struct {
    /// Line offset on the chip.
    unsigned int offset;
    /// 0: input with edge events (both, or rising with `rising_only`; CLOCK_MONOTONIC timestamps); 1: output (push-pull).
    int output;
    /// 1: the line is active when low (the kernel inverts values and edges).
    int active_low;
    /// PUCKD_GPIOD_BIAS_* (inputs).
    int bias;
    /// Logical value driven at request time (outputs).
    int initial_value;
    /// Kernel debounce period for an input, microseconds (0: none). uAPI v1 has none: a non-zero value
    /// fails with EOPNOTSUPP there, so callers ask only when puckd_gpiod_api_major() is 2.
    uint32_t debounce_us;
    /// 1: an input reports rising edges only (an interrupt line); 0: both edges.
    int rising_only;
} puckd_gpiod_line_config;

/// A requested line (opaque).
typedef struct puckd_gpiod_line puckd_gpiod_line;
/// Requests one line for `consumer` (NULL with errno: EBUSY held by another consumer, EINVAL or
/// EOPNOTSUPP a configuration the kernel or driver refuses, ENOTTY no character-device uAPI of this
/// version). An input's descriptor is made non-blocking.
puckd_gpiod_line *puckd_gpiod_request(puckd_gpiod_chip *chip, const puckd_gpiod_line_config *config,
                                      const char *consumer);
/// Releases the line and frees it.
void puckd_gpiod_release(puckd_gpiod_line *line);
/// The descriptor that polls readable while edge events are pending (inputs), -1 for outputs.
int puckd_gpiod_line_fd(const puckd_gpiod_line *line);
/// Drives an output to the logical `value` (0/1). 0, or -1 with errno.
int puckd_gpiod_line_set(puckd_gpiod_line *line, int value);

/// One edge event.
typedef struct {
    /// Kernel timestamp, CLOCK_MONOTONIC nanoseconds.
    int64_t timestamp_ns;
    /// Line offset.
    uint32_t offset;
    /// 1 rising (became active), 0 falling (logical, active-low applied by the kernel).
    int32_t rising;
    /// The kernel's per-line sequence number (uAPI v2; 0 with v1): a gap means the kernel dropped events.
    uint64_t line_seqno;
} puckd_gpiod_edge;

/// Storage for reading events, made once at start-up (libgpiod v2's edge-event buffer, or v1's array).
typedef struct puckd_gpiod_event_buffer puckd_gpiod_event_buffer;
/// A buffer for up to `capacity` events (NULL with errno).
puckd_gpiod_event_buffer *puckd_gpiod_event_buffer_new(size_t capacity);
void puckd_gpiod_event_buffer_free(puckd_gpiod_event_buffer *buffer);
/// Reads the pending events of input `line` (at most `max` and the buffer's capacity) into `edges`
/// without blocking: the number read, 0 when none is pending, or -1 with errno.
int puckd_gpiod_read_events(puckd_gpiod_line *line, puckd_gpiod_event_buffer *buffer, puckd_gpiod_edge *edges,
                            size_t max);
#endif
