#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
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

puckd_gpiod_chip *puckd_gpiod_chip_record(struct gpiod_chip *chip, const char *name, const char *label,
                                          unsigned int lines) {
    puckd_gpiod_chip *result = calloc(1, sizeof *result);
    if (result == NULL) {
        gpiod_chip_close(chip);
        errno = ENOMEM;
        return NULL;
    }
    result->chip = chip;
    puckd_gpiod_copy(result->name, sizeof result->name, name);
    puckd_gpiod_copy(result->label, sizeof result->label, label);
    result->lines = lines;
    return result;
}

void puckd_gpiod_chip_close(puckd_gpiod_chip *chip) {
    if (chip == NULL) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

const char *puckd_gpiod_chip_name(const puckd_gpiod_chip *chip) { return chip->name; }
const char *puckd_gpiod_chip_label(const puckd_gpiod_chip *chip) { return chip->label; }
unsigned int puckd_gpiod_chip_line_count(const puckd_gpiod_chip *chip) { return chip->lines; }
