// CGPIOD.h over libgpiod v2 (2.x: Debian 13 / Raspberry Pi OS trixie 2.2.1, bookworm-backports 2.1.3),
// GPIO uAPI v2: no open-by-label (the Swift side walks /dev/gpiochip* and compares labels), line
// settings + line config + request config objects for each request, edge events read into an edge-event
// buffer made once, bias, active-low, kernel debounce, CLOCK_MONOTONIC event timestamps. The kernel
// queues 16 events per one-line request and, unlike v1, drops the *oldest* while full; the per-line
// sequence numbers show such gaps.
#include "gpiod_private.h"
#if PUCKD_GPIOD_API == 2
#include <errno.h>
#include <stdlib.h>

struct puckd_gpiod_line {
    struct gpiod_line_request *request;
    unsigned int offset;
    int fd;
};

struct puckd_gpiod_event_buffer {
    struct gpiod_edge_event_buffer *buffer;
    size_t capacity;
};

/// Events the kernel queues for one request (its default for a one-line request, said explicitly).
#define PUCKD_GPIOD_KERNEL_QUEUE 16

const char *puckd_gpiod_library_version(void) { return gpiod_api_version(); }

puckd_gpiod_chip *puckd_gpiod_chip_open(const char *path) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (chip == NULL) return NULL;
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (info == NULL) {
        int saved = errno;
        gpiod_chip_close(chip);
        errno = saved;
        return NULL;
    }
    puckd_gpiod_chip *result = puckd_gpiod_chip_record(chip, gpiod_chip_info_get_name(info), gpiod_chip_info_get_label(info),
                                                       (unsigned int)gpiod_chip_info_get_num_lines(info));
    int saved = errno;
    gpiod_chip_info_free(info);
    errno = saved;
    return result;
}

int puckd_gpiod_line_consumer(puckd_gpiod_chip *chip, unsigned int offset, char *buffer, size_t capacity) {
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (info == NULL) return -1;
    puckd_gpiod_copy(buffer, capacity, gpiod_line_info_is_used(info) ? gpiod_line_info_get_consumer(info) : "");
    gpiod_line_info_free(info);
    return 0;
}

int64_t puckd_gpiod_line_debounce_us(puckd_gpiod_chip *chip, unsigned int offset) {
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (info == NULL) return -1;
    int64_t period = gpiod_line_info_is_debounced(info) ? (int64_t)gpiod_line_info_get_debounce_period_us(info) : 0;
    gpiod_line_info_free(info);
    return period;
}

/// The line settings for `config` (NULL with errno).
static struct gpiod_line_settings *settings_for(const puckd_gpiod_line_config *config) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (settings == NULL) return NULL;
    int failed = 0;
    gpiod_line_settings_set_active_low(settings, config->active_low != 0);
    if (config->output) {
        failed |= gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
        failed |= gpiod_line_settings_set_drive(settings, GPIOD_LINE_DRIVE_PUSH_PULL);
        failed |= gpiod_line_settings_set_output_value(
            settings, config->initial_value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    } else {
        enum gpiod_line_bias bias = GPIOD_LINE_BIAS_AS_IS;
        switch (config->bias) {
        case PUCKD_GPIOD_BIAS_DISABLED: bias = GPIOD_LINE_BIAS_DISABLED; break;
        case PUCKD_GPIOD_BIAS_PULL_UP: bias = GPIOD_LINE_BIAS_PULL_UP; break;
        case PUCKD_GPIOD_BIAS_PULL_DOWN: bias = GPIOD_LINE_BIAS_PULL_DOWN; break;
        default: break;
        }
        failed |= gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
        failed |= gpiod_line_settings_set_edge_detection(settings, config->rising_only ? GPIOD_LINE_EDGE_RISING : GPIOD_LINE_EDGE_BOTH);
        failed |= gpiod_line_settings_set_bias(settings, bias);
        failed |= gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
        gpiod_line_settings_set_debounce_period_us(settings, config->debounce_us);
    }
    if (failed) {
        int saved = errno;
        gpiod_line_settings_free(settings);
        errno = saved != 0 ? saved : EINVAL;
        return NULL;
    }
    return settings;
}

