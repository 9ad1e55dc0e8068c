#ifndef PUCKD_GPIOD_PRIVATE_H
#define PUCKD_GPIOD_PRIVATE_H
// Shared by the two implementations of CGPIOD.h: which libgpiod API <gpiod.h> is (decided by the
// preprocessor, so the choice is made when puckd is built), and the chip record both fill at open.
#include <gpiod.h>
#include "CGPIOD.h"

// libgpiod v1 defines GPIOD_API and the line-bulk macros; v2 removed both (and every v1 call puckd made).
#if defined(GPIOD_API) && defined(GPIOD_LINE_BULK_MAX_LINES)
#define PUCKD_GPIOD_API 1
#else
#define PUCKD_GPIOD_API 2
#endif

/// Longest chip name or label kept (the kernel's GPIO_MAX_NAME_SIZE is 32 bytes with the NUL).
#define PUCKD_GPIOD_NAME_SIZE 32

/// The chip record both APIs fill at open: the libgpiod chip and what the Swift side asks of it.
struct puckd_gpiod_chip {
    struct gpiod_chip *chip;
    char name[PUCKD_GPIOD_NAME_SIZE];
    char label[PUCKD_GPIOD_NAME_SIZE];
    unsigned int lines;
};

/// The record of an opened `chip` with its name, label and line count copied. When the record cannot
/// be allocated, closes `chip` and returns NULL with errno ENOMEM.
puckd_gpiod_chip *puckd_gpiod_chip_record(struct gpiod_chip *chip, const char *name, const char *label,
                                          unsigned int lines);

/// Sets O_NONBLOCK on `fd`, so a read with nothing pending returns EAGAIN instead of blocking the loop.
/// 0, or -1 with errno.
int puckd_gpiod_set_nonblocking(int fd);
/// Copies `text` (NULL: "") into `buffer` of `capacity` bytes, truncated, always NUL-terminated.
void puckd_gpiod_copy(char *buffer, size_t capacity, const char *text);
#endif
