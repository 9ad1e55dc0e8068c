import SystemCalls
import Configuration
import Console
import Hardware
import Heading
import NMEA
import Tracking

/// Texts of the console's source table and fault reasons that only change at start-up or on a
/// configuration change (made then, as `ConsoleText`, so a refresh copies bytes and allocates nothing).
struct DeviceConsoleTexts {
    var board = ConsoleText()
    var gps = ConsoleText()
    var imu = ConsoleText()
    var imuProblem = ConsoleText()
    var gpio = ConsoleText()
    var gpioProblem = ConsoleText()
    var ppsProblem = ConsoleText()
    var stateProblem = ConsoleText()
    var configPath = ConsoleText()
}

/// Filling the console's `ConsoleState` from the device: `prepareConsoleState` at start-up and after a
/// configuration change (texts, the configuration table: allocates), `refreshConsoleState` before each
/// reply and watch frame (copies values in place: allocation-free).
extension Device {
    /// Makes the fixed texts and the configuration table.
    func prepareConsoleState() {
        guard let console else { return }
        var t = DeviceConsoleTexts()
        t.board = ConsoleText(string: configuration.board.name)
        t.gps = ConsoleText(string: gpsDescription)
        if let imu = imuLink.device {
            var text = imu.bus.description
            if let chip = imu.status.chip { text += ", " + chip.description }
            t.imu = ConsoleText(string: text)
        } else if let imuProblem = imuLink.problem {
            t.imu = ConsoleText("not opened")
            t.imuProblem = ConsoleText(string: imuProblem)
        } else {
            t.imu = ConsoleText("none configured: the bearing comes from the GPS course")
        }
        if let gpio {
            t.gpio = ConsoleText(string: gpio.chipDescription)
        } else {
            t.gpio = ConsoleText(configuration.gpio.disabled ? "disabled ([gpio] chip = none)" : "not opened")
            if let gpioProblem { t.gpioProblem = ConsoleText(string: gpioProblem) }
        }
        if let ppsProblem = ppsInput.problem { t.ppsProblem = ConsoleText(string: ppsProblem) }
        if let stateProblem = persistence.problem { t.stateProblem = ConsoleText(string: stateProblem) }
        t.configPath = ConsoleText(string: configurationSaveTarget ?? "")
        consoleTexts = t
        var d = ConsoleDeviceState()
        d.version = PuckdVersion.string
        d.board = t.board
        d.configPath = t.configPath
        console.state.device = d
        fillConfigTable()
    }

    /// The configuration table: every key with its value and where it comes from (allocates).
    func fillConfigTable() {
        guard let console else { return }
        console.state.device.config.removeAll()
        let desired = desiredConfiguration()
        for key in ConfigurationKeys.all {
            let name = key.qualifiedName
            let pending = consoleChanges.contains { $0.key == name }
            let origin: String
            switch pending ? nil : loaded.origins[name] {
            case .none: origin = pending ? "set on the console" : ""
            case .some(let o): origin = o.description
            }
            let value = key.read(desired)
            console.state.device.config.set(key: ConsoleText(string: name), value: ConsoleText(string: value),
                                            isDefault: !pending && loaded.origins[name] == nil,
                                            origin: ConsoleText(string: origin),
                                            needsRestart: value != key.read(configuration))
        }
    }

    /// Copies the device's state into the console's (before a reply or a watch frame).
    func refreshConsoleState(nowNanoseconds now: Int64) {
        guard let console else { return }
        console.state.fix = gpsLink.lastFix
        console.state.skyView = gpsLink.pipeline.assembler.skyView
        console.state.heading = imuLink.isPresent && imuLink.heading.publishedCount > 0 ? imuLink.heading.current : nil
        console.state.magnetometerCalibration = imuLink.heading.calibration
        console.state.update(from: core)
        console.state.framer = gpsLink.pipeline.framer.counters
        console.state.receiver = gpsLink.receiverLink.configurator.status
        console.state.ubxFrames = gpsLink.receiverLink.ubx.counters
        console.state.assembler = gpsLink.pipeline.assembler.counters
        refreshDeviceState(&console.state.device, nowNanoseconds: now)
    }

