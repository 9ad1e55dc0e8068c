import Glibc
import Testing
import TestSupport

/// `udev/99-puckd.rules`: syntax (by our parser and, where the machine allows, by udevadm itself) and
/// what each kind of device gets, evaluated rule by rule.
@Suite struct UdevRulesTests {
    static let rulesPath = Fixtures.directory + "/../../udev/99-puckd.rules"

    static func rules() throws -> [UdevRule] {
        let text = String(decoding: try #require(Fixtures.readFile(rulesPath)), as: UTF8.self)
        return try UdevRules.parse(text)
    }

    @Test func everyLineParses() throws {
        let rules = try Self.rules()
        #expect(rules.count >= 12)
    }

    @Test func parserRejectsWhatUdevRejects() {
        #expect(throws: UdevRulesSyntaxError.unknownKey(line: 1, key: "SYMLNK")) {
            try UdevRules.parse("KERNEL==\"ttyS0\", SYMLNK+=\"gps0\"")
        }
        #expect(throws: UdevRulesSyntaxError.badOperator(line: 1, key: "GROUP", op: "==")) {
            try UdevRules.parse("GROUP==\"gpio\"")
        }
        #expect(throws: UdevRulesSyntaxError.missingLabel(line: 1, label: "nowhere")) {
            try UdevRules.parse("SUBSYSTEM!=\"tty\", GOTO=\"nowhere\"")
        }
        #expect(throws: UdevRulesSyntaxError.malformed(line: 2, text: "MODE=0660")) {
            try UdevRules.parse("# comment\nMODE=0660")
        }
    }

    /// The real parser: udevadm reads every rules file, ours placed in /run/udev/rules.d, while testing
    /// an existing tty, and reports each line it cannot use. Needs root, udevadm and a tty in /sys.
    @Test func udevadmAcceptsEveryLine() throws {
        guard getuid() == 0, access("/usr/bin/udevadm", X_OK) == 0, access("/sys/class/tty/ttyS0", F_OK) == 0 else {
            return   // covered by the parser test above; the HIL/board runs udevadm for real
        }
        mkdir("/run/udev", 0o755); mkdir("/run/udev/rules.d", 0o755)
        let copy = "/run/udev/rules.d/99-puckd-test-\(getpid()).rules"
        let text = try #require(Fixtures.readFile(Self.rulesPath))
        let fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        defer { unlink(copy) }
        let result = try #require(runProcess(["udevadm", "test", "--action=add", "/sys/class/tty/ttyS0"]))
        let complaints = (result.output + result.errorOutput).split(separator: "\n")
            .filter { $0.contains(copy) && !$0.contains("Reading rules file") }
            // groups the installer creates (gpio, i2c) may not exist on a build machine
            .filter { !$0.contains("Unknown group 'gpio'") && !$0.contains("Unknown group 'i2c'") }
        #expect(complaints.isEmpty, "\(complaints)")
    }

    private func tty(_ kernel: String, symlinks: [String] = [], usb: (String, String)? = nil) -> UdevDevice {
        var d = UdevDevice(subsystem: "tty", kernel: kernel, symlinks: symlinks)
        if let (vid, pid) = usb { d.attributes = ["idVendor": vid, "idProduct": pid] }
        return d
    }

    @Test func piHeaderUARTBecomesGps0() throws {
        let rules = try Self.rules()
        // Pi 4 with dtoverlay=disable-bt: Raspberry Pi OS links ttyAMA0 as serial0.
        let pi4 = UdevRules.apply(rules, to: tty("ttyAMA0", symlinks: ["serial0"]))
        #expect(pi4.symlinks.filter { $0 == "gps0" }.count == 1)
        #expect(pi4.environment["PUCKD_GPS"] == "hat-uart")
        // Pi 3/4 without disable-bt: the mini-UART ttyS0 is serial0, ttyAMA0 drives Bluetooth (serial1).
        let mini = UdevRules.apply(rules, to: tty("ttyS0", symlinks: ["serial0"]))
        #expect(mini.symlinks.contains("gps0"))
        let bluetooth = UdevRules.apply(rules, to: tty("ttyAMA0", symlinks: ["serial1"]))
        #expect(!bluetooth.symlinks.contains("gps0") && bluetooth.environment["PUCKD_GPS"] == nil)
        // Pi 5: serial0 is the debug connector ttyAMA10; the header UART is ttyAMA0 with no serial link.
        let debug = UdevRules.apply(rules, to: tty("ttyAMA10", symlinks: ["serial0"]))
        #expect(!debug.symlinks.contains("gps0"))
        let pi5 = UdevRules.apply(rules, to: tty("ttyAMA0"))
        #expect(pi5.symlinks == ["gps0"] && pi5.tags == ["systemd"])
    }

    @Test func usbReceiversGetGpsNAndATagToNarrowBy() throws {
        let rules = try Self.rules()
        let ublox = UdevRules.apply(rules, to: tty("ttyACM0", usb: ("1546", "01a8")))
        #expect(ublox.symlinks == ["gps0"])
        #expect(ublox.environment["PUCKD_GPS"] == "usb-gps" && ublox.environment["PUCKD_GPS_MODEL"] == "u-blox 8")
        let cp210x = UdevRules.apply(rules, to: tty("ttyUSB1", usb: ("10c4", "ea60")))
        #expect(cp210x.symlinks == ["gps1"] && cp210x.environment["PUCKD_GPS"] == "usb-serial")
        for (vid, pid) in [("1546", "01a7"), ("1546", "01a9"), ("067b", "2303"), ("0403", "6001"), ("0403", "6015")] {
            #expect(UdevRules.apply(rules, to: tty("ttyUSB0", usb: (vid, pid))).symlinks == ["gps0"], "\(vid):\(pid)")
        }
        let keyboard = UdevRules.apply(rules, to: tty("ttyUSB0", usb: ("046d", "c52b")))
        #expect(keyboard.symlinks.isEmpty && keyboard.environment.isEmpty)
    }

    @Test func gpioI2CAndPPSDevicesGetTheirGroups() throws {
        let rules = try Self.rules()
        let chip = UdevRules.apply(rules, to: UdevDevice(subsystem: "gpio", kernel: "gpiochip0"))
        #expect(chip.group == "gpio" && chip.mode == "0660")
        let bus = UdevRules.apply(rules, to: UdevDevice(subsystem: "i2c-dev", kernel: "i2c-1"))
        #expect(bus.group == "i2c" && bus.mode == "0660")
        let pps = UdevRules.apply(rules, to: UdevDevice(subsystem: "pps", kernel: "pps0"))
        #expect(pps.group == "dialout")
        let tty = UdevRules.apply(rules, to: UdevDevice(subsystem: "tty", kernel: "ttyS3"))
        #expect(tty.group == nil && tty.symlinks.isEmpty)
    }
}
