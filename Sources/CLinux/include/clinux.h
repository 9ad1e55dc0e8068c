#ifndef PUCKD_CLINUX_H
#define PUCKD_CLINUX_H
// Linux user-space API pieces that do not import into Swift as-is (function-like macros, unions,
// ioctl request numbers). Kept small: each helper is a direct, allocation-free syscall wrapper.
#include <stdint.h>
#include <stddef.h>

/// errno of the calling thread (Swift reads the C `errno` macro through this).
int clinux_errno(void);
#endif
