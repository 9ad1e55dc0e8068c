// The kernel user-space API as puckd's C helpers and Swift code use it, checked by the compiler on every
// build (x86_64 here, aarch64 on a Pi, and aarch64 cross-compiled by `make test`: scripts/check-aarch64).
// The numbers are those of 64-bit Linux (arm64 and x86_64 share them: asm-generic ioctl encoding, LP64
// layouts). A 32-bit target (armhf, as on 32-bit Raspberry Pi OS images) fails here on purpose: pointer-
// sized fields change the i2c-dev and PPS structs and the PPS ioctl numbers, and puckd does not support it.
#include <stddef.h>
#include <poll.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <linux/pps.h>

#define CHECK(condition, what) _Static_assert(condition, what)

// Word sizes: 64-bit only.
CHECK(sizeof(void *) == 8 && sizeof(long) == 8, "puckd runs on 64-bit Linux only (arm64, x86_64): 32-bit images cannot run it");
CHECK(sizeof(int) == 4 && sizeof(short) == 2, "int is 32 bits, short 16");

// i2c-dev (ioctl I2C_SLAVE, I2C_FUNCS, I2C_SMBUS; Sources/CLinux/i2c.c, Hardware.I2CDevBus).
CHECK(I2C_SLAVE == 0x0703 && I2C_FUNCS == 0x0705 && I2C_SMBUS == 0x0720, "i2c-dev ioctl numbers");
CHECK(sizeof(struct i2c_smbus_ioctl_data) == 16, "struct i2c_smbus_ioctl_data is 16 bytes");
CHECK(offsetof(struct i2c_smbus_ioctl_data, read_write) == 0 && offsetof(struct i2c_smbus_ioctl_data, command) == 1
      && offsetof(struct i2c_smbus_ioctl_data, size) == 4 && offsetof(struct i2c_smbus_ioctl_data, data) == 8,
      "struct i2c_smbus_ioctl_data field offsets");
CHECK(sizeof(union i2c_smbus_data) == 34 && I2C_SMBUS_BLOCK_MAX == 32, "union i2c_smbus_data: 32 data bytes + 2");
CHECK(I2C_SMBUS_READ == 1 && I2C_SMBUS_WRITE == 0 && I2C_SMBUS_BYTE_DATA == 2 && I2C_SMBUS_I2C_BLOCK_DATA == 8,
      "SMBus transfer kinds");

// PPS (ioctl PPS_GETCAP, PPS_FETCH; Sources/CLinux/gpio.c, Hardware.PPSDevice): the request numbers encode
// the size of a *pointer* (the kernel declares them with `struct pps_fdata *`), 8 on 64-bit.
CHECK(PPS_GETCAP == 0x800870a3 && PPS_FETCH == 0xc00870a4, "PPS ioctl numbers (64-bit encoding)");
CHECK(sizeof(struct pps_ktime) == 16 && offsetof(struct pps_ktime, nsec) == 8 && offsetof(struct pps_ktime, flags) == 12,
      "struct pps_ktime");
CHECK(sizeof(struct pps_kinfo) == 48 && offsetof(struct pps_kinfo, assert_tu) == 8
      && offsetof(struct pps_kinfo, clear_tu) == 24 && offsetof(struct pps_kinfo, current_mode) == 40, "struct pps_kinfo");
CHECK(sizeof(struct pps_fdata) == 64 && offsetof(struct pps_fdata, timeout) == 48, "struct pps_fdata");

// Serial ports and the console (termios through glibc, ioctl TIOCEXCL / TIOCGWINSZ; Hardware.TermiosPort,
// Sources/CLinux/console.c; libserialport uses TIOCMGET).
CHECK(sizeof(tcflag_t) == 4 && sizeof(speed_t) == 4 && sizeof(cc_t) == 1 && NCCS == 32, "termios field types");
CHECK(sizeof(struct termios) == 60 && offsetof(struct termios, c_cflag) == 8 && offsetof(struct termios, c_cc) == 17
      && offsetof(struct termios, c_ispeed) == 52, "struct termios layout");
CHECK(VMIN == 6 && VTIME == 5, "VMIN and VTIME slots of c_cc");
CHECK(B9600 == 0000015 && B115200 == 0010002 && B4000000 == 0010017 && CBAUD == 0010017, "termios speed codes");
CHECK(TIOCEXCL == 0x540C && TIOCGWINSZ == 0x5413 && TIOCMGET == 0x5415, "tty ioctl numbers");
CHECK(sizeof(struct winsize) == 8, "struct winsize");

// The device loop (Sources/CLinux/device.c): timerfd, signalfd, poll, the sd_notify datagram.
CHECK(sizeof(struct timespec) == 16 && sizeof(struct itimerspec) == 32, "struct itimerspec (64-bit time_t)");
CHECK(sizeof(struct signalfd_siginfo) == 128 && offsetof(struct signalfd_siginfo, ssi_signo) == 0,
      "struct signalfd_siginfo");
CHECK(sizeof(struct pollfd) == 8, "struct pollfd");
CHECK(sizeof(struct sockaddr_un) == 110 && offsetof(struct sockaddr_un, sun_path) == 2, "struct sockaddr_un");
