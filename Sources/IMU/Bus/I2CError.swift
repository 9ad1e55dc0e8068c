import SystemCalls

/// What went wrong on an I2C transfer or when opening a bus. Carries no strings, so throwing one in
/// the sample path allocates nothing; `message` builds the full sentence (what is wrong and what to do)
/// for logs and the CLI, `summary` is a static one-liner for allocation-free status output.
public enum I2CError: Error, Equatable, Sendable {
    /// No device acknowledged its address (ENXIO/EREMOTEIO/ENODEV from i2c-dev).
    case noAcknowledge(address: UInt8)
    /// The transfer failed electrically or the chip misbehaved (EIO).
    case io(address: UInt8)
    /// A kernel driver is bound to this address, so user space may not talk to it (EBUSY on I2C_SLAVE).
    case busy(address: UInt8)
    /// The transfer timed out (ETIMEDOUT), typically clock stretching the controller cannot handle.
    case timeout(address: UInt8)
    /// The bus device node exists but may not be opened (EACCES/EPERM).
    case permissionDenied
    /// The bus device node does not exist (ENOENT/ENODEV at open).
    case noSuchBus
    /// The path is not an i2c-dev character device (ENOTTY on the ioctl).
    case notAnI2CBus
    /// The adapter lacks the SMBus byte-data or I2C-block transfers the drivers use (EOPNOTSUPP).
    case unsupported(address: UInt8)
    /// Any other error the kernel reported, as its typed errno.
    case other(Errno, address: UInt8)

    /// The error class, for counters.
    public var kind: I2CErrorKind {
        switch self {
        case .noAcknowledge: .noAcknowledge
        case .io: .io
        case .busy: .busy
        case .timeout: .timeout
        case .permissionDenied: .permissionDenied
        case .noSuchBus, .notAnI2CBus: .noSuchBus
        case .unsupported: .unsupported
        case .other: .other
        }
    }

    /// The 7-bit device address involved, when the error is about one device.
    public var address: UInt8? {
        switch self {
        case .noAcknowledge(let a), .io(let a), .busy(let a), .timeout(let a), .unsupported(let a),
             .other(_, let a): a
        case .permissionDenied, .noSuchBus, .notAnI2CBus: nil
        }
    }

    /// One static sentence naming the problem and the fix (no address; allocation-free).
    public var summary: StaticString {
        switch self {
        case .noAcknowledge:
            "no device acknowledged (NACK): check wiring, power and the address with i2cdetect"
        case .io:
            "I/O error on the I2C bus (EIO): check wiring, pull-ups and bus speed; the driver re-initializes"
        case .busy:
            "a kernel driver owns this address (EBUSY): unbind it or remove the dtoverlay that binds it"
        case .timeout:
            "I2C transfer timed out (ETIMEDOUT): clock stretching? use dtoverlay=i2c-gpio for a BNO055"
        case .permissionDenied:
            "permission denied on the I2C bus (EACCES): add the user to group i2c and log in again"
        case .noSuchBus:
            "no such I2C bus (ENOENT): enable I2C: raspi-config nonint do_i2c 0 / dtparam=i2c_arm=on"
        case .notAnI2CBus:
            "not an i2c-dev device (ENOTTY): give a /dev/i2c-N path or an adapter name"
        case .unsupported:
            "the adapter lacks SMBus byte-data or I2C-block transfers (EOPNOTSUPP): use another bus"
        case .other:
            "unexpected error on the I2C bus: check dmesg for the adapter's messages"
        }
    }

    /// The full message: what is wrong, with the address, and what to do (allocates; not for the hot path).
    public var message: String {
        switch self {
        case .noAcknowledge(let a):
            "no device acknowledged address \(I2CHex.byte(a)) (NACK): check the wiring and power, and that the chip "
                + "really sits at \(I2CHex.byte(a)) (i2cdetect -y BUS)"
        case .io(let a):
            "I/O error talking to \(I2CHex.byte(a)) (EIO): check the wiring, pull-ups and bus speed; "
                + "puckd counts it and re-initializes the chip when it answers again"
        case .busy(let a):
            "a kernel driver owns \(I2CHex.byte(a)) (EBUSY; i2cdetect shows UU): unbind it "
                + "(echo N-00\(I2CHex.digits(a)) | sudo tee /sys/bus/i2c/devices/N-00\(I2CHex.digits(a))/driver/unbind, "
                + "N = bus number) or remove the dtoverlay that binds it (e.g. a Sense HAT IIO overlay)"
        case .timeout(let a):
            "I2C transfer to \(I2CHex.byte(a)) timed out (ETIMEDOUT): the chip stretches the clock, which the Pi's "
                + "hardware I2C mishandles; use software I2C (dtoverlay=i2c-gpio,bus=3) and --bus /dev/i2c-3"
        case .permissionDenied:
            "permission denied opening the I2C bus (EACCES): add the user to group i2c "
                + "(sudo usermod -aG i2c $USER) and log in again, or install puckd's udev rule"
        case .noSuchBus:
            "no such I2C bus (ENOENT): enable I2C: sudo raspi-config nonint do_i2c 0 "
                + "(or dtparam=i2c_arm=on in /boot/firmware/config.txt and modprobe i2c-dev), "
                + "or pass the right --bus /dev/i2c-N / --adapter NAME"
        case .notAnI2CBus:
            "the path is not an i2c-dev device (ENOTTY): pass a /dev/i2c-N path or --adapter NAME"
        case .unsupported(let a):
            "the I2C adapter cannot do SMBus byte-data / I2C-block transfers to \(I2CHex.byte(a)) (EOPNOTSUPP): "
                + "use a bus whose adapter supports them (every Raspberry Pi I2C controller does)"
        case .other(let e, let a):
            "unexpected error \(e) talking to \(I2CHex.byte(a)) on the I2C bus: check dmesg for the adapter's messages"
        }
    }
}

/// Classes of I2C errors, one counter each in `IMUErrorCounters`.
public enum I2CErrorKind: Int, Sendable, CaseIterable {
    case noAcknowledge, io, busy, timeout, permissionDenied, noSuchBus, unsupported, other

    /// Short lower-case name for status lines ("nack", "eio", …).
    public var name: StaticString {
        switch self {
        case .noAcknowledge: "nack"
        case .io: "eio"
        case .busy: "ebusy"
        case .timeout: "etimedout"
        case .permissionDenied: "eacces"
        case .noSuchBus: "enoent"
        case .unsupported: "eopnotsupp"
        case .other: "other"
        }
    }
}

/// Hexadecimal text for register values and addresses in messages (allocates; not for the hot path).
public enum I2CHex {
    /// "0x6a".
    public static func byte(_ value: UInt8) -> String { "0x" + digits(value) }

    /// "6a".
    public static func digits(_ value: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        return String(digits[Int(value >> 4)]) + String(digits[Int(value & 0x0f)])
    }
}
