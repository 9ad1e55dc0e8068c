import Configuration
import Console
import Controls
import Glibc
import Hardware
import Heading
import Tracking

/// Start-up steps that may degrade the device, and the start-up report.
extension Device {
    /// Requests the button, LED and PPS lines. A failure disables that group only, with the reason.
    func openGPIO(now: Int64) {
        let c = configuration.gpio
        guard let gpio else {
            if !c.disabled, let gpioProblem { degradations.append("no buttons and LEDs: " + gpioProblem) }
            return
        }
        if let offset = c.button {
            do throws(GPIOError) {
                let bias = c.buttonBias
                buttons = try ButtonPanel(
                    primary: ButtonLine(offset: UInt32(offset), activeLow: c.buttonActiveLow, bias: bias),
                    secondary: c.button2.map { ButtonLine(offset: UInt32($0), activeLow: c.buttonActiveLow, bias: bias) },
                    timing: c.timing, controller: gpio)
            } catch {
                degradations.append("no buttons: " + error.description)
            }
        }
        let lines = c.ledLines
        if lines.fix != nil || lines.mode != nil || lines.fault != nil || lines.heartbeat != nil || lines.modeRed != nil {
            do throws(GPIOError) {
                leds = try LEDOutputs(configuration: lines, controller: gpio)
            } catch {
                degradations.append("no LEDs: " + error.description)
            }
        }
        if let offset = configuration.pps.line, configuration.pps.device.isEmpty || configuration.pps.device == "none" {
            do throws(GPIOError) {
                ppsLine = try gpio.requestInput(GPIOInputConfiguration(offset: UInt32(offset), bias: .asIs, activeLow: false))
            } catch {
                ppsProblem = "PPS line \(offset): " + error.description
            }
        }
    }

    /// Opens the kernel PPS device when configured.
    func openPPS() {
        let path = configuration.pps.device
        guard !path.isEmpty, path != "none" else { return }
        do throws(PPSDeviceError) {
            let device = try PPSDevice(path: path)
            ppsDevice = device
            ppsLastSequence = (try? device.fetch())?.assertSequence ?? 0
        } catch {
            ppsProblem = "PPS device: " + error.description
        }
    }

    /// Polls the IMU once so the report can say which chip answered (or why none did).
    func probeIMU(now: Int64) {
        guard imu != nil else { return }
        _ = imu?.poll(nowNanoseconds: now)
        imuState = imu?.status.state ?? .probing
    }

    /// The report lines (printed by `run` after the GPS source's first open attempt).
    func buildReport(now: Int64) {
        let c = configuration
        var lines: [String] = []
        lines.append("puckd " + PuckdVersion.string.description + " on " + c.board.name + " (configuration: " + sources.summary + ")")
        if let simulation {
            let s = simulation.receiver.schedule
            var text = "gps: simulated receiver on " + simulation.receiver.slavePath + ", replaying " + simulation.logDescription
                + ": \(s.epochs.count) epochs at recorded pace, " + Self.seconds(s.lapNanoseconds) + " s a lap"
            if s.compressedGapCount > 0 {
                let pauses = Double(s.removedNanoseconds) / 1e9 + Double(s.compressedGapCount) * Double(s.maximumGapNanoseconds) / 1e9
                text += "; \(s.compressedGapCount) pause(s) of the recording (" + Self.decimal(pauses, 1)
                    + " s) compressed to " + Self.seconds(s.maximumGapNanoseconds) + " s each"
            }
            text += c.sim.loop ? "; looping" : "; once"
            lines.append(text)
        }
        lines.append("gps: " + gpsDescription + (c.gps.strict ? ", strict (checksums required)" : ""))
        lines.append("gps: receiver: " + Self.receiverPlan(c.gps.receiver))
        if let imu {
            var text = "imu: " + imu.bus.description + ", " + String(c.imu.rateHertz) + " Hz, mounting " + c.imu.mounting.name
            if let chip = imu.status.chip {
                text += ": " + chip.description
                if case .chip(let expected) = c.imu.chip, expected != chip.chip {
                    text += " (the profile expects " + expected.name.description + ")"
                }
            } else if let fault = imu.status.lastFault {
                text += ": no IMU answers (see degraded)"
                degradations.append("no IMU heading (" + fault.summary.description
                    + "): the bearing falls back to the GPS course; puckd keeps probing")
            }
            lines.append(text)
            if let recording = simulation?.imuRecording {
                lines.append("imu: the simulated chips replay the recorded IMU " + recording.summary
                    + "; sample by sample at recorded pace from start-up, quantised by the chips; "
                    + (recording.loop ? "looping" : "once (no new data after its end)"))
            } else if let simulation {
                let m = simulation.motion
                lines.append("imu: simulated motion from the replayed fixes: heading follows the course, level board, "
                    + "WMM2025 field at " + Self.decimal(m.fieldLatitudeDegrees, 4) + " " + Self.decimal(m.fieldLongitudeDegrees, 4)
                    + " (" + Self.decimal(m.fieldEastNorthUpMicrotesla.length, 1) + " µT, declination "
                    + Self.decimal(m.declinationDegrees, 2) + "°), a little noise")
            }
        } else if case .none = c.imu.chip {
            lines.append("imu: none configured: the bearing comes from the GPS course")
        } else if let imuProblem {
            lines.append("imu: not opened (see degraded)")
            degradations.append("no IMU: " + imuProblem + "; the bearing falls back to the GPS course")
        }
        if let gpio {
            var text = "gpio: " + gpio.chipDescription
            if let library = gpio.libraryDescription { text += " through " + library }
            if let b = c.gpio.button, let buttons {
                text += ", button \(b) (active-" + (c.buttonActiveLowText) + ", " + c.gpio.buttonBias.name.description
                    + ", " + buttons.debounceDescription + ")"
                if let b2 = c.gpio.button2 { text += ", button2 \(b2)" }
            }
            if leds != nil {
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
        if let ppsDevice {
            lines.append("pps: " + ppsDevice.path + " (kernel PPS, paired with whole-second fixes)")
        } else if let ppsLine {
            lines.append("pps: line \(ppsLine.offset) (rising edges paired with whole-second fixes)")
        } else if let ppsProblem {
            lines.append("pps: not opened (see degraded)")
            degradations.append("no PPS: " + ppsProblem)
        } else {
            lines.append("pps: none")
        }
        if let stateProblem {
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
