#ifndef PUCKD_CLINUX_SERIAL_H
#define PUCKD_CLINUX_SERIAL_H
// Serial and pseudo-terminal helpers whose libc declarations need _GNU_SOURCE / _XOPEN_SOURCE,
// which Swift's Glibc module does not see.
#include <stddef.h>

/// Opens a new pseudo-terminal master (posix_openpt O_RDWR|O_NOCTTY|O_CLOEXEC, grantpt,
/// unlockpt) and writes the slave's path (e.g. "/dev/pts/3") into `slave_path`.
/// Returns the master descriptor, or -errno.
int clinux_pty_open(char *slave_path, size_t capacity);
#endif
