import Configuration
import Console
import Controls
import Hardware
import Heading
import Tracking

/// Start-up steps that may degrade the device, and the start-up report.
extension Device {
    /// Polls the IMU once so the report can say which chip answered (or why none did).
    func probeIMU(now: Int64) { imuLink.probe(nowNanoseconds: now) }

    /// The report lines (printed by `run` after the GPS source's first open attempt).
    func buildReport(now: Int64) {
        let c = configuration
        var lines: [String] = []
        lines.append("puckd " + PuckdVersion.string.description + " on " + c.board.name + " (configuration: " + sources.summary + ")")
        if let line = board.receiverReportLine(loops: c.sim.loop) { lines.append(line) }
        lines.append("gps: " + gpsDescription + (c.gps.strict ? ", strict (checksums required)" : ""))
        lines.append("gps: receiver: " + Self.receiverPlan(c.gps.receiver))
        if let imu = imuLink.device {
            var text = "imu: " + imu.bus.description + ", " + String(c.imu.rateHertz) + " Hz, mounting " + c.imu.mounting.name
            if let chip = imu.status.chip {
                text += ": " + chip.description
                if case .chip(let expected) = c.imu.chip, expected != chip.chip {
                    text += " (the profile expects " + expected.name.description + ")"
                }
                if imu.readsFIFO {
                    text += "; FIFO read in bursts at " + String(c.imu.burstHertz) + " Hz"
                    let interval = imu.fifoBurstIntervalNanoseconds
                    if interval > 0, interval < 1_000_000_000 / Int64(max(c.imu.burstHertz, 1)) {
                        text += " (raised to " + String(Int((1e9 / Double(interval)).rounded(.up)))
                            + " Hz: this chip's FIFO is too shallow for it)"
                    }
                    if let irq = imuLink.interruptReportText { text += ", " + irq }
                } else if c.imu.burstHertz > 0 {
                    text += "; polled (this chip has no FIFO puckd reads)"
                }
            } else if let fault = imu.status.lastFault {
                text += ": no IMU answers (see degraded)"
                degradations.append("no IMU heading (" + fault.summary.description
                    + "): the bearing falls back to the GPS course; puckd keeps probing")
            }
            lines.append(text)
            if let irq = imuLink.interruptProblem { degradations.append(irq) }
            if let line = board.imuReportLine { lines.append(line) }
        } else if case .none = c.imu.chip {
            lines.append("imu: none configured: the bearing comes from the GPS course")
        } else if let imuProblem = imuLink.problem {
            lines.append("imu: not opened (see degraded)")
            degradations.append("no IMU: " + imuProblem + "; the bearing falls back to the GPS course")
        }
        if let gpio {
            var text = "gpio: " + gpio.chipDescription
            if let library = gpio.libraryDescription { text += " through " + library }
            if let b = c.gpio.button, let buttons = controls.buttons {
                text += ", button \(b) (active-" + (c.buttonActiveLowText) + ", " + c.gpio.buttonBias.name.description
                    + ", " + buttons.debounceDescription + ")"
                if let b2 = c.gpio.button2 { text += ", button2 \(b2)" }
            }
            if controls.leds != nil {
                text += ", LEDs"
                for (name, offset) in [("fix", c.gpio.ledFix), ("mode", c.gpio.ledMode), ("fault", c.gpio.ledFault),
                                       ("heartbeat", c.gpio.ledHeartbeat), ("red", c.gpio.ledModeRed),
                                       ("green", c.gpio.ledModeGreen), ("blue", c.gpio.ledModeBlue)] {
                    if let offset { text += " " + name + " \(offset)" }
                }
            }
            lines.append(text)
        } else if c.gpio.disabled {
            lines.append("gpio: disabled ([gpio] chip = none)")
        } else if gpioProblem != nil {
            lines.append("gpio: not opened (see degraded)")
        }
        lines.append(ppsInput.reportLine)
        if let ppsProblem = ppsInput.problem { degradations.append("no PPS: " + ppsProblem) }
        if let stateProblem = persistence.problem {
            lines.append("state: not saved (see degraded)")
            degradations.append("state not saved: " + stateProblem)
        }
        lines.append(contentsOf: startupReport)
        lines.append("tracking: mode " + core.trackingMode.name.description + ", showsUserLocation "
            + (core.isShowingUserLocation ? "on" : "off") + ", viewport " + core.camera.viewportStatus.word.description
            + ", accuracy " + (accuracySetting == .full ? "full" : "reduced") + ", tick " + String(c.loop.tickHertz) + " Hz, "
            + "mode cycle " + c.gpio.modeCycle.map(\.name).joined(separator: " → "))
        if let console {
            var text = "console: " + console.transport.description
            switch console.transport.kind {
            case .standardStreams where console.isInteractive:
                text += "; type help; quit or Ctrl-D stops puckd, Ctrl-C stops a watch"
                if !c.console.startCommand.isEmpty { text += "; starts with: " + c.console.startCommand }
            case .standardStreams:
                text += "; replies on standard output, logs on standard error; the end of input stops puckd after "
                    + "the last reply (a running watch keeps it going until SIGINT/SIGTERM)"
            case .serial:
                text += "; quit ends a session and starts a fresh one"
            }
            lines.append(text)
        } else {
            lines.append("console: none" + (c.console.statusIntervalSeconds > 0
                ? "; a status line every " + Self.decimal(c.console.statusIntervalSeconds, 1) + " s" : ""))
        }
        lines.append("systemd: " + (notifier.isActive
            ? "notify socket " + (notifier.socketPath ?? "") + (notifier.watchdogIntervalNanoseconds.map { ", watchdog ping every " + Self.seconds($0) + " s" } ?? "")
            : "not started by systemd (no NOTIFY_SOCKET)"))
        startupReport = lines
    }

    /// Prints the report and the degradations.
    func printReport() {
        for line in startupReport { output.text(line) }
        if degradations.isEmpty {
            output.text("degraded: nothing")
        } else {
            for line in degradations { output.text("degraded: " + line, priority: .warning) }
        }
        startupReport = []
    }

    static func seconds(_ nanoseconds: Int64) -> String { decimal(Double(nanoseconds) / 1e9, 1) }

    static func decimal(_ value: Double, _ digits: Int) -> String { DecimalText.string(value, digits: digits) }
}

extension PuckdConfiguration {
    var buttonActiveLowText: String { gpio.buttonActiveLow ? "low" : "high" }
}
