// The board profiles (board/*.conf) compiled into the binary with C23 #embed: the files in board/
// stay the one source; a test parses each file there and checks it equals the built-in copy.
#include "board_profiles.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char sim[] = {
#embed "../../board/sim.conf"
};
static const unsigned char pi4[] = {
#embed "../../board/pi4-berrygps-imu-v4.conf"
};
static const unsigned char pi4gpsd[] = {
#embed "../../board/pi4-gpsd-berrygps-imu-v4.conf"
};
static const unsigned char pi5[] = {
#embed "../../board/pi5-berrygps-imu-v4.conf"
};
static const unsigned char zero2w[] = {
#embed "../../board/zero2w-berrygps-imu-v4.conf"
};
static const unsigned char adafruit[] = {
#embed "../../board/adafruit-ultimate-gps-hat.conf"
};
static const unsigned char sensehat[] = {
#embed "../../board/sense-hat-usb-gps.conf"
};
static const unsigned char waveshare[] = {
#embed "../../board/waveshare-l76x-hat.conf"
};
static const unsigned char hil[] = {
#embed "../../board/hil.conf"
};

static const struct {
    const char *name;
    const unsigned char *bytes;
    size_t length;
} profiles[] = {
    {"sim", sim, sizeof sim},
    {"pi4-berrygps-imu-v4", pi4, sizeof pi4},
    {"pi4-gpsd-berrygps-imu-v4", pi4gpsd, sizeof pi4gpsd},
    {"pi5-berrygps-imu-v4", pi5, sizeof pi5},
    {"zero2w-berrygps-imu-v4", zero2w, sizeof zero2w},
    {"adafruit-ultimate-gps-hat", adafruit, sizeof adafruit},
    {"sense-hat-usb-gps", sensehat, sizeof sensehat},
    {"waveshare-l76x-hat", waveshare, sizeof waveshare},
    {"hil", hil, sizeof hil},
};

size_t board_profile_count(void) { return sizeof profiles / sizeof profiles[0]; }
const char *board_profile_name(size_t index) { return index < board_profile_count() ? profiles[index].name : ""; }
const unsigned char *board_profile_bytes(size_t index) {
    return index < board_profile_count() ? profiles[index].bytes : (const unsigned char *)"";
}
size_t board_profile_length(size_t index) { return index < board_profile_count() ? profiles[index].length : 0; }