    private func refreshDeviceState(_ d: inout ConsoleDeviceState, nowNanoseconds now: Int64) {
        d.nowNanoseconds = now
        d.uptimeNanoseconds = now - startNanoseconds
        d.fixReceivedNanoseconds = gpsLink.lastFixNanoseconds
        let t = consoleTexts
        // Sources.
        d.sources.removeAll()
        d.sources.set(ConsoleSource(name: "gps", description: t.gps, state: Self.gpsStateName(gpsLink.status),
                                    isHealthy: !faults.contains(.gpsDown) && !faults.contains(.gpsSilent)))
        if let status = imuLink.status {
            d.sources.set(ConsoleSource(name: "imu", description: t.imu, state: status.state.name,
                                        isHealthy: !faults.contains(.imu)))
        } else {
            d.sources.set(ConsoleSource(name: "imu", description: t.imu, state: imuLink.problem == nil ? "none" : "absent",
                                        isHealthy: imuLink.problem == nil))
        }
        d.sources.set(ConsoleSource(name: "gpio", description: t.gpio,
                                    state: gpio == nil ? (configuration.gpio.disabled ? "disabled" : "unavailable")
                                        : board.gpioState,
                                    isHealthy: gpio != nil || gpioProblem == nil))
        ppsInput.fillSnapshot(&d, nowNanoseconds: now)
        console?.fillSnapshot(&d, nowNanoseconds: now)
        persistence.fillSnapshot(&d, nowNanoseconds: now)
        // Faults with their reasons.
        d.faults.removeAll()
        if faults.contains(.gpsDown) {
            d.faults.append(ConsoleFault(source: "gps", reason: gpsLink.errorText.isEmpty
                ? ConsoleText("the GPS source is not open; it reconnects with backoff") : gpsLink.errorText))
        }
        if faults.contains(.gpsSilent) {
            d.faults.append(ConsoleFault(source: "gps", reason: ConsoleText(
                "no NMEA sentence for [gps] stale_s: check the receiver, its antenna and the baud rate")))
        }
        if faults.contains(.imu) {
            if !t.imuProblem.isEmpty {
                d.faults.append(ConsoleFault(source: "imu", reason: t.imuProblem))
            } else {
                var reason = ConsoleText()
                if let fault = imuLink.status?.lastFault { reason.append(fault.summary) } else {
                    reason.append("the IMU delivers no samples")
                }
                reason.append("; the bearing falls back to the GPS course")
                d.faults.append(ConsoleFault(source: "imu", reason: reason))
            }
        }
        if faults.contains(.state) {
            d.faults.append(ConsoleFault(source: "state", reason: t.stateProblem.isEmpty
                ? ConsoleText("writing the state file failed; the state is kept in memory and retried") : t.stateProblem))
        }
        if faults.contains(.pps) { d.faults.append(ConsoleFault(source: "pps", reason: t.ppsProblem)) }
        if gpio == nil && !t.gpioProblem.isEmpty { d.faults.append(ConsoleFault(source: "gpio", reason: t.gpioProblem)) }
        trackRecorder.fillSnapshot(&d, nowNanoseconds: now)   // its source row, its fault, the track view
        uplink.fillSnapshot(&d, nowNanoseconds: now)         // its source row and its fault
        fillServerView(&d.server, nowNanoseconds: now)
        refreshLEDs(&d, nowNanoseconds: now)
        refreshCounters(&d)
        imuLink.fillSnapshot(&d, nowNanoseconds: now)       // the calibration run and its last result
        d.allocationsAfterStartUp = allocationBaseline >= 0 ? ThreadAllocations.count().map { $0 - allocationBaseline } : nil
    }

    static func gpsStateName(_ status: SourceStatus) -> StaticString {
        switch status {
        case .connecting: return "connecting"
        case .open: return "connected"
        case .waitingToReconnect: return "reconnecting"
        case .finished: return "ended"
        case .failed: return "failed"
        }
    }
}
