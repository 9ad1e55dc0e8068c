import CLinux
import Glibc
import SystemCalls
import Hardware
import NMEA

/// The loop: `run` polls, reads the clock once per wake-up and calls `step`; `step` is also what tests
/// drive with a synthetic clock.
extension Device {
    /// Runs the device with a source that has no line speed (file, TCP, gpsd) until a stop signal.
    /// Returns the exit status.
    public func run<Source: ByteSource & ~Copyable>(gps: inout Source) -> Int32 {
        runLoop(gps: &gps, baudControl: false, describe: { _ in nil }) { _, _, _ throws(SourceError) in }
    }

    /// Runs the device with a serial source: `[gps] baud = auto` hunts for the receiver's rate.
    /// `describe` says, once the port is open, how it was opened (the log line of the serial backend).
    public func runSerial<Source: ByteSource & BaudRateControl & ~Copyable>(
        gps: inout Source, describe: (borrowing Source) -> String? = { _ in nil }
    ) -> Int32 {
        runLoop(gps: &gps, baudControl: true, describe: describe) { (source: inout Source, rate: Int, now: Int64) throws(SourceError) in
            try source.setBaudRate(rate, nowNanoseconds: now)
        }
    }

    func runLoop<Source: ByteSource & ~Copyable>(
        gps: inout Source, baudControl: Bool, describe: (borrowing Source) -> String?,
        setBaud: (inout Source, Int, Int64) throws(SourceError) -> Void
    ) -> Int32 {
        var now = clinux_monotonic_ns()
        if baudControl, let rate = startBaudSearch(nowNanoseconds: now) { try? setBaud(&gps, rate, now) }
        if printsReport { printReport() }
        notifier.ready(nowNanoseconds: now)
        if console == nil {
            writeStatusLine(nowNanoseconds: now)
            nextStatusNanoseconds = now + Int64(configuration.console.statusIntervalSeconds * 1e9)
        }
        startConsole(nowNanoseconds: now)
        now = loop(gps: &gps, nowNanoseconds: now, describe: describe, setBaud: setBaud)
        return shutdown(nowNanoseconds: now)
    }

    /// With `[gps] baud = auto`, starts the search (gpsd's order, 9600 first) and returns the rate to set
    /// the port to; nil when the baud rate is fixed.
    public func startBaudSearch(nowNanoseconds now: Int64) -> Int? {
        guard case .auto = configuration.gps.baud else { return nil }
        var search = BaudRateSearch(candidates: SerialBaudRate.autoBaudOrder, nowNanoseconds: now)
        _ = search.observe(pipeline.framer, nowNanoseconds: now)
        baudSearch = search
        return search.currentBaud
    }

    /// The wake-up loop: handles the wake-up at `now` (the first one services the GPS source, which
    /// opens it), then polls and handles wake-ups until a stop signal, `stopAtNanoseconds`, or
    /// `maximumWakeUps` (tests). Returns the time of the last wake-up.
    func loop<Source: ByteSource & ~Copyable>(
        gps: inout Source, nowNanoseconds start: Int64, maximumWakeUps: Int = .max, describe: (borrowing Source) -> String?,
        setBaud: (inout Source, Int, Int64) throws(SourceError) -> Void
    ) -> Int64 {
        var now = start
        var ready = DeviceReadiness.gps
        var wakeUps = 0
        while stopSignal == 0 && wakeUps < maximumWakeUps {
            if let rate = step(gps: &gps, nowNanoseconds: now, ready: ready) { applyBaud(rate, &gps, now, setBaud) }
            if !gpsDescribed, gpsStatus == .open {
                gpsDescribed = true
                if let text = describe(gps) { output.text("gps: " + text) }
            }
            if let stop = stopAtNanoseconds, now >= stop, stopSignal == 0 { stopSignal = Self.stopRunTime }
            if stopSignal != 0 { break }
            ready = waitForWake(gps: gps, nowNanoseconds: now)
            now = clinux_monotonic_ns()       // the one clock read of this wake-up
            wakeUps += 1
        }
        return now
    }

    func applyBaud<Source: ByteSource & ~Copyable>(
        _ rate: Int, _ gps: inout Source, _ now: Int64, _ setBaud: (inout Source, Int, Int64) throws(SourceError) -> Void
    ) {
        do throws(SourceError) {
            try setBaud(&gps, rate, now)
            if receiverBaudRateApplied(rate, nowNanoseconds: now) { return }
            output.line { out in
                out.append("gps: auto-baud: no NMEA at the previous rate, trying ")
                out.append(int: rate)
                out.append(" baud")
            }
        } catch {
            receiverBaudRateFailed(nowNanoseconds: now)
            logSourceError(error)
        }
    }

