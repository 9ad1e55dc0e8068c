// CGPIOD.h over libgpiod v1 (1.6: Debian 12 / Raspberry Pi OS bookworm), GPIO uAPI v1: lines of the
// chip object, one request per line, line events read with gpiod_line_event_read_multiple. The kernel
// queues 16 events per line and drops the newest while full; v1 has no debounce and no sequence numbers.
#include "gpiod_private.h"
#if PUCKD_GPIOD_API == 1
#include <errno.h>
#include <stdlib.h>

struct puckd_gpiod_line {
    struct gpiod_line *line;
    unsigned int offset;
    int fd;
};

struct puckd_gpiod_event_buffer {
    size_t capacity;
    struct gpiod_line_event events[];
};

const char *puckd_gpiod_library_version(void) { return gpiod_version_string(); }

puckd_gpiod_chip *puckd_gpiod_chip_open(const char *path) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (chip == NULL) return NULL;
    return puckd_gpiod_chip_record(chip, gpiod_chip_name(chip), gpiod_chip_label(chip), gpiod_chip_num_lines(chip));
}

int puckd_gpiod_line_consumer(puckd_gpiod_chip *chip, unsigned int offset, char *buffer, size_t capacity) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (line == NULL || gpiod_line_update(line) != 0) return -1;
    puckd_gpiod_copy(buffer, capacity, gpiod_line_consumer(line));
    return 0;
}

int64_t puckd_gpiod_line_debounce_us(puckd_gpiod_chip *chip, unsigned int offset) {
    (void)chip;
    (void)offset;
    return 0;                              // uAPI v1 has no debounce
}

puckd_gpiod_line *puckd_gpiod_request(puckd_gpiod_chip *chip, const puckd_gpiod_line_config *config,
                                      const char *consumer) {
    if (config->debounce_us != 0) {
        errno = EOPNOTSUPP;
        return NULL;
    }
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, config->offset);
    if (line == NULL) return NULL;
    int flags = config->active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    if (!config->output) {
        switch (config->bias) {
        case PUCKD_GPIOD_BIAS_DISABLED: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE; break;
        case PUCKD_GPIOD_BIAS_PULL_UP: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP; break;
        case PUCKD_GPIOD_BIAS_PULL_DOWN: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN; break;
        default: break;
        }
    }
    struct gpiod_line_request_config request = {
        .consumer = consumer,
        .request_type = config->output ? GPIOD_LINE_REQUEST_DIRECTION_OUTPUT
                        : config->rising_only ? GPIOD_LINE_REQUEST_EVENT_RISING_EDGE : GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES,
        .flags = flags,
    };
    if (gpiod_line_request(line, &request, config->initial_value ? 1 : 0) != 0) return NULL;
    int fd = -1;
    if (!config->output) {
        fd = gpiod_line_event_get_fd(line);
        if (fd < 0 || puckd_gpiod_set_nonblocking(fd) != 0) {
            int saved = errno;
            gpiod_line_release(line);
            errno = saved;
            return NULL;
        }
    }
    puckd_gpiod_line *result = malloc(sizeof *result);
    if (result == NULL) {
        gpiod_line_release(line);
        errno = ENOMEM;
        return NULL;
    }
    result->line = line;
    result->offset = config->offset;
    result->fd = fd;
    return result;
}

void puckd_gpiod_release(puckd_gpiod_line *line) {
    if (line == NULL) return;
    gpiod_line_release(line->line);
    free(line);
}

int puckd_gpiod_line_fd(const puckd_gpiod_line *line) { return line->fd; }

int puckd_gpiod_line_set(puckd_gpiod_line *line, int value) {
    return gpiod_line_set_value(line->line, value ? 1 : 0);
}

puckd_gpiod_event_buffer *puckd_gpiod_event_buffer_new(size_t capacity) {
    if (capacity == 0) capacity = 1;
    puckd_gpiod_event_buffer *buffer = malloc(sizeof *buffer + capacity * sizeof(struct gpiod_line_event));
    if (buffer == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    buffer->capacity = capacity;
    return buffer;
}

void puckd_gpiod_event_buffer_free(puckd_gpiod_event_buffer *buffer) { free(buffer); }

int puckd_gpiod_read_events(puckd_gpiod_line *line, puckd_gpiod_event_buffer *buffer, puckd_gpiod_edge *edges,
                            size_t max) {
    if (line->fd < 0) {
        errno = EBADF;
        return -1;
    }
    size_t room = max < buffer->capacity ? max : buffer->capacity;
    if (room == 0) return 0;
    int n = gpiod_line_event_read_multiple(line->line, buffer->events, (unsigned int)room);
    if (n < 0) return (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? 0 : -1;
    for (int i = 0; i < n; i++) {
        const struct gpiod_line_event *event = &buffer->events[i];
        edges[i].timestamp_ns = (int64_t)event->ts.tv_sec * 1000000000 + (int64_t)event->ts.tv_nsec;
        edges[i].offset = line->offset;
        edges[i].rising = event->event_type == GPIOD_LINE_EVENT_RISING_EDGE;
        edges[i].line_seqno = 0;
    }
    return n;
}
#endif
