#ifndef PUCKD_CLINUX_I2C_H
#define PUCKD_CLINUX_I2C_H
// Linux i2c-dev SMBus transfers for Swift: `struct i2c_smbus_ioctl_data` / `union i2c_smbus_data`
// and the ioctl request numbers do not import into Swift, so these thin wrappers build them.
// Only SMBus transfers (ioctl I2C_SMBUS) are used: no read()/write()/I2C_RDWR, because the kernel's
// i2c-stub test adapter supports SMBus only. Every function returns a negative errno on failure.
#include <stdint.h>

/// Opens an i2c-dev node read-write, close-on-exec. Returns the fd or -errno.
int clinux_i2c_open(const char *path);
/// Closes an fd. Returns 0 or -errno.
int clinux_i2c_close(int fd);
/// ioctl(I2C_SLAVE): selects the 7-bit address for the following transfers. 0 or -errno
/// (-EBUSY when a kernel driver is bound to that address).
int clinux_i2c_select(int fd, uint8_t address);
/// ioctl(I2C_FUNCS): the adapter's functionality mask. 0 or -errno.
int clinux_i2c_functionality(int fd, unsigned long *functionality);
/// SMBus read byte data. The byte (0…255) or -errno.
int clinux_i2c_read_byte_data(int fd, uint8_t command);
/// SMBus write byte data. 0 or -errno.
int clinux_i2c_write_byte_data(int fd, uint8_t command, uint8_t value);
/// SMBus read I2C block data: `length` (1…32) bytes starting at `command` into `values`.
/// The number of bytes read or -errno.
int clinux_i2c_read_i2c_block_data(int fd, uint8_t command, uint8_t length, uint8_t *values);

/// Functionality bits the IMU drivers need: I2C_FUNC_SMBUS_READ_BYTE_DATA | WRITE_BYTE_DATA |
/// READ_I2C_BLOCK.
unsigned long clinux_i2c_required_functionality(void);
/// The ioctl request numbers (for tests and diagnostics).
unsigned long clinux_i2c_ioctl_slave(void);
unsigned long clinux_i2c_ioctl_smbus(void);
unsigned long clinux_i2c_ioctl_funcs(void);
#endif
