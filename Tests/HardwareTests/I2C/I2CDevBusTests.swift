import IMU
import SystemCalls
import Glibc
import Testing
import CLinux
import Heading
import TestSupport
@testable import Hardware

/// The Linux i2c-dev backend: what can be checked without an I2C adapter here (errors, errno mapping,
/// ioctl numbers, adapter lookup), plus a real-kernel test against `i2c-stub` when it is loaded.
@Suite struct I2CDevBusTests {
    @Test func missingBusSaysHowToEnableI2C() {
        #expect(throws: I2CError.noSuchBus) { _ = try I2CDevBus(path: "/dev/i2c-puckd-missing") }
        #expect(I2CError.noSuchBus.message.contains("do_i2c 0"))
    }

    @Test func aNonI2CDeviceIsRefused() throws {
        #expect(throws: I2CError.notAnI2CBus) { _ = try I2CDevBus(path: "/dev/null") }
        let file = try #require(Fixtures.temporaryFile(named: "not-a-bus", contents: Array("not a bus".utf8)))
        #expect(throws: I2CError.notAnI2CBus) { _ = try I2CDevBus(path: file) }
    }

    @Test func errnoMapping() {
        let cases: [(Int32, I2CError)] = [
            (ENXIO, .noAcknowledge(address: 0x6A)), (EREMOTEIO, .noAcknowledge(address: 0x6A)),
            (ENODEV, .noAcknowledge(address: 0x6A)), (EIO, .io(address: 0x6A)), (EBUSY, .busy(address: 0x6A)),
            (ETIMEDOUT, .timeout(address: 0x6A)), (EACCES, .permissionDenied), (EPERM, .permissionDenied),
            (ENOENT, .noSuchBus), (EOPNOTSUPP, .unsupported(address: 0x6A)), (EAGAIN, .other(Errno(rawValue: EAGAIN), address: 0x6A)),
        ]
        for (e, expected) in cases {
            #expect(I2CDevBus.error(Errno(rawValue: e), address: 0x6A, opening: false) == expected, "errno \(e)")
        }
        #expect(I2CDevBus.error(.noSuchDevice, address: 0, opening: true) == .noSuchBus)
    }

    @Test func ioctlNumbersMatchTheKernelHeaders() {
        #expect(clinux_i2c_ioctl_slave() == 0x0703)
        #expect(clinux_i2c_ioctl_funcs() == 0x0705)
        #expect(clinux_i2c_ioctl_smbus() == 0x0720)
        // READ_BYTE_DATA 0x80000 | WRITE_BYTE_DATA 0x100000 | READ_I2C_BLOCK 0x4000000
        #expect(clinux_i2c_required_functionality() == 0x0418_0000)
    }

