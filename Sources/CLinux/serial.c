#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "clinux_serial.h"

int clinux_pty_open(char *slave_path, size_t capacity) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -errno;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, slave_path, capacity) != 0) {
        int code = errno;
        close(fd);
        return -code;
    }
    return fd;
}
