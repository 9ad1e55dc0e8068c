#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include "clinux.h"

int clinux_errno(void) { return errno; }

// strerrordesc_np (glibc 2.32+) returns the message from glibc's static table: no allocation, no
// locale lookup, safe in the loop (strerror may allocate for an unknown number).
const char *clinux_errno_text(int code) { return strerrordesc_np(code); }

const char *clinux_errno_name(int code) { return strerrorname_np(code); }

int clinux_ioctl_pointer(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }

int clinux_ioctl_value(int fd, unsigned long request, int value) { return ioctl(fd, request, value); }