    @Test func adaptersAreFoundByNameInSysfs() throws {
        // A fake /sys/class/i2c-adapter: one directory per adapter with its "name" file.
        let marker = try #require(Fixtures.temporaryFile(named: "marker", contents: []))
        let root = String(marker.dropLast("/marker".count))
        for (n, name) in [(0, "SMBus I801 adapter at f000"), (1, "SMBus stub driver"), (10, "bcm2835 (i2c@7e804000)")] {
            #expect(mkdir(root + "/i2c-\(n)", 0o755) == 0)
            let fd = open(root + "/i2c-\(n)/name", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            try #require(fd >= 0)
            let text = Array((name + "\n").utf8)
            #expect(text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == text.count)
            close(fd)
        }
        mkdir(root + "/not-an-adapter", 0o755)
        let directory = I2CAdapterDirectory(root: root)
        #expect(directory.adapters().map(\.number) == [0, 1, 10])
        #expect(directory.adapter(named: "SMBus stub driver")?.devicePath == "/dev/i2c-1")
        #expect(directory.adapter(named: "bcm2835")?.devicePath == "/dev/i2c-10")
        #expect(directory.adapter(named: "nope") == nil)
        do {
            _ = try I2CDevBus(adapterName: "nope", directory: directory)
            Issue.record("opened a bus for an adapter that does not exist")
        } catch {
            #expect(error.message.contains("no I2C adapter named \"nope\""))
            #expect(error.message.contains("/dev/i2c-1 \"SMBus stub driver\""))
        }
        #expect(I2CAdapterDirectory(root: root + "/missing").adapters().isEmpty)
    }

    // MARK: real kernel: i2c-stub

    /// The stub adapter, when the kernel has `i2c-stub` loaded with chips at 0x6a and 0x1c
    /// (`modprobe i2c-dev; modprobe i2c-stub chip_addr=0x6a,0x1c`: the HIL VM; not this container,
    /// whose kernel has no loadable modules).
    static let stubAdapter: I2CAdapter? = I2CAdapterDirectory().adapter(named: "SMBus stub driver")

    @Test(.enabled(if: stubAdapter != nil, "i2c-stub not loaded (modprobe i2c-stub chip_addr=0x6a,0x1c)"))
    func lsm6dslDriverAgainstTheKernelStub() throws {
        let bus = try I2CDevBus(path: Self.stubAdapter!.devicePath)
        // Preload an LSM6DSL at 0x6a and an LIS3MDL at 0x1c with byte writes (the stub is a plain
        // register file: the LIS3MDL burst at 0xA7 reads stub registers 0xA7…, so preload those).
        let ag: [(UInt8, UInt8)] = [(0x0F, 0x6A), (0x1E, 0x03), (0x20, 0x00), (0x21, 0x02),
                                    (0x22, 0xE8), (0x23, 0x03), (0x24, 0x18), (0x25, 0xFC), (0x26, 0x00), (0x27, 0x00),
                                    (0x28, 0x00), (0x29, 0x00), (0x2A, 0x00), (0x2B, 0x00), (0x2C, 0x08), (0x2D, 0x20)]
        for (r, v) in ag { try bus.writeByte(address: 0x6A, register: r, value: v) }
        let mag: [(UInt8, UInt8)] = [(0x0F, 0x3D), (0xA7, 0x08), (0xA8, 0xBA), (0xA9, 0x1A), (0xAA, 0xA3), (0xAB, 0xF2),
                                     (0xAC, 0x00), (0xAD, 0x00)]
        for (r, v) in mag { try bus.writeByte(address: 0x1C, register: r, value: v) }
        // Byte and block reads see byte registers (a word read would not: docs/hil.md P4).
        #expect(try bus.readByte(address: 0x6A, register: 0x0F) == 0x6A)
        #expect(try bus.readBlock(address: 0x6A, register: 0x22, count: 4) == I2CBlock([0xE8, 0x03, 0x18, 0xFC]))
        // An address without a chip NACKs.
        #expect(throws: I2CError.noAcknowledge(address: 0x50)) { _ = try bus.readByte(address: 0x50, register: 0) }

        var probeBus = bus
        let report = IMUProbe.run(bus: &probeBus)
        #expect(report.found?.chip == .lsm6dslWithLIS3MDL)
        var device = IMUDevice(bus: bus)
        var now: Int64 = 0
        var reading: IMUReading?
        for _ in 0..<50 where reading == nil {
            reading = device.poll(nowNanoseconds: now)
            now = max(now + 1_000_000, device.nextPollNanoseconds)
        }
        let r = try #require(reading, "no sample: \(device.status.lastFault?.message ?? "state \(device.status.state)")")
        let rad = Double.pi / 180
        #expect(abs(r.sample.gyroRadiansPerSecond.x - 1000 * 0.070 * rad) < 1e-12)
        #expect(abs(r.sample.gyroRadiansPerSecond.y + 1000 * 0.070 * rad) < 1e-12)
        #expect(abs(r.sample.accelerationMetersPerSecondSquared.z - 8200 * 0.122e-3 * 9.80665) < 1e-12)
        #expect(abs(r.sample.magneticFieldMicrotesla!.x - 100) < 1e-9 && abs(r.sample.magneticFieldMicrotesla!.y + 50) < 1e-9)
        #expect(r.sample.temperatureCelsius == 27)
    }
}
