import IMU
import Hardware
import Heading
import Testing
import Tracking
@testable import Configuration

/// The configuration format, the key table and every class of error with its exact message.
@Suite struct ConfigurationTests {
    func load(_ text: String, name: String = "/etc/puckd.conf", overrides: [String] = []) throws(ConfigurationError)
        -> LoadedConfiguration {
        try ConfigurationLoader.load(documents: [ConfigurationDocument(name: name, text: text)], overrides: overrides)
    }

    func error(_ text: String, overrides: [String] = []) -> String? {
        do throws(ConfigurationError) {
            _ = try load(text, overrides: overrides)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func emptyFileGivesTheDefaults() throws {
        let loaded = try load("")
        #expect(loaded.configuration == PuckdConfiguration())
        #expect(loaded.origin(of: "gpio.button") == .defaultValue)
    }

    @Test func parsesEveryKindOfValue() throws {
        let text = """
            # a comment
            ; another
            [gps]
            source = /dev/ttyUSB0   # trailing comment
            baud = auto
            strict = yes
            stale_s = 2.5

            [imu]
            bus = adapter:SMBus stub driver
            chip = icm20948
            mounting = x-left, z-up, yaw=3.5
            [gpio]
            button = 27
            button2 = none
            short_press = toggle-overview
            mode_cycle = off, recenter, navigation, overview
            led_heartbeat = 25
            [heading]
            mag_noise = 0.25
            [tracking]
            mode = compassNavigation
            viewport = overview
            [sim]
            gps_log = "/tmp/a #b.nmea"
            """
        let c = try load(text).configuration
        #expect(c.gps.source == "/dev/ttyUSB0")
        #expect(c.gps.baud == .auto)
        #expect(c.gps.strict)
        #expect(c.gps.staleSeconds == 2.5)
        #expect(c.imu.bus == "adapter:SMBus stub driver")
        #expect(c.imu.chip == .chip(.icm20948))
        #expect(c.imu.mounting == (try MountingOrientation(parsing: "x-left,z-up,yaw=3.5")))
        #expect(c.gpio.button == 27)
        #expect(c.gpio.button2 == nil)
        #expect(c.gpio.actions.primaryShort == .toggleOverview)
        #expect(c.gpio.modeCycle == [.mode(.off), .mode(.recenter), .mode(.navigation), .overview])
        #expect(c.gpio.ledHeartbeat == 25)
        #expect(c.heading.value(of: "mag_noise") == 0.25)
        #expect(c.tracking.mode == .compassNavigation)
        #expect(c.tracking.viewport == .overview)
        #expect(c.sim.gpsLog == "/tmp/a #b.nmea")
    }

    @Test func layersAndOverridesApplyInOrder() throws {
        let board = ConfigurationDocument(name: "board/x.conf", text: "[gpio]\nbutton = 5\nled_fix = 6\n")
        let file = ConfigurationDocument(name: "/etc/puckd.conf", text: "[gpio]\nbutton = 7\n")
        let loaded = try ConfigurationLoader.load(documents: [board, file], overrides: ["gpio.led_fix=8"])
        #expect(loaded.configuration.gpio.button == 7)
        #expect(loaded.configuration.gpio.ledFix == 8)
        #expect(loaded.origin(of: "gpio.button") == .document(name: "/etc/puckd.conf", line: 2))
        #expect(loaded.origin(of: "gpio.led_fix") == .override("gpio.led_fix=8"))
    }

    // MARK: each error class, exact message

    @Test func outOfRange() {
        #expect(error("[gpio]\n\n\n\n\n\n\n\n\n\n\nbutton = 99\n")
            == "/etc/puckd.conf:12: [gpio] button = 99: out of range, allowed 0…53 (BCM line offset) or none")
        #expect(error("[loop]\ntick_hz = 0\n") == "/etc/puckd.conf:2: [loop] tick_hz = 0: out of range, allowed 1…240 (hertz)")
        #expect(error("[gps]\nstale_s = 0.1\n")
            == "/etc/puckd.conf:2: [gps] stale_s = 0.1: out of range, allowed 0.5…3600 (seconds)")
    }

