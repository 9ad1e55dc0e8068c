import SystemCalls

/// Which GPIO chip to open: by label (the robust way on Raspberry Pi boards), by kernel name, by device
/// path, or automatically among the Raspberry Pi header chips.
///
/// Why labels: chip numbers are not stable. The Pi 5 header chip was `gpiochip4` until kernel 6.6.45,
/// then `gpiochip0`, and recent Pi 5 kernels number the RP1 chips 11–15 and have no gpiochip0 at all,
/// while the label stays `pinctrl-rp1` (docs/gpio.md). libgpiod v2 has no open-by-label, so label and
/// automatic selection walk `/dev/gpiochip*` and compare labels, for either API. Line *names* differ
/// between boards and kernels too, so lines are addressed by offset (the BCM GPIO number) on that chip.
public enum GPIOChipSelector: Sendable, Equatable, CustomStringConvertible {
    /// The first chip whose label is one of `raspberryPiHeaderLabels`, tried in that order.
    case automatic
    /// The chip with exactly this label (e.g. `pinctrl-bcm2711`, or `hil-gpio` for a gpio-sim bank).
    case label(String)
    /// The chip with this kernel name (e.g. `gpiochip0`), opened as `/dev/<name>`.
    case name(String)
    /// The chip device at this path (symlinks allowed, e.g. Raspberry Pi OS's `/dev/gpiochip4` → gpiochip0).
    case path(String)

    /// Labels of the 40-pin header GPIO controller, in the order `automatic` tries them: Pi 5 (RP1), Pi 4 /
    /// 400 / CM4 (BCM2711), Pi Zero / 1 / 2 / 3 (BCM2835 pin controller, also BCM2837 boards).
    /// A board has only one of them, so the order matters only for odd device trees.
    public static let raspberryPiHeaderLabels: [String] = ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"]

    /// Parses a board-profile or command-line value: `auto`, `label:X`, `name:X`, a path starting with
    /// `/`, `gpiochipN` (a name), anything else is a label.
    public init(parsing text: String) {
        if text.isEmpty || text == "auto" || text == "automatic" {
            self = .automatic
        } else if text.hasPrefix("label:") {
            self = .label(String(text.dropFirst(6)))
        } else if text.hasPrefix("name:") {
            self = .name(String(text.dropFirst(5)))
        } else if text.hasPrefix("/") {
            self = .path(text)
        } else if text.hasPrefix("gpiochip"), text.dropFirst(8).allSatisfy({ $0.isASCII && $0.isNumber }),
                  text.count > 8 {
            self = .name(text)
        } else {
            self = .label(text)
        }
    }

    public var description: String {
        switch self {
        case .automatic:
            return "a Raspberry Pi header chip (label " + Self.raspberryPiHeaderLabels.joined(separator: ", ") + ")"
        case .label(let label): return "label \"\(label)\""
        case .name(let name): return "name \"\(name)\""
        case .path(let path): return "path \(path)"
        }
    }

    /// The device path when the selector names one directly (`name`, `path`), else nil (a scan is needed).
    public func directPath(deviceDirectory: String = "/dev") -> String? {
        switch self {
        case .automatic, .label: return nil
        case .name(let name): return deviceDirectory + "/" + name
        case .path(let path): return path
        }
    }

    /// Picks the chip among scanned ones (pure: tests pass made-up lists).
    ///
    /// Fails with `noChips` when the list is empty, `permissionDenied` when no readable chip matches but a
    /// chip could not be opened for lack of permission (it may be the one), else `chipNotFound` listing all.
    public func select(from chips: [GPIOChipInfo], deviceDirectory: String = "/dev") -> Result<GPIOChipInfo, GPIOError> {
        if chips.isEmpty { return .failure(.noChips(directory: deviceDirectory)) }
        switch self {
        case .automatic:
            for label in Self.raspberryPiHeaderLabels {
                if let chip = chips.first(where: { $0.isReadable && $0.label == label }) { return .success(chip) }
            }
        case .label(let label):
            if let chip = chips.first(where: { $0.isReadable && $0.label == label }) { return .success(chip) }
        case .name(let name):
            if let chip = chips.first(where: { $0.name == name || $0.path == deviceDirectory + "/" + name }) {
                return chip.isReadable ? .success(chip) : .failure(Self.openError(path: chip.path, error: chip.openError!))
            }
        case .path(let path):
            if let chip = chips.first(where: { $0.path == path }) {
                return chip.isReadable ? .success(chip) : .failure(Self.openError(path: chip.path, error: chip.openError!))
            }
        }
        if let denied = chips.first(where: { $0.openError == .permissionDenied || $0.openError == .notPermitted }) {
            return .failure(.permissionDenied(path: denied.path))
        }
        return .failure(.chipNotFound(wanted: description, found: chips))
    }

    /// The error for a failed open of `path`.
    static func openError(path: String, error: Errno) -> GPIOError {
        switch error {
        case .permissionDenied, .notPermitted: return .permissionDenied(path: path)
        case .noSuchFileOrDirectory: return .chipMissing(path: path)
        case .notATerminal, .noSuchDevice: return .notAChip(path: path)
        default: return .openFailed(path: path, error: error)
        }
    }
}
