import IMU
import Console
import Controls
import Hardware
import Heading
import Tracking

/// The table of every configuration key, in the order `puckd --help-config` prints them. Parsing,
/// validation, defaults, help and reload decisions all come from here.
public enum ConfigurationKeys {
    /// Section names in order.
    public static let sections = ["board", "gps", "imu", "heading", "tracking", "gpio", "pps", "loop", "console",
                                  "server", "time", "state", "track", "uplink", "sim"]

    /// Every key.
    public static let all: [ConfigurationKey] = board + gps + imu + heading + tracking + gpio + pps + loop + console
        + server + time + state + track + uplink + sim

    /// The key `[section] name`, if it exists.
    public static func key(section: String, name: String) -> ConfigurationKey? {
        all.first { $0.section == section && $0.name == name }
    }

    /// The keys of one section.
    public static func keys(in section: String) -> [ConfigurationKey] { all.filter { $0.section == section } }

    /// Keys that shape the device rather than operate it: what it opens and drives (paths, buses, GPIO
    /// lines and their wiring, the GPS source and line speed), the console itself, where the state is
    /// written, and the simulated board. The console sets them only with `[console] access = full`.
    public static let deviceShaping: Set<String> = [
        "board.simulated", "gps.source", "gps.baud", "imu.bus", "imu.chip", "imu.burst_hz", "imu.interrupt_line", "gpio.chip", "gpio.button",
        "gpio.button_active_low", "gpio.button_bias", "gpio.button2", "gpio.led_fix", "gpio.led_mode",
        "gpio.led_fault", "gpio.led_heartbeat", "gpio.led_mode_red", "gpio.led_mode_green", "gpio.led_mode_blue",
        "gpio.led_active_low", "pps.line", "pps.device", "state.directory",
        "track.directory", "uplink.device_id", "uplink.mqtt_url", "uplink.mqtt_topic", "uplink.mqtt_password_file",
        "uplink.mqtt_ca_file", "uplink.mqtt_cert_file", "uplink.mqtt_key_file", "uplink.osmand_url",
        "uplink.osmand_ca_file", "uplink.osmand_cert_file", "uplink.osmand_key_file",
        "server.enabled", "server.listen", "server.socket", "server.max_clients", "time.chrony_socket",
    ]

    /// True for `deviceShaping` keys and every key of `[console]` and `[sim]`.
    static func shapesDevice(section: String, name: String) -> Bool {
        section == "console" || section == "sim" || deviceShaping.contains(section + "." + name)
    }

    public static let board: [ConfigurationKey] = [
        .text("board", "name", \.board.name, allowed: "any text", doc: "what this profile describes, for the start-up report"),
        .boolean("board", "simulated", \.board.simulated,
                 doc: "true: GPS, IMU and GPIO are simulated twins (the [sim] section says how)"),
    ]

    public static let gps: [ConfigurationKey] = [
        .text("gps", "source", \.gps.source,
              allowed: "none, /dev/ttyAMA0[:BAUD], serial:PATH, FILE, -, tcp://HOST:PORT or gpsd://HOST[:PORT]",
              doc: "where NMEA comes from (ignored on the simulated board, which replays [sim] gps_log)",
              validate: { text in
                  if text.isEmpty || ConfigurationKey.isNone(text) { return nil }
                  do throws(SourceAddressError) { _ = try SourceAddress(parsing: text); return nil } catch {
                      return error.message
                  }
              }),
        .choice("gps", "baud", \.gps.baud,
                [("auto", .auto)] + SerialBaudRate.standardRates.map { (String($0), GPSBaudSetting.fixed($0)) },
                doc: "serial line speed in bit/s; auto hunts for the receiver's rate as gpsd does"),
        .boolean("gps", "strict", \.gps.strict, doc: "drop sentences that carry no checksum"),
        .decimal("gps", "stale_s", \.gps.staleSeconds, 0.5...3600, unit: "seconds",
                 doc: "no fix for this long: the fix LED blinks fast and the GPS counts as a fault", live: true),
        .decimal("gps", "quiet_close_fraction", \.gps.quietCloseFraction, 0...0.9, unit: "of the receiver's cycle",
                 doc: "an epoch whose learned last sentence does not come closes after the line is quiet this long "
                     + "(0: when the next epoch begins)", live: true),
        ConfigurationKey(section: "gps", name: "date_pivot",
                         allowed: "build, log or a day YYYY-MM-DD (1980…2200)",
                         doc: "receiver dates before this day lost a GPS week rollover and move on by 1024 weeks "
                            + "(build = the day puckd was built; log = keep the stream's own dates, as replay does, "
                            + "for a recorded log fed as a live source; FILE sources and the simulated board always do)",
                         live: false,
                         read: { $0.gps.datePivot.text },
                         write: { c, text in
                             switch GPSDatePivot.parse(text) {
                             case .success(let pivot): c.gps.datePivot = pivot; return nil
                             case .failure(let problem): return problem
                             }
                         }),
    ] + receiverKeys