    /// Fills the poll set, waits, and says which descriptors are readable. The wake timer fires at least
    /// at the tick rate, so the softer deadlines (GPS reconnect, button debounce decisions, the
    /// simulated receiver's next epoch) are met on the next timer wake-up, at most one tick late, with
    /// no wake-up of their own.
    func waitForWake<Source: ByteSource & ~Copyable>(gps: borrowing Source, nowNanoseconds now: Int64) -> DeviceReadiness {
        let request = gps.pollRequest
        set(0, signalDescriptor, POLLIN)
        set(1, wakeTimer, POLLIN)
        set(2, request.fileDescriptor, request.events)
        set(3, gpio.map { g in buttons?.descriptor(of: .primary, on: g)?.rawValue ?? -1 } ?? -1, POLLIN)
        set(4, gpio.map { g in buttons?.descriptor(of: .secondary, on: g)?.rawValue ?? -1 } ?? -1, POLLIN)
        set(5, gpio.map { g in ppsLine.flatMap { g.eventDescriptor($0)?.rawValue } ?? -1 } ?? -1, POLLIN)
        set(6, console.map { $0.inputEnded || $0.inputPaused ? -1 : $0.transport.inputPollRequest.fileDescriptor } ?? -1,
            POLLIN)
        set(7, console.map { $0.session.pendingOutputCount > 0 && !$0.outputClosed ? $0.transport.outputDescriptor : -1 } ?? -1,
            POLLOUT)
        set(8, gpsdServer?.pollDescriptor.rawValue ?? -1, POLLIN)
        let n = poll(pollSet, nfds_t(Self.pollCapacity), wakeTimer >= 0 ? 1000 : 20)
        counters.wakeUps &+= 1
        var ready: DeviceReadiness = []
        if n <= 0 { return ready }
        let flags: [9 of DeviceReadiness] = [.signal, .timer, .gps, .primaryButton, .secondaryButton, .pps, .console,
                                             .consoleOutput, .gpsdServer]
        var i = 0
        while i < Self.pollCapacity {
            if pollSet[i].revents != 0 { ready.insert(flags[i]) }
            i += 1
        }
        return ready
    }

    private func set(_ index: Int, _ fd: Int32, _ events: Int16) {
        pollSet[index] = pollfd(fd: fd, events: events, revents: 0)
    }

    private func set(_ index: Int, _ fd: Int32, _ events: Int32) { set(index, fd, Int16(events)) }

    /// Handles one wake-up at `now`: signals, the simulated board, the GPS source, the IMU, buttons,
    /// PPS, console, the tick, then the periodic work (status line, watchdog, state). Returns a baud rate
    /// when auto-baud wants the port switched.
    public func step<Source: ByteSource & ~Copyable>(gps: inout Source, nowNanoseconds now: Int64,
                                                     ready: DeviceReadiness) -> Int? {
        if ready.contains(.signal) { readSignals() }
        if ready.contains(.timer) && armedWakeNanoseconds > 0 {
            counters.timerWakeUps &+= 1
            let late = now - armedWakeNanoseconds
            if late > counters.maxWakeLatencyNanoseconds { counters.maxWakeLatencyNanoseconds = late }
        }
        simulation?.service(nowNanoseconds: now)
        var baud: Int?
        if ready.contains(.gps) || now >= gps.pollRequest.deadlineNanoseconds {
            baud = serviceGPS(&gps, nowNanoseconds: now)
        }
        serviceEpochDeadline(nowNanoseconds: now)
        if let next = imu?.nextPollNanoseconds, now >= next - coalesceNanoseconds { serviceIMU(nowNanoseconds: now) }
        serviceButtons(ready, nowNanoseconds: now)
        if ready.contains(.pps) { servicePPSLine() }
        if ready.contains(.gpsdServer) { serviceGpsdServer(nowNanoseconds: now) }
        if let console, ready.contains(.console) || console.hasBufferedInput
            || now >= console.transport.inputPollRequest.deadlineNanoseconds {
            serviceConsole(nowNanoseconds: now)
        }
        if now >= nextTickNanoseconds - coalesceNanoseconds {
            tick(nowNanoseconds: now)
            nextTickNanoseconds += tickPeriodNanoseconds
            if nextTickNanoseconds <= now {
                counters.skippedTicks &+= UInt64((now - nextTickNanoseconds) / tickPeriodNanoseconds + 1)
                nextTickNanoseconds = now + tickPeriodNanoseconds
            }
        }
        periodic(nowNanoseconds: now)
        if pendingReloadRequests > 0 && now >= nextReloadNanoseconds {
            let merged = pendingReloadRequests
            pendingReloadRequests = 0
            nextReloadNanoseconds = now + Self.reloadIntervalNanoseconds
            reload(nowNanoseconds: now, requests: merged)
        }
        if console != nil {
            tickConsole(nowNanoseconds: now)
            flushConsole(nowNanoseconds: now)
        }
        armWakeTimer(fired: ready.contains(.timer))
        return baud
    }

