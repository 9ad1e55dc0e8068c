/* The bare-loop floor of scripts/wakeup-rates (docs/power.md §1): poll() + read() on a periodic
 * timerfd at HERTZ wake-ups a second, nothing else, until killed. What this machine charges for
 * waking a process up at all, measured side by side with puckd the same way. */
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <unistd.h>

int main(int argc, char **argv) {
    long hertz = argc > 1 ? atol(argv[1]) : 100;
    if (hertz <= 0 || hertz > 1000000) return 2;
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    if (timer < 0) return 1;
    struct itimerspec spec = {0};
    long period = 1000000000L / hertz;
    spec.it_interval.tv_sec = period / 1000000000L;
    spec.it_interval.tv_nsec = period % 1000000000L;
    spec.it_value = spec.it_interval;
    if (timerfd_settime(timer, 0, &spec, NULL) != 0) return 1;
    struct pollfd entry = {.fd = timer, .events = POLLIN};
    for (;;) {
        if (poll(&entry, 1, 1000) > 0) {
            uint64_t expirations;
            if (read(timer, &expirations, sizeof expirations) < 0) return 1;
        }
    }
}
