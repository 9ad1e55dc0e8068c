import Glibc
import SystemCalls
import Testing
@testable import Hardware

/// Every GPIO error says what is wrong and what to do.
@Suite struct GPIOErrorTests {
    @Test(arguments: [
        (GPIOError.noChips(directory: "/dev"), "simulated board"),
        (.chipNotFound(wanted: "label \"pinctrl-rp1\"", found: []), "board profile"),
        (.permissionDenied(path: "/dev/gpiochip0"), "usermod -aG gpio"),
        (.chipMissing(path: "/dev/gpiochip4"), "gpiochip4"),
        (.notAChip(path: "/dev/null"), "/dev/gpiochipN"),
        (.openFailed(path: "/dev/gpiochip0", error: .ioError), "Input/output error"),
        (.lineOutOfRange(offset: 60, lineCount: 58, chip: "gpiochip0"), "0...57"),
        (.lineBusy(offset: 18, consumer: nil, chip: "gpiochip0"), "another consumer"),
        (.lineBusy(offset: 4, consumer: "pps@4", chip: "gpiochip0"), "consumer \"pps@4\""),
        (.lineAlreadyRequested(offset: 17), "its own line"),
        (.tooManyLines(capacity: 16), "remove some"),
        (.configurationRejected(offset: 17, bias: .pullUp, error: .invalidArgument), "Linux 5.5"),
        (.characterDeviceMissing(chip: "gpiochip0", uapiVersion: 1), "CONFIG_GPIO_CDEV_V1"),
        (.characterDeviceMissing(chip: "gpiochip0", uapiVersion: 2), "Linux 5.10"),
        (.lineBusy(offset: 17, consumer: "puckd", chip: "gpiochip0"), "sudo systemctl stop puckd"),
        (.lineBusy(offset: 18, consumer: nil, chip: "gpiochip0"), "puckd.service"),
        (.lineBusy(offset: 4, consumer: "pps@4", chip: "gpiochip0"), "dtoverlay=pps-gpio"),
        (.requestFailed(offset: 17, error: .ioError), "Input/output error"),
        (.wrongDirection(offset: 22, expectedOutput: true), "input"),
        (.ioFailed(operation: "reading edge events", offset: 17, error: .noSuchDevice), "gone away"),
        (.closed, "closed"),
    ])
    func messagesGuide(error: GPIOError, guidance: String) {
        #expect(error.description.contains(guidance), "\(error.description)")
    }

    @Test func ppsMessages() {
        #expect(PPSDeviceError.permissionDenied(path: "/dev/pps0").description.contains("udev"))
        #expect(PPSDeviceError.cannotCaptureAssert(path: "/dev/pps0", capabilities: 2).description.contains("0x2"))
    }
}
