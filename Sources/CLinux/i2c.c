#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include "clinux_i2c.h"

int clinux_i2c_open(const char *path) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int clinux_i2c_close(int fd) { return close(fd) < 0 ? -errno : 0; }

int clinux_i2c_select(int fd, uint8_t address) {
    return ioctl(fd, I2C_SLAVE, (unsigned long)address) < 0 ? -errno : 0;
}

int clinux_i2c_functionality(int fd, unsigned long *functionality) {
    return ioctl(fd, I2C_FUNCS, functionality) < 0 ? -errno : 0;
}

static int smbus_access(int fd, char read_write, uint8_t command, int size, union i2c_smbus_data *data) {
    struct i2c_smbus_ioctl_data args;
    args.read_write = read_write;
    args.command = command;
    args.size = size;
    args.data = data;
    for (;;) {
        if (ioctl(fd, I2C_SMBUS, &args) >= 0) return 0;
        if (errno != EINTR) return -errno;
    }
}

int clinux_i2c_read_byte_data(int fd, uint8_t command) {
    union i2c_smbus_data data;
    int rc = smbus_access(fd, I2C_SMBUS_READ, command, I2C_SMBUS_BYTE_DATA, &data);
    return rc < 0 ? rc : (int)data.byte;
}

int clinux_i2c_write_byte_data(int fd, uint8_t command, uint8_t value) {
    union i2c_smbus_data data;
    data.byte = value;
    return smbus_access(fd, I2C_SMBUS_WRITE, command, I2C_SMBUS_BYTE_DATA, &data);
}

int clinux_i2c_read_i2c_block_data(int fd, uint8_t command, uint8_t length, uint8_t *values) {
    if (length < 1 || length > I2C_SMBUS_BLOCK_MAX) return -EINVAL;
    union i2c_smbus_data data;
    data.block[0] = length;
    int rc = smbus_access(fd, I2C_SMBUS_READ, command, I2C_SMBUS_I2C_BLOCK_DATA, &data);
    if (rc < 0) return rc;
    int n = data.block[0] < length ? data.block[0] : length;
    memcpy(values, &data.block[1], (size_t)n);
    return n;
}

unsigned long clinux_i2c_required_functionality(void) {
    return I2C_FUNC_SMBUS_READ_BYTE_DATA | I2C_FUNC_SMBUS_WRITE_BYTE_DATA | I2C_FUNC_SMBUS_READ_I2C_BLOCK;
}

unsigned long clinux_i2c_ioctl_slave(void) { return I2C_SLAVE; }
unsigned long clinux_i2c_ioctl_smbus(void) { return I2C_SMBUS; }
unsigned long clinux_i2c_ioctl_funcs(void) { return I2C_FUNCS; }
