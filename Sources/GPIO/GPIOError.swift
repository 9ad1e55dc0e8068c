import SystemCalls

/// Why a GPIO operation failed. `description` is one or two sentences saying what is wrong and what to do.
///
/// Errors are built at start-up (chip and line requests) or on a broken line; building one allocates, which
/// is fine off the hot path. The kernel's `Errno` is kept for tests and logs.
public enum GPIOError: Error, Equatable, CustomStringConvertible {
    /// No `/dev/gpiochip*` device exists at all.
    case noChips(directory: String)
    /// Chips exist but none matches the selector; `found` lists what was seen.
    case chipNotFound(wanted: String, found: [GPIOChipInfo])
    /// The chip device exists but this user may not open it (EACCES/EPERM).
    case permissionDenied(path: String)
    /// The explicitly named device does not exist.
    case chipMissing(path: String)
    /// The path exists but is not a GPIO character device.
    case notAChip(path: String)
    /// Opening the chip failed for another reason.
    case openFailed(path: String, error: Errno)
    /// The offset is not a line of the chip.
    case lineOutOfRange(offset: UInt32, lineCount: Int, chip: String)
    /// Another consumer (a kernel driver such as pps-gpio, or another process) holds the line.
    case lineBusy(offset: UInt32, consumer: String?, chip: String)
    /// This controller already requested the line.
    case lineAlreadyRequested(offset: UInt32)
    /// The controller's fixed line table is full.
    case tooManyLines(capacity: Int)
    /// The kernel refused the flags (bias flags need Linux ≥ 5.5; some chips cannot pull).
    case configurationRejected(offset: UInt32, bias: GPIOBias, error: Errno)
    /// The kernel lacks the GPIO character-device uAPI version (1 or 2) this build's libgpiod speaks.
    case characterDeviceMissing(chip: String, uapiVersion: Int)
    /// Requesting the line failed for another reason.
    case requestFailed(offset: UInt32, error: Errno)
    /// `setOutput` on a line that was requested as an input (or the reverse for events).
    case wrongDirection(offset: UInt32, expectedOutput: Bool)
    /// Reading events or setting a value failed after the request succeeded.
    case ioFailed(operation: String, offset: UInt32, error: Errno)
    /// The controller was closed.
    case closed

