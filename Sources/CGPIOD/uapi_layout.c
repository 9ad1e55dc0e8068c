// The GPIO character-device uAPI that libgpiod speaks for puckd (v1: gpioevent_*, v2: gpio_v2_*), checked
// by the compiler on every build and by the aarch64 cross-compile of `make test` (scripts/check-aarch64):
// the sizes and ioctl numbers of 64-bit Linux, the same on arm64 and x86_64. libgpiod (a Debian package)
// passes these structs; puckd's shim relies on their event semantics (CLOCK_MONOTONIC ns timestamps).
#include <stddef.h>
#include <linux/gpio.h>

#define CHECK(condition, what) _Static_assert(condition, what)

CHECK(sizeof(void *) == 8, "puckd runs on 64-bit Linux only (arm64, x86_64)");
// uAPI v1 (libgpiod 1.x)
CHECK(sizeof(struct gpiochip_info) == 68, "struct gpiochip_info");
CHECK(sizeof(struct gpiohandle_request) == 364 && sizeof(struct gpioevent_request) == 48, "v1 request structs");
CHECK(sizeof(struct gpioevent_data) == 16 && offsetof(struct gpioevent_data, id) == 8, "struct gpioevent_data");
CHECK(GPIO_GET_CHIPINFO_IOCTL == 0x8044b401 && GPIO_GET_LINEEVENT_IOCTL == 0xc030b404, "v1 ioctl numbers");
// uAPI v2 (libgpiod 2.x)
CHECK(sizeof(struct gpio_v2_line_request) == 592 && sizeof(struct gpio_v2_line_config) == 272, "v2 request structs");
CHECK(sizeof(struct gpio_v2_line_info) == 256 && sizeof(struct gpio_v2_line_attribute) == 16, "v2 line info");
CHECK(sizeof(struct gpio_v2_line_event) == 48 && offsetof(struct gpio_v2_line_event, line_seqno) == 20,
      "struct gpio_v2_line_event");
CHECK(GPIO_V2_GET_LINE_IOCTL == 0xc250b407 && GPIO_V2_GET_LINEINFO_IOCTL == 0xc100b405, "v2 ioctl numbers");
CHECK(GPIO_V2_LINE_ATTR_ID_DEBOUNCE == 3 && GPIO_V2_LINE_FLAG_EDGE_RISING == 0x10 && GPIO_V2_LINE_FLAG_EDGE_FALLING == 0x20,
      "v2 debounce attribute and edge flags");