    @Test func notANumber() {
        #expect(error("[gpio]\ndebounce_ms = 30ms\n")
            == "/etc/puckd.conf:2: [gpio] debounce_ms = 30ms: not a whole number, allowed 0…1000 (milliseconds)")
        #expect(error("[tracking]\nzoom = high\n")
            == "/etc/puckd.conf:2: [tracking] zoom = high: not a number, allowed 0…25.5 (zoom level)")
    }

    @Test func notABoolean() {
        #expect(error("[gps]\nstrict = maybe\n") == "/etc/puckd.conf:2: [gps] strict = maybe: not a boolean, allowed true or false")
    }

    @Test func notOneOfTheWords() {
        #expect(error("[gps]\nbaud = 9601\n") == "/etc/puckd.conf:2: [gps] baud = 9601: not allowed, use one of auto, "
            + SerialBaudRate.standardRates.map(String.init).joined(separator: ", "))
        #expect(error("[gpio]\nlong_press = jump\n") == "/etc/puckd.conf:2: [gpio] long_press = jump: not allowed, use one of "
            + "none, next-mode, toggle-overview, full-accuracy, calibrate-magnetometer, toggle-location")
    }

    @Test func valueTheKeysOwnParserRefuses() {
        #expect(error("[gps]\nsource = ftp://x\n") == "/etc/puckd.conf:2: [gps] source = ftp://x: 'ftp://' is not a source "
            + "puckd can read: give one of /dev/ttyAMA0[:BAUD], FILE, -, tcp://HOST:PORT or gpsd://HOST[:PORT].")
        #expect(error("[gpio]\nmode_cycle = follow, sideways\n") == "/etc/puckd.conf:2: [gpio] mode_cycle = follow, sideways: "
            + "'sideways' is not a tracking mode, use none, follow, followWithCourse, followWithHeading, off, recenter, "
            + "navigation, compassNavigation, overview")
        #expect(error("[gpio]\nmode_cycle = follow,follow\n") == "/etc/puckd.conf:2: [gpio] mode_cycle = follow,follow: "
            + "mode 2 of the button's tracking-mode cycle appears earlier too: list each mode once")
        #expect(error("[state]\ndirectory = var/lib\n")
            == "/etc/puckd.conf:2: [state] directory = var/lib: not an absolute path, write e.g. /var/lib/puckd")
    }

    @Test func unknownKeyAndSection() {
        #expect(error("[gpio]\nbuton = 17\n") == "/etc/puckd.conf:2: [gpio] buton = 17: unknown key in [gpio], did you mean "
            + "button? (keys of [gpio]: " + ConfigurationKeys.keys(in: "gpio").map(\.name).joined(separator: ", ") + ")")
        #expect(error("\n[gpoi]\n") == "/etc/puckd.conf:2: [gpoi]: unknown section, sections are [board], [gps], [imu], "
            + "[heading], [tracking], [gpio], [pps], [loop], [console], [server], [time], [state], [track], [uplink], [sim]")
    }

    /// Keys are checked byte by byte when ASCII (docs/power.md §3.1) and as Characters otherwise: the
    /// lines classify as before, a non-ASCII letter key is an unknown key, not a malformed line.
    @Test func keyCharactersClassifyTheLine() {
        for key in ["baud", "led_fix", "rate-hz", "a.b", "Z9"] { #expect(ConfigurationDocument.isKeyName(key), "\(key)") }
        for key in ["ba ud", "baud!", "k/y", "k€y", "tab\tkey"] { #expect(!ConfigurationDocument.isKeyName(key), "\(key)") }
        #expect(ConfigurationDocument.isKeyName("schlüssel") && ConfigurationDocument.isKeyName("ключ٣"))
        #expect(error("[gps]\nschlüssel = 1\n")?.hasPrefix("/etc/puckd.conf:2: [gps] schlüssel = 1: unknown key in [gps]") == true)
        #expect(error("[gps]\nk€y = 1\n") == "/etc/puckd.conf:2: 'k€y = 1' is not 'key = value', a [section] header or a # comment")
    }

    @Test func syntaxErrors() {
        #expect(error("[gps]\nsource /dev/ttyAMA0\n")
            == "/etc/puckd.conf:2: 'source /dev/ttyAMA0' is not 'key = value', a [section] header or a # comment")
        #expect(error("source = /dev/ttyAMA0\n") == "/etc/puckd.conf:1: source = /dev/ttyAMA0: no [section] header above "
            + "this key; put it under one of [board], [gps], [imu], [heading], [tracking], [gpio], [pps], [loop], "
            + "[console], [server], [time], [state], [track], [uplink], [sim]")
        #expect(error("[gps]\nbaud = 9600\nbaud = 4800\n")
            == "/etc/puckd.conf:3: [gps] baud = 4800: set twice in this file (first on line 2); keep one")
    }

    @Test func crossKeyErrors() {
        #expect(error("[gpio]\nbutton = 17\nled_fix = 17\n") == "/etc/puckd.conf:3: [gpio] led_fix = 17: line 17 is also "
            + "[gpio] button (/etc/puckd.conf:2); give each button, LED and PPS input its own line")
        #expect(error("[gpio]\ndebounce_ms = 50\nlong_press_ms = 40\n") == "/etc/puckd.conf:3: [gpio] long_press_ms = 40: "
            + "must be longer than [gpio] debounce_ms = 50 (or 0 for no long presses)")
        #expect(error("", overrides: ["pps.line=22"]) == "--set pps.line=22: line 22 is also [gpio] led_fix (the default); "
            + "give each button, LED and PPS input its own line")
    }

    @Test func overrideErrors() {
        #expect(error("", overrides: ["gpio.button=99"]) == "--set gpio.button=99: out of range, allowed 0…53 (BCM line offset) or none")
        #expect(error("", overrides: ["button=3"]) == "--set button=3: write --set section.key=value, e.g. --set gpio.button=27")
        #expect(error("", overrides: ["gpio.butt=3"]) == "--set gpio.butt=3: [gpio] butt: unknown key in [gpio], did you mean "
            + "button? (keys of [gpio]: " + ConfigurationKeys.keys(in: "gpio").map(\.name).joined(separator: ", ") + ")")
    }

    @Test func unreadableFile() {
        #expect(throws: ConfigurationError(location: "/nonexistent/puckd.conf", reason: "cannot read it (No such file "
            + "or directory); give an existing file with --config, or a board profile with --board")) {
            _ = try ConfigurationLoader.readFile("/nonexistent/puckd.conf")
        }
    }

    @Test func aDeviceIsNoConfigurationFile() {
        #expect(throws: ConfigurationError(location: "/dev/null", reason: "not a regular file (a device, directory or pipe); "
            + "give the path of a file")) {
            _ = try ConfigurationLoader.readFile("/dev/null")
        }
    }

    // MARK: the table

    @Test func everyKeyRoundTripsItsDefaultAndHelpListsIt() throws {
        let help = ConfigurationHelp.text
        for key in ConfigurationKeys.all {
            var c = PuckdConfiguration()
            #expect(key.write(key.defaultValue, into: &c) == nil, "\(key.qualifiedName) = \(key.defaultValue)")
            #expect(c == PuckdConfiguration(), "\(key.qualifiedName)")
            #expect(help.contains("  " + key.name + " = "), "\(key.qualifiedName) missing from --help-config")
            #expect(help.contains("allowed: " + key.allowed), "\(key.qualifiedName) allowed values missing")
        }
        #expect(Set(ConfigurationKeys.all.map(\.qualifiedName)).count == ConfigurationKeys.all.count)
    }

    @Test func documentKeepsCommentsAndOrderWhenAValueChanges() {
        var document = ConfigurationDocument(name: "x", text: "# top\n[gps]\nbaud = 9600  # the receiver's default\n\n[gpio]\nbutton = 17\n")
        document.setValue("4800", section: "gps", key: "baud")
        document.setValue("true", section: "gps", key: "strict")
        document.setValue("2", section: "loop", key: "tick_hz")
        #expect(document.text == "# top\n[gps]\nbaud = 4800  # the receiver's default\nstrict = true\n\n[gpio]\nbutton = 17\n"
            + "\n[loop]\ntick_hz = 2\n")
        #expect(document.value(section: "gps", key: "baud") == "4800")
    }

    @Test func changesSayWhatAppliesAndWhatWaits() throws {
        let old = PuckdConfiguration()
        var new = old
        new.heading = try { var h = old.heading; try h.set("mag_noise", to: "0.25"); return h }()
        new.gps.source = "/dev/ttyUSB1"
        let changes = ConfigurationChanges(from: old, to: new)
        #expect(changes.live.map(\.key) == ["heading.mag_noise"])
        #expect(changes.needingRestart.map(\.key) == ["gps.source"])
        let before = ConfigurationKey.formatNumber(old.heading.value(of: "mag_noise")!)
        #expect(changes.summary == "applied heading.mag_noise " + before + " → 0.25; needs a restart (the running value stays until "
            + "then): gps.source \"\" → /dev/ttyUSB1")
        #expect(ConfigurationChanges(from: old, to: old).summary == "no changes")
    }
}