    public static let imu: [ConfigurationKey] = [
        .text("imu", "bus", \.imu.bus, allowed: "/dev/i2c-N or adapter:NAME (the name in /sys/class/i2c-adapter)",
              doc: "the I2C bus of the IMU",
              validate: { $0.hasPrefix("/") || $0.hasPrefix("adapter:") && $0.count > 8 ? nil
                  : "not a bus, write /dev/i2c-N or adapter:NAME" }),
        .choice("imu", "chip", \.imu.chip,
                [("auto", .auto), ("none", .none)] + IMUChipTable.all.map { ($0.configurationName.description, .chip($0)) },
                doc: "auto probes the bus; none runs without an IMU; a chip name is checked against the probe"),
        ConfigurationKey(section: "imu", name: "mounting",
                         allowed: "x-DIR,z-DIR[,yaw=DEG] with DIR forward, backward, left, right, up or down",
                         doc: "where the IMU's x and z axes point on the vehicle", live: false,
                         read: { $0.imu.mounting.name },
                         write: { c, text in
                             do throws(MountingOrientationError) { c.imu.mounting = try MountingOrientation(parsing: text) }
                             catch { return .invalid(error.message) }
                             return nil
                         }),
        .integer("imu", "rate_hz", \.imu.rateHertz, 10...400, unit: "hertz", doc: "how often the IMU is read"),
        .integer("imu", "burst_hz", \.imu.burstHertz, 0...25, unit: "hertz",
                 doc: "0 polls every sample; otherwise the chip converts into its FIFO, read this often in bursts (LSM6DSL, LSM9DS1, MPU-9250, ICM-20948; a shallow FIFO is read faster, the LSM9DS1 at least 8 times a second; the BNO055 is polled)"),
        .line("imu", "interrupt_line", \.imu.interruptLine,
              doc: "GPIO line wired to the IMU's INT1 (no supported HAT wires it: a jumper to a free line); with burst_hz the FIFO is read at its watermark edges, the timer as fallback"),
        .decimal("imu", "calibration_timeout_s", \.imu.calibrationTimeoutSeconds, 10...3600, unit: "seconds",
                 doc: "a magnetometer calibration (or gyroscope bias measurement) gives up after this long", live: true),
    ]

    public static let heading: [ConfigurationKey] = HeadingConfiguration.settingKeys.map { name in
        ConfigurationKey(section: "heading", name: name, allowed: "a number ≥ 0",
                         doc: name == "heading_filter_deg"
                             ? "minimum heading change, degrees, that turns the camera and raises a heading event (the tracking core's heading filter)"
                             : "heading estimator tuning (see puckd heading --help)", live: true,
                         read: { ConfigurationKey.formatNumber($0.heading.value(of: name) ?? 0) },
                         write: { c, text in
                             do throws(HeadingConfigurationError) { try c.heading.set(name, to: text) } catch {
                                 return .invalid("not a number ≥ 0, allowed a number ≥ 0")
                             }
                             return nil
                         })
    }

