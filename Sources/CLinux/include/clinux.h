#ifndef PUCKD_CLINUX_H
#define PUCKD_CLINUX_H
// Linux user-space API pieces that do not import into Swift as-is (function-like macros, unions,
// ioctl request numbers). Kept small: each helper is a direct, allocation-free syscall wrapper.
#include <stdint.h>
#include <stddef.h>

/// errno of the calling thread (Swift reads the C `errno` macro through this).
int clinux_errno(void);

/// The text of an errno value ("No space left on device"), or NULL for an unknown number. A pointer
/// into the C library's static table: never allocates (strerrordesc_np).
const char *clinux_errno_text(int code);

/// The symbolic name of an errno value ("ENOSPC"), or NULL for an unknown number (strerrorname_np).
const char *clinux_errno_name(int code);
#endif
