@testable import IMU
import SystemCalls
import Testing

@Suite struct I2CErrorTests {
    @Test func everyMessageSaysWhatToDo() {
        #expect(I2CError.busy(address: 0x1C).message.contains("a kernel driver owns 0x1c"))
        #expect(I2CError.busy(address: 0x1C).message.contains("/sys/bus/i2c/devices/N-001c/driver/unbind"))
        #expect(I2CError.permissionDenied.message.contains("add the user to group i2c"))
        #expect(I2CError.noSuchBus.message.contains("raspi-config nonint do_i2c 0"))
        #expect(I2CError.noSuchBus.message.contains("dtparam=i2c_arm=on"))
        #expect(I2CError.timeout(address: 0x28).message.contains("dtoverlay=i2c-gpio"))
        #expect(I2CError.noAcknowledge(address: 0x6A).message.contains("0x6a"))
        #expect(I2CError.io(address: 0x68).message.contains("EIO"))
        #expect(I2CError.unsupported(address: 0x68).message.contains("EOPNOTSUPP"))
        // Any other error names the kernel's errno by its text and symbol, as the syscall layer writes it.
        #expect(I2CError.other(.wouldBlock, address: 0x6A).message.contains("(EAGAIN) talking to 0x6a"))
    }

    @Test func kindsAndAddresses() {
        let errors: [I2CError] = [.noAcknowledge(address: 1), .io(address: 2), .busy(address: 3), .timeout(address: 4),
                                  .permissionDenied, .noSuchBus, .notAnI2CBus, .unsupported(address: 5),
                                  .other(Errno(rawValue: 11), address: 6)]
        #expect(errors.map(\.kind) == [.noAcknowledge, .io, .busy, .timeout, .permissionDenied, .noSuchBus, .noSuchBus,
                                       .unsupported, .other])
        #expect(errors.map(\.address) == [1, 2, 3, 4, nil, nil, nil, 5, 6])
        #expect(errors.allSatisfy { $0.summary.utf8CodeUnitCount > 20 })
    }

    @Test func hexFormatting() {
        #expect(I2CHex.byte(0x0A) == "0x0a" && I2CHex.byte(0xEA) == "0xea" && I2CHex.digits(0x00) == "00")
    }
}
