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

/// ioctl(2) with a pointer argument (the variadic C call does not import into Swift without a
/// CVarArg array). Returns the result, or -1 with errno set.
int clinux_ioctl_pointer(int fd, unsigned long request, void *argument);

/// ioctl(2) with an int argument. Returns the result, or -1 with errno set.
int clinux_ioctl_value(int fd, unsigned long request, int value);
#endif
