#include <fcntl.h>
#include <string.h>
#include "gpiod_private.h"

int puckd_gpiod_api_major(void) { return PUCKD_GPIOD_API; }

int puckd_gpiod_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 ? -1 : 0;
}

void puckd_gpiod_copy(char *buffer, size_t capacity, const char *text) {
    if (capacity == 0) return;
    if (text == NULL) text = "";
    size_t length = strlen(text);
    if (length >= capacity) length = capacity - 1;
    memcpy(buffer, text, length);
    buffer[length] = '\0';
}
