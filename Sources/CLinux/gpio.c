#include <errno.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/ioctl.h>
#include <linux/pps.h>
#include "clinux_gpio.h"

int clinux_gpio_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int clinux_gpio_termination_signalfd(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    int fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (fd < 0) {
        int saved = errno;
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);   // keep Ctrl-C working without the descriptor
        errno = saved;
    }
    return fd;
}

unsigned long clinux_pps_getcap_request(void) { return (unsigned long)PPS_GETCAP; }
unsigned long clinux_pps_fetch_request(void) { return (unsigned long)PPS_FETCH; }

int clinux_pps_getcap(int fd, int32_t *mode) {
    int value = 0;
    if (ioctl(fd, PPS_GETCAP, &value) < 0) return -1;
    *mode = value;
    return 0;
}

int clinux_pps_fetch(int fd, clinux_pps_reading *reading) {
    struct pps_fdata data;
    memset(&data, 0, sizeof data);      // timeout {0, 0}, flags 0: do not wait
    if (ioctl(fd, PPS_FETCH, &data) < 0) return -1;
    reading->assert_sequence = data.info.assert_sequence;
    reading->clear_sequence = data.info.clear_sequence;
    reading->assert_realtime_ns = data.info.assert_tu.sec * 1000000000LL + data.info.assert_tu.nsec;
    reading->clear_realtime_ns = data.info.clear_tu.sec * 1000000000LL + data.info.clear_tu.nsec;
    reading->current_mode = data.info.current_mode;
    return 0;
}
