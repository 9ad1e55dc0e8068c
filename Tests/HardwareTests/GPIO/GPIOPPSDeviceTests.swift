import Glibc
import Testing
import TestSupport
@testable import Hardware

/// The kernel PPS device reader. No PPS source exists here (the kernel has CONFIG_PPS but no pps-gpio
/// client and no /dev/pps*), so the error paths run for real; reading pulses needs a board with the
/// pps-gpio overlay.
@Suite struct GPIOPPSDeviceTests {
    /// docs/hardware.md §1.5.5: the request numbers encode the pointer size.
    @Test func ioctlNumbersForThisPointerSize() {
        let requests = PPSDevice.ioctlRequests
        if MemoryLayout<Int>.size == 8 {
            #expect(requests.getCapabilities == 0x8008_70A3)
            #expect(requests.fetch == 0xC008_70A4)
        } else {
            #expect(requests.getCapabilities == 0x8004_70A3)
            #expect(requests.fetch == 0xC004_70A4)
        }
    }

    @Test(.enabled(if: access("/dev/pps0", F_OK) != 0, "this machine has /dev/pps0"))
    func missingDevice() {
        #expect(throws: PPSDeviceError.missing(path: "/dev/pps0")) { _ = try PPSDevice() }
        #expect(PPSDeviceError.missing(path: "/dev/pps0").description.contains("dtoverlay=pps-gpio"))
    }

    @Test func characterDeviceThatIsNoPPSDevice() {
        #expect(throws: PPSDeviceError.notAPPSDevice(path: "/dev/null")) { _ = try PPSDevice(path: "/dev/null") }
    }

    @Test func regularFileIsNoPPSDevice() throws {
        let path = try #require(Fixtures.temporaryFile(named: "pps0", contents: [0x50, 0x50, 0x53]))
        defer { unlink(path) }
        #expect(throws: PPSDeviceError.notAPPSDevice(path: path)) { _ = try PPSDevice(path: path) }
    }
}