    static let modeNames: [(String, TrackingMode)] = TrackingMode.allCases.map { ($0.name.description, $0) }

    public static let tracking: [ConfigurationKey] = [
        .choice("tracking", "mode", \.tracking.mode, modeNames,
                doc: "tracking mode at the first start; later starts restore the last mode from the state"),
        .boolean("tracking", "show_location", \.tracking.showsLocation, doc: "show the puck at start (showsUserLocation)"),
        .choice("tracking", "viewport", \.tracking.viewport,
                [(ViewportStatus.idleWord.description, .idle), (ViewportStateKind.followPuck.word.description, .followPuck),
                 (ViewportStateKind.overview.word.description, .overview)],
                doc: "viewport at the first start (Mapbox viewport API)"),
        .choice("tracking", "accuracy", \.tracking.accuracy, [("full", .full), ("reduced", .reduced)],
                doc: "location accuracy authorization at the first start"),
        .integer("tracking", "viewport_width", \.tracking.viewportWidthPoints, 16...16384, unit: "points",
                 doc: "width of the map view the camera is computed for"),
        .integer("tracking", "viewport_height", \.tracking.viewportHeightPoints, 16...16384, unit: "points",
                 doc: "height of the map view the camera is computed for"),
        .decimal("tracking", "zoom", \.tracking.trackingZoom, 0...25.5, unit: "zoom level",
                 doc: "zoom the tracking modes fly to"),
        .decimal("tracking", "follow_zoom", \.tracking.followZoom, 0...25.5, unit: "zoom level",
                 doc: "zoom of the follow-puck viewport (a change applies at the next follow)", live: true),
        .decimal("tracking", "follow_pitch", \.tracking.followPitchDegrees, 0...85, unit: "degrees",
                 doc: "pitch of the follow-puck viewport (a change applies at the next follow)", live: true),
        .decimal("tracking", "stale_s", \.tracking.staleSeconds, 0.1...86400, unit: "seconds",
                 doc: "no fresh fix for this long makes the puck stale"),
        .boolean("tracking", "heading_indicator", \.tracking.showsHeadingIndicator,
                 doc: "draw the heading fan on the puck"),
        .decimal("tracking", "course_min_speed", \.tracking.courseMinimumSpeedMetersPerSecond, 0...100,
                 unit: "m/s", doc: "slowest speed whose GPS course is used as the bearing"),
        .boolean("tracking", "heading_course_fallback", \.tracking.headingFallsBackToCourse,
                 doc: "heading modes turn the map to the GPS course when there is no compass heading (off: as the "
                     + "SDKs, the map keeps its bearing; docs/tracking.md 4.7)"),
        .boolean("tracking", "ignore_zero_accuracy", \.tracking.ignoresZeroAccuracyFixes,
                 doc: "ignore fixes that report 0 m accuracy, as MapLibre does (off: keep them with the accuracy "
                     + "unknown, for receivers that write 0.0 when they have no estimate; docs/tracking.md Q21)"),
    ]

    static let actionCases: [(String, ButtonAction)] = ButtonAction.allCases.map { ($0.name.description, $0) }