puckd_gpiod_line *puckd_gpiod_request(puckd_gpiod_chip *chip, const puckd_gpiod_line_config *config,
                                      const char *consumer) {
    puckd_gpiod_line *result = malloc(sizeof *result);
    struct gpiod_line_settings *settings = result != NULL ? settings_for(config) : NULL;
    struct gpiod_line_config *line_config = settings != NULL ? gpiod_line_config_new() : NULL;
    struct gpiod_request_config *request_config = line_config != NULL ? gpiod_request_config_new() : NULL;
    struct gpiod_line_request *request = NULL;
    if (result == NULL) errno = ENOMEM;
    if (request_config != NULL) {
        unsigned int offset = config->offset;
        gpiod_request_config_set_consumer(request_config, consumer);
        gpiod_request_config_set_event_buffer_size(request_config, PUCKD_GPIOD_KERNEL_QUEUE);
        if (gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) == 0) {
            request = gpiod_chip_request_lines(chip->chip, request_config, line_config);
        }
    }
    int saved = errno;
    // libgpiod v2 asserts on NULL objects: free only what was made.
    if (request_config != NULL) gpiod_request_config_free(request_config);
    if (line_config != NULL) gpiod_line_config_free(line_config);
    if (settings != NULL) gpiod_line_settings_free(settings);
    int fd = -1;
    if (request != NULL && !config->output) {
        fd = gpiod_line_request_get_fd(request);
        if (fd < 0 || puckd_gpiod_set_nonblocking(fd) != 0) {
            saved = errno;
            gpiod_line_request_release(request);
            request = NULL;
        }
    }
    if (request == NULL) {
        free(result);
        errno = saved;
        return NULL;
    }
    result->request = request;
    result->offset = config->offset;
    result->fd = fd;
    return result;
}

void puckd_gpiod_release(puckd_gpiod_line *line) {
    if (line == NULL) return;
    gpiod_line_request_release(line->request);
    free(line);
}

int puckd_gpiod_line_fd(const puckd_gpiod_line *line) { return line->fd; }

int puckd_gpiod_line_set(puckd_gpiod_line *line, int value) {
    return gpiod_line_request_set_value(line->request, line->offset,
                                        value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
}

puckd_gpiod_event_buffer *puckd_gpiod_event_buffer_new(size_t capacity) {
    puckd_gpiod_event_buffer *result = malloc(sizeof *result);
    if (result == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    result->buffer = gpiod_edge_event_buffer_new(capacity);
    if (result->buffer == NULL) {
        int saved = errno;
        free(result);
        errno = saved;
        return NULL;
    }
    result->capacity = gpiod_edge_event_buffer_get_capacity(result->buffer);
    return result;
}

void puckd_gpiod_event_buffer_free(puckd_gpiod_event_buffer *buffer) {
    if (buffer == NULL) return;
    gpiod_edge_event_buffer_free(buffer->buffer);
    free(buffer);
}

int puckd_gpiod_read_events(puckd_gpiod_line *line, puckd_gpiod_event_buffer *buffer, puckd_gpiod_edge *edges,
                            size_t max) {
    if (line->fd < 0) {
        errno = EBADF;
        return -1;
    }
    size_t room = max < buffer->capacity ? max : buffer->capacity;
    if (room == 0) return 0;
    int n = gpiod_line_request_read_edge_events(line->request, buffer->buffer, room);
    if (n < 0) return (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? 0 : -1;
    for (int i = 0; i < n; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(buffer->buffer, (unsigned long)i);
        edges[i].timestamp_ns = (int64_t)gpiod_edge_event_get_timestamp_ns(event);
        edges[i].offset = gpiod_edge_event_get_line_offset(event);
        edges[i].rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
        edges[i].line_seqno = gpiod_edge_event_get_line_seqno(event);
    }
    return n;
}
#endif
