#ifndef PUCKD_BOARD_PROFILES_H
#define PUCKD_BOARD_PROFILES_H
#include <stddef.h>
/// The board profiles of board/*.conf, compiled into puckd so `puckd run --board NAME` works on an
/// installed system and from any directory. Index 0 ..< board_profile_count().
size_t board_profile_count(void);
/// The profile's name (the file name without .conf), NUL-terminated.
const char *board_profile_name(size_t index);
/// The profile's text and its length in bytes.
const unsigned char *board_profile_bytes(size_t index);
size_t board_profile_length(size_t index);
#endif