    public static let gpio: [ConfigurationKey] = [
        .text("gpio", "chip", \.gpio.chip,
              allowed: "auto, none, a chip label (pinctrl-bcm2711), gpiochipN or a /dev path",
              doc: "the GPIO chip of buttons and LEDs; auto finds the Raspberry Pi header chip; none disables GPIO"),
        .line("gpio", "button", \.gpio.button, doc: "the mode button"),
        .boolean("gpio", "button_active_low", \.gpio.buttonActiveLow, doc: "true: pressing pulls the line low (button to GND)"),
        .choice("gpio", "button_bias", \.gpio.buttonBias,
                [("pull-up", .pullUp), ("pull-down", .pullDown), ("disabled", .disabled), ("as-is", .asIs)],
                doc: "pull resistor of the button lines"),
        .line("gpio", "button2", \.gpio.button2, doc: "an optional second button"),
        .integer("gpio", "debounce_ms", \.gpio.debounceMilliseconds, 0...1000, unit: "milliseconds",
                 doc: "an edge counts after the line stayed stable this long"),
        .integer("gpio", "long_press_ms", \.gpio.longPressMilliseconds, 0...10000, unit: "milliseconds, 0 = off",
                 doc: "hold time of a long press (longer than debounce_ms)"),
        .choice("gpio", "short_press", \.gpio.actions.primaryShort, actionCases, doc: "action of a short press", live: true),
        .choice("gpio", "long_press", \.gpio.actions.primaryLong, actionCases, doc: "action of a long press", live: true),
        .choice("gpio", "button2_short", \.gpio.actions.secondaryShort, actionCases,
                doc: "action of a short press of button2", live: true),
        .choice("gpio", "button2_long", \.gpio.actions.secondaryLong, actionCases,
                doc: "action of a long press of button2", live: true),
        ConfigurationKey(section: "gpio", name: "mode_cycle",
                         allowed: "1 to 8 of " + (modeNames.map(\.0) + ["overview"]).joined(separator: ", ")
                            + ", comma separated, each once",
                         doc: "the modes next-mode steps through; the mode LED blinks the position (first = 0)", live: true,
                         read: { $0.gpio.modeCycle.map(\.name).joined(separator: ",") },
                         write: { c, text in
                             var entries: [ModeCycleEntry] = []
                             for part in text.split(separator: ",") {
                                 let word = part.trimmingSpaces
                                 guard let entry = ModeCycleEntry(name: word) else {
                                     return .invalid("'\(word)' is not a tracking mode, use "
                                         + (modeNames.map(\.0) + ["overview"]).joined(separator: ", "))
                                 }
                                 entries.append(entry)
                             }
                             do throws(ButtonConfigurationError) { _ = try ButtonModeCycle(entries) } catch {
                                 return .invalid(error.description)
                             }
                             c.gpio.modeCycle = entries
                             return nil
                         }),
        .line("gpio", "led_fix", \.gpio.ledFix, doc: "fix LED: off no fix, 1 Hz blink 2D, on 3D, fast blink stale"),
        .line("gpio", "led_mode", \.gpio.ledMode, doc: "mode LED: n short blinks every 2 s for mode n of the cycle"),
        .line("gpio", "led_fault", \.gpio.ledFault, doc: "fault LED: on while any source is in error"),
        .line("gpio", "led_heartbeat", \.gpio.ledHeartbeat, doc: "heartbeat LED: a double beat every second"),
        .line("gpio", "led_mode_red", \.gpio.ledModeRed, doc: "RGB mode LED, red channel (one colour per mode)"),
        .line("gpio", "led_mode_green", \.gpio.ledModeGreen, doc: "RGB mode LED, green channel"),
        .line("gpio", "led_mode_blue", \.gpio.ledModeBlue, doc: "RGB mode LED, blue channel"),
        .boolean("gpio", "led_active_low", \.gpio.ledActiveLow, doc: "true: LEDs light with the pin low (LED to 3.3 V)"),
    ]

    public static let pps: [ConfigurationKey] = [
        .line("pps", "line", \.pps.line, doc: "GPIO line of the receiver's PPS output (edge events)"),
        .text("pps", "device", \.pps.device, allowed: "none or a /dev/ppsN path",
              doc: "kernel PPS device (dtoverlay=pps-gpio); used instead of line when set",
              validate: { $0.isEmpty || ConfigurationKey.isNone($0) || $0.hasPrefix("/") ? nil : "not a device path, write /dev/pps0 or none" }),
    ]

    public static let loop: [ConfigurationKey] = [
        .integer("loop", "tick_hz", \.loop.tickHertz, 1...240, unit: "hertz",
                 doc: "tracking tick rate (puck and camera animation, LEDs)", live: true),
    ]