    /// Arms the wake timer for the next IMU poll, or for the next tick when that comes more than the
    /// coalescing window before it (a tick up to that window before or after an IMU poll runs with it),
    /// or for the open epoch's quiet-line deadline when that comes first.
    /// Re-arming also clears a fired timer's expiration count.
    func armWakeTimer(fired: Bool) {
        guard wakeTimer >= 0 else { return }
        let imuNext = imu?.nextPollNanoseconds ?? .max
        var target = imuNext <= nextTickNanoseconds + coalesceNanoseconds ? imuNext : nextTickNanoseconds
        if let epochDeadline = pipeline.deadlineNanoseconds, epochDeadline < target { target = epochDeadline }
        if target != armedWakeNanoseconds || fired {
            armedWakeNanoseconds = target
            _ = clinux_timerfd_arm(wakeTimer, max(1, target), 0)
        }
    }

    private func readSignals() {
        while true {
            let signal = clinux_signalfd_next(signalDescriptor)
            if signal <= 0 { return }
            if signal == SIGHUP { requestReload() } else { stopSignal = signal }
        }
    }

    /// Clean shutdown: the console's last replies written (and its terminal restored), LEDs off, lines
    /// released, state saved, systemd told. Returns the exit status: 0, or `ExitStatus.stateNotSaved`
    /// (74) when the final state save failed (the log line says why).
    public func shutdown(nowNanoseconds now: Int64) -> Int32 {
        notifier.stopping()
        finishConsole()
        if let gpio {
            if leds != nil {
                do throws(GPIOError) { try leds?.allOff(on: gpio, nowNanoseconds: now) } catch {
                    output.text("gpio: turning the LEDs off failed: " + error.description, priority: .error)
                }
            }
            gpio.close()
        }
        var stateText = "state not saved"
        var status = ExitStatus.ok
        if let stateStore {
            let failure = stateStore.save(stateRecord())
            stateText = failure.map {
                "saving the state to " + stateStore.path + " failed (" + $0.description
                    + "): the changes since the last save are lost; exit status " + String(ExitStatus.stateNotSaved)
            } ?? "state saved to " + stateStore.path
            if failure != nil { status = ExitStatus.stateNotSaved }
        } else if let stateProblem {
            stateText = "state not saved: " + stateProblem
        }
        output.text("stopped by " + stopReason + ": " + (leds != nil ? "LEDs off, " : "") + stateText)
        if let simulation, let leds = configurationLEDOffsets {
            var text = "sim: LED lines at exit:"
            for (name, offset) in leds {
                text += " " + name + " " + String(offset) + (simulation.gpio.isPhysicallyHigh(UInt32(offset)) ? " high" : " low")
            }
            output.text(text)
        }
        return status
    }

    /// Why the loop stopped, for the last log line.
    var stopReason: String {
        switch stopSignal {
        case SIGTERM: return "SIGTERM"
        case SIGINT: return "SIGINT"
        case Self.stopConsoleQuit: return "quit on the console"
        case Self.stopEndOfInput: return "the end of the console's input"
        case Self.stopOutputClosed: return "the console's output being closed"
        default: return "the configured run time"
        }
    }

    /// The configured LED names and offsets (nil when none).
    var configurationLEDOffsets: [(String, Int)]? {
        let g = configuration.gpio
        let all: [(String, Int?)] = [("fix", g.ledFix), ("mode", g.ledMode), ("fault", g.ledFault), ("heartbeat", g.ledHeartbeat),
                                     ("red", g.ledModeRed), ("green", g.ledModeGreen), ("blue", g.ledModeBlue)]
        let present = all.compactMap { name, offset in offset.map { (name, $0) } }
        return present.isEmpty || leds == nil ? nil : present
    }

}