    public var description: String {
        switch self {
        case .noChips(let directory):
            return "no GPIO chip found (no \(directory)/gpiochip* device): this machine has no GPIO controller "
                + "or its kernel lacks CONFIG_GPIO_CDEV; run on the board, or use the simulated board (--board sim)"
        case .chipNotFound(let wanted, let found):
            var list = ""
            for chip in found {
                if !list.isEmpty { list += "; " }
                list += chip.summary
            }
            return "no GPIO chip matches \(wanted); found: \(list). Set the chip in the board profile "
                + "to one of these labels or paths (`puckd gpio chips` lists them)"
        case .permissionDenied(let path):
            return "permission denied opening \(path): add the user to group gpio (sudo usermod -aG gpio USER, "
                + "then log in again); the rules in udev/ give that group access to /dev/gpiochip*"
        case .chipMissing(let path):
            return "\(path) does not exist: check the chip in the board profile (`puckd gpio chips` lists "
                + "the chips; chip numbers change between kernels, e.g. the Pi 5 header chip has been gpiochip4, gpiochip0 and one of gpiochip11–15: "
                + "give the label, pinctrl-rp1 on a Pi 5, pinctrl-bcm2711 on a Pi 4)"
        case .notAChip(let path):
            return "\(path) is not a GPIO chip device: give a /dev/gpiochipN path, a chip name or a chip label"
        case .openFailed(let path, let code):
            return "cannot open \(path): \(code.description)"
        case .lineOutOfRange(let offset, let lineCount, let chip):
            return "line \(offset) does not exist on \(chip), which has lines 0...\(lineCount - 1): "
                + "use the BCM GPIO number as the offset on the header chip"
        case .lineBusy(let offset, let consumer, let chip):
            return "line \(offset) on \(chip) is in use by " + Self.holderHint(consumer) + ", or choose another line"
        case .lineAlreadyRequested(let offset):
            return "line \(offset) is configured twice: give each button, LED and PPS input its own line"
        case .tooManyLines(let capacity):
            return "more than \(capacity) GPIO lines requested: puckd supports at most \(capacity) "
                + "(buttons, LEDs, PPS); remove some from the board profile"
        case .configurationRejected(let offset, let bias, let code):
            return "the kernel rejected the configuration of line \(offset) with bias \(bias.name) "
                + "(\(code.description)): bias needs Linux 5.5 or later; set the bias to as-is and fit an "
                + "external resistor"
        case .characterDeviceMissing(let chip, let version):
            return version < 2
                ? "\(chip) does not offer the GPIO uAPI v1 that libgpiod 1.x uses: build the kernel with "
                    + "CONFIG_GPIO_CDEV_V1=y, or build puckd against libgpiod 2 (Linux 5.10 or later)"
                : "\(chip) does not offer the GPIO uAPI v2 that libgpiod 2.x uses: it needs Linux 5.10 or later "
                    + "with CONFIG_GPIO_CDEV=y, or build puckd against libgpiod 1.6 (uAPI v1)"
        case .requestFailed(let offset, let code):
            return "requesting line \(offset) failed: \(code.description)"
        case .wrongDirection(let offset, let expectedOutput):
            return expectedOutput
                ? "line \(offset) was requested as an input and cannot be driven"
                : "line \(offset) was requested as an output and has no edge events"
        case .ioFailed(let operation, let offset, let code):
            return "\(operation) on line \(offset) failed: \(code.description); the GPIO chip may have gone away"
        case .closed:
            return "the GPIO controller is closed"
        }
    }
}

extension GPIOError {
    /// Who usually holds a busy line and how to free it, from the consumer name the kernel reports.
    static func holderHint(_ consumer: String?) -> String {
        switch consumer {
        case "puckd":
            return "consumer \"puckd\": puckd is already running, usually as the service (sudo systemctl stop "
                + "puckd, or run the check while it is stopped)"
        case let name? where name.hasPrefix("pps"):
            return "consumer \"\(name)\", the kernel's PPS driver (dtoverlay=pps-gpio in config.txt): read it "
                + "as [pps] device = /dev/pps0, or remove the overlay"
        case let name?:
            return "consumer \"\(name)\": stop that program (gpioinfo lists the lines in use), or remove the "
                + "dtoverlay that claims the pin"
        case nil:
            return "another consumer (no name): stop the other program (puckd.service is the usual one: sudo "
                + "systemctl stop puckd), or remove the dtoverlay that claims the pin"
        }
    }
}

/// What a chip scan found about one `/dev/gpiochip*` device.
public struct GPIOChipInfo: Sendable, Equatable {
    /// Device path, e.g. `/dev/gpiochip0`.
    public var path: String
    /// Kernel name, e.g. `gpiochip0` (empty when the chip could not be opened).
    public var name: String
    /// Chip label, e.g. `pinctrl-bcm2711` (empty when the chip could not be opened).
    public var label: String
    /// Number of lines (0 when the chip could not be opened).
    public var lineCount: Int
    /// Why the chip could not be opened; nil when it was read.
    public var openError: Errno?

    public init(path: String, name: String, label: String, lineCount: Int, openError: Errno? = nil) {
        self.path = path
        self.name = name
        self.label = label
        self.lineCount = lineCount
        self.openError = openError
    }

    /// True when the chip was opened and its label read.
    public var isReadable: Bool { openError == nil }

    /// One line for listings: `/dev/gpiochip0 (gpiochip0, label pinctrl-bcm2711, 58 lines)`.
    public var summary: String {
        if isReadable { return "\(path) (\(name), label \(label), \(lineCount) lines)" }
        return "\(path) (cannot open: \(openError?.description ?? ""))"
    }
}
