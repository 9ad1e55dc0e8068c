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

    /// Root (to write /run/udev/rules.d), udevadm and a tty in /sys: what `udevadmAcceptsEveryLine` needs.
    static var udevadmCanTest: Bool {
        getuid() == 0 && access("/usr/bin/udevadm", X_OK) == 0 && access("/sys/class/tty/ttyS0", F_OK) == 0
    }

    /// The real parser: udevadm reads every rules file, ours placed in /run/udev/rules.d, while testing
    /// an existing tty, and reports each line it cannot use. Elsewhere the parser test above covers the
    /// syntax and the HIL VM and the boards run udevadm for real.
    @Test(.enabled(if: UdevRulesTests.udevadmCanTest, "needs root, /usr/bin/udevadm and /sys/class/tty/ttyS0"))
    func udevadmAcceptsEveryLine() throws {
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
        #expect(ublox.symlinks == ["gps0"] && ublox.linkPriority == 10)
        #expect(ublox.environment["PUCKD_GPS"] == "usb-gps" && ublox.environment["PUCKD_GPS_MODEL"] == "u-blox 8")
        for pid in ["01a7", "01a9"] {
            #expect(UdevRules.apply(rules, to: tty("ttyACM1", usb: ("1546", pid))).symlinks == ["gps1"], "\(pid)")
        }
        let keyboard = UdevRules.apply(rules, to: tty("ttyUSB0", usb: ("046d", "c52b")))
        #expect(keyboard.symlinks.isEmpty && keyboard.environment.isEmpty)
    }

    /// Generic USB-serial bridges are no GPS by default (gpsd dropped them in 2023: they are in many
    /// gadgets); a rule of the user's own that runs first declares one (PUCKD_USB_SERIAL_GPS=1).
    @Test func usbSerialBridgesAreOptIn() throws {
        let rules = try Self.rules()
        let bridges = [("067b", "2303", "Prolific PL2303"), ("10c4", "ea60", "Silicon Labs CP210x"),
                       ("0403", "6001", "FTDI FT232R"), ("0403", "6015", "FTDI FT-X")]
        for (vid, pid, model) in bridges {
            let plain = UdevRules.apply(rules, to: tty("ttyUSB0", usb: (vid, pid)))
            #expect(plain.symlinks.isEmpty && plain.environment["PUCKD_GPS"] == nil && plain.tags.isEmpty, "\(model)")
            var declared = tty("ttyUSB1", usb: (vid, pid))
            declared.environment["PUCKD_USB_SERIAL_GPS"] = "1"
            let gps = UdevRules.apply(rules, to: declared)
            #expect(gps.symlinks == ["gps1"] && gps.linkPriority == 5 && gps.tags == ["systemd"], "\(model)")
            #expect(gps.environment["PUCKD_GPS"] == "usb-serial" && gps.environment["PUCKD_GPS_MODEL"] == model)
        }
        var other = tty("ttyUSB0", usb: ("1a86", "7523"))           // a CH340 the user declared
        other.environment["PUCKD_USB_SERIAL_GPS"] = "1"
        #expect(UdevRules.apply(rules, to: other).environment["PUCKD_GPS_MODEL"] == "USB-serial bridge")
        var ublox = tty("ttyACM0", usb: ("1546", "01a8"))           // declaring a u-blox changes nothing
        ublox.environment["PUCKD_USB_SERIAL_GPS"] = "1"
        let u = UdevRules.apply(rules, to: ublox)
        #expect(u.symlinks == ["gps0"] && u.linkPriority == 10 && u.environment["PUCKD_GPS"] == "usb-gps")
    }

    /// Whatever is plugged in, exactly one device holds /dev/gps0: a u-blox receiver, else a declared
    /// bridge, else the header UART (which every Pi has).
    @Test func exactlyOneDeviceHoldsGps0() throws {
        let rules = try Self.rules()
        func owner(_ devices: [UdevDevice]) -> String? {
            UdevRules.owner(of: "gps0", among: devices.map { UdevRules.apply(rules, to: $0) })?.kernel
        }
        var bridge = tty("ttyUSB0", usb: ("10c4", "ea60"))
        bridge.environment["PUCKD_USB_SERIAL_GPS"] = "1"
        let hat = tty("ttyAMA0", symlinks: ["serial0"]), ublox = tty("ttyACM0", usb: ("1546", "01a8"))
        let bluetooth = tty("ttyAMA0", symlinks: ["serial1"]), mini = tty("ttyS0", symlinks: ["serial0"])
        #expect(owner([hat]) == "ttyAMA0")
        #expect(owner([hat, ublox]) == "ttyACM0")
        #expect(owner([hat, bridge]) == "ttyUSB0")
        #expect(owner([hat, ublox, bridge]) == "ttyACM0")
        #expect(owner([mini, bluetooth, ublox]) == "ttyACM0")
        #expect(owner([mini, bluetooth]) == "ttyS0")
        #expect(owner([tty("ttyAMA10", symlinks: ["serial0"]), tty("ttyAMA0")]) == "ttyAMA0")   // Pi 5
        #expect(owner([hat, tty("ttyUSB0", usb: ("10c4", "ea60"))]) == "ttyAMA0")             // undeclared bridge
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
