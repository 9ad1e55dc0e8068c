import CLinux

/// Linux i2c-dev (`/dev/i2c-N`): the adapter's functionality, the device address (I2C_SLAVE) and
/// the SMBus byte-data and I2C-block-data transfers (I2C_SMBUS). The transfers return their error
/// as a value (the IMU is read on every wake-up, where a throw would allocate under Swift Testing);
/// nothing allocates.
extension FileDescriptor {
    /// Opens an i2c-dev node read-write, close-on-exec.
    public static func openI2CBus(_ path: String) throws(Errno) -> FileDescriptor {
        try check(negated: clinux_i2c_open(path))
    }

    /// I2C_FUNCS: the adapter's functionality mask (ENOTTY/EINVAL thrown: not an i2c-dev node).
    public func i2cFunctionality() throws(Errno) -> UInt {
        var functionality: UInt = 0
        _ = try Errno.check(negated: clinux_i2c_functionality(rawValue, &functionality))
        return functionality
    }

    /// The functionality bits the IMU drivers need (SMBus byte data and I2C block reads).
    public static var i2cRequiredFunctionality: UInt { clinux_i2c_required_functionality() }

    /// I2C_SLAVE: later transfers go to the 7-bit `address`; nil when selected.
    public func selectI2CDevice(_ address: UInt8) -> Errno? { Self.failure(clinux_i2c_select(rawValue, address)) }

    /// SMBus read byte data: the register's value, or the error.
    public func i2cReadByte(register: UInt8) -> Result<UInt8, Errno> {
        let rc = clinux_i2c_read_byte_data(rawValue, register)
        return rc >= 0 ? .success(UInt8(truncatingIfNeeded: rc)) : .failure(Errno(rawValue: -rc))
    }

    /// SMBus write byte data; nil when written.
    public func i2cWriteByte(register: UInt8, value: UInt8) -> Errno? {
        Self.failure(clinux_i2c_write_byte_data(rawValue, register, value))
    }

    /// I2C block read of up to 32 bytes from `register` into `bytes`: the count read, or the error.
    public func i2cReadBlock(register: UInt8, into bytes: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .success(0) }
        let rc = clinux_i2c_read_i2c_block_data(rawValue, register, UInt8(min(bytes.count, 32)),
                                                base.assumingMemoryBound(to: UInt8.self))
        return rc >= 0 ? .success(Int(rc)) : .failure(Errno(rawValue: -rc))
    }

    private static func failure(_ rc: CInt) -> Errno? { rc < 0 ? Errno(rawValue: -rc) : nil }
}