    public static let console: [ConfigurationKey] = [
        ConfigurationKey(section: "console", name: "device",
                         allowed: "auto, stdio, none or a serial device /dev/ttyXXX[:BAUD] (default 115200 baud)",
                         doc: "where the console is: stdio = standard input/output (interactive on a terminal, "
                            + "scripted otherwise); a UART, USB serial or gadget port (/dev/ttyGS0); auto = stdio, "
                            + "or none when systemd starts puckd with standard input on /dev/null",
                         live: false,
                         read: { $0.console.device.text },
                         write: { c, text in
                             switch ConsoleDeviceSetting.parse(text) {
                             case .success(let setting): c.console.device = setting; return nil
                             case .failure(let problem): return problem
                             }
                         }),
        .decimal("console", "status_interval_s", \.console.statusIntervalSeconds, 0...86400, unit: "seconds, 0 = off",
                 doc: "without a console (device = none): a live status line this often on standard output", live: true),
        .text("console", "start_command", \.console.startCommand, allowed: "empty or one console command",
              doc: "a console command run when an interactive session begins, e.g. watch status 2", live: true,
              validate: { ConsoleCommandCheck.problem(with: $0) }),
        .choice("console", "access", \.console.access,
                [("operate", .operate), ("read-only", .readOnly), ("full", .full)],
                doc: "what the console may do: read-only = look only; operate = also modes, viewports, calibration "
                    + "and keys that do not shape the device; full = also the device-shaping keys (paths, buses, GPIO "
                    + "lines, the console, state.directory, gps.source, sim.*), which the console may not change otherwise",
                live: true),
        .text("console", "password_file", \.console.passwordFile,
              allowed: "empty (no password) or an absolute path of a crypt(3) hash file readable only by root and puckd's user",
              doc: "a serial console asks for this password before anything (puckd password-hash writes the hash; "
                + "the file is re-read on SIGHUP); standard input/output never asks", live: true,
              validate: { $0.isEmpty || $0.hasPrefix("/") ? nil : "not an absolute path, write e.g. /etc/puckd/console.passwd" }),
        .decimal("console", "login_delay_s", \.console.loginDelaySeconds, 0.5...60, unit: "seconds",
                 doc: "after a wrong password the console refuses every attempt this long, twice as long after each "
                    + "further failure (at most 60 s); never a pause of the loop", live: true),
    ]

    public static let state: [ConfigurationKey] = [
        .text("state", "directory", \.state.directory, allowed: "an absolute directory path",
              doc: "where the state file lives (systemd StateDirectory)",
              validate: { $0.hasPrefix("/") ? nil : "not an absolute path, write e.g. /var/lib/puckd" }),
        .decimal("state", "save_interval_s", \.state.saveIntervalSeconds, 0.1...3600, unit: "seconds",
                 doc: "changes are written at most this often", live: true),
        .decimal("state", "fix_interval_s", \.state.fixIntervalSeconds, 1...86400, unit: "seconds",
                 doc: "the last good fix is refreshed in the state at most this often", live: true),
    ]

    public static let sim: [ConfigurationKey] = [
        .text("sim", "gps_log", \.sim.gpsLog, allowed: "empty (the bundled drive) or an NMEA log file",
              doc: "the log the simulated receiver replays at recorded pace"),
        .boolean("sim", "loop", \.sim.loop, doc: "replay the log again from the start when it ends"),
        .decimal("sim", "max_gap_s", \.sim.maximumGapSeconds, 0.1...60, unit: "seconds",
                 doc: "pauses in the log longer than this are shortened to it"),
        .choice("sim", "imu", \.sim.imu,
                [("berryimu-v3", .berryIMUv3), ("sense-hat", .senseHAT), ("icm20948", .icm20948),
                 ("mpu9250", .mpu9250), ("none", .none)],
                doc: "the simulated IMU board (berryimu-v3 = LSM6DSL + LIS3MDL, as on the BerryGPS-IMU v4)"),
        .text("sim", "imu_log", \.sim.imuLog,
              allowed: "empty (motion from the drive) or an IMU CSV file (BROAD or x-io Fusion format)",
              doc: "a recorded IMU the simulated chips replay at recorded pace from start-up (looping with sim.loop), "
                + "instead of the motion generated from the drive"),
    ]
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
