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
        var now = Int64(truncatingIfNeeded: SystemClock.monotonicNanoseconds())
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
        _ = search.observe(gpsLink.pipeline.framer, nowNanoseconds: now)
        gpsLink.baudSearch = search
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
        while stopReason == nil && wakeUps < maximumWakeUps {
            if let rate = step(gps: &gps, nowNanoseconds: now, ready: ready) { applyBaud(rate, &gps, now, setBaud) }
            if !gpsLink.described, gpsLink.status == .open {
                gpsLink.described = true
                if let text = describe(gps) { output.text("gps: " + text) }
            }
            if let stop = stopAtNanoseconds, now >= stop, stopReason == nil { stopReason = .runTime }
            if stopReason != nil { break }
            ready = waitForWake(gps: gps, nowNanoseconds: now)
            now = Int64(truncatingIfNeeded: SystemClock.monotonicNanoseconds())       // the one clock read of this wake-up
            wakeUps += 1
        }
        return now
    }

    func applyBaud<Source: ByteSource & ~Copyable>(
        _ rate: Int, _ gps: inout Source, _ now: Int64, _ setBaud: (inout Source, Int, Int64) throws(SourceError) -> Void
    ) {
        do throws(SourceError) {
            try setBaud(&gps, rate, now)
            if gpsLink.receiverBaudRateApplied(rate, nowNanoseconds: now) { return }
            output.line { out in
                out.append("gps: auto-baud: no NMEA at the previous rate, trying ")
                out.append(int: rate)
                out.append(" baud")
            }
        } catch {
            gpsLink.receiverBaudRateFailed(nowNanoseconds: now)
            gpsLink.logSourceError(error)
        }
    }

    /// Fills the poll set, waits, and says which descriptors are readable. With the steady tick the wake
    /// timer fires at least at the tick rate, so the softer deadlines (GPS reconnect, button debounce
    /// decisions, the simulated receiver's next epoch) are met on the next timer wake-up, at most one
    /// tick late; on demand the timer is armed for each of them (`softWakeDeadline`).
    func waitForWake<Source: ByteSource & ~Copyable>(gps: borrowing Source, nowNanoseconds now: Int64) -> DeviceReadiness {
        let request = gps.pollRequest
        let poll = scheduler.pollSet, slots = scheduler.routerSlots
        poll.set(slots[0], descriptor: signalDescriptor, events: .readable)
        poll.set(slots[1], descriptor: scheduler.timer, events: .readable)
        poll.set(slots[2], descriptor: request.fileDescriptor, events: request.events)
        var pollSet = poll
        controls.fillPollSlots(&pollSet)
        ppsInput.fillPollSlots(&pollSet)
        imuLink.fillPollSlots(&pollSet)
        if let console {
            console.fillPollSlots(&pollSet)
        } else {
            poll.set(slots[6], descriptor: nil, events: .readable)
            poll.set(slots[7], descriptor: nil, events: .writable)
        }
        poll.set(slots[8], descriptor: gpsdServer?.pollDescriptor, events: .readable)
        var uplinkPoll = poll
        uplink.fillPollSlots(&uplinkPoll)
        let readiness = scheduler.wait()
        let flags: [9 of DeviceReadiness] = [.signal, .timer, .gps, .primaryButton, .secondaryButton, .pps, .console,
                                             .consoleOutput, .gpsdServer]
        var ready: DeviceReadiness = []
        var i = 0
        while i < 9 {
            if readiness.isReady(slots[i]) { ready.insert(flags[i]) }
            i += 1
        }
        if let line = imuLink.interrupt, readiness.isReady(line.slot) { ready.insert(.imuInterrupt) }
        if readiness.isReady(uplink.slots[0]) { ready.insert(.uplink) }
        if readiness.isReady(uplink.slots[1]) { ready.insert(.osmandUplink) }
        return ready
    }

    /// Handles one wake-up at `now`: signals, the board twin, the GPS source, the IMU, buttons, PPS,
    /// console, the tick, then the periodic work (status line, watchdog, state). Returns a baud rate
    /// when auto-baud wants the port switched.
    public func step<Source: ByteSource & ~Copyable>(gps: inout Source, nowNanoseconds now: Int64,
                                                     ready: DeviceReadiness) -> Int? {
        if ready.contains(.signal) { readSignals() }
        if ready.contains(.timer) { scheduler.noteTimer(nowNanoseconds: now) }
        scheduler.noteWake(ready)
        // The simulated board may write an epoch or raise the IMU's INT1 line now: both are read in this
        // wake-up (one wake-up per epoch, not two), as their descriptors would wake a real loop at once.
        let boardEvents = board.service(nowNanoseconds: now, ready: .none)
        var baud: Int?
        if ready.contains(.gps) || boardEvents.contains(.gpsBytesWritten) || now >= gps.pollRequest.deadlineNanoseconds {
            baud = gpsLink.service(&gps, nowNanoseconds: now,
                                   onBytes: { bytes in routeReceiverBytes(bytes, nowNanoseconds: now) }) { fix in
                route(fix, nowNanoseconds: now)
            }
        }
        if let due = gpsLink.deadlineNanoseconds, now >= due, gpsLink.service(nowNanoseconds: now, ready: .none).epochClosed,
           let fix = gpsLink.lastFix {
            route(fix, nowNanoseconds: now)
        }
        let imuDue = imuEarliestReadNanoseconds.map { now >= $0 } ?? false
        let imuEdge = ready.contains(.imuInterrupt) || boardEvents.contains(.imuLineRose)
        if imuDue || imuEdge { serviceIMU(nowNanoseconds: now, timerDue: imuDue, edgeReady: imuEdge) }
        serviceButtons(ready, nowNanoseconds: now)
        if ready.contains(.pps) { _ = ppsInput.service(nowNanoseconds: now, ready: .all) }
        if ready.contains(.gpsdServer) { serviceGpsdServer(nowNanoseconds: now) }
        if let due = trackRecorder.deadlineNanoseconds, now >= due { _ = trackRecorder.service(nowNanoseconds: now, ready: .all) }
        if uplink.isEnabled {
            uplink.publish(durableSequence: trackRecorder.durableSequence, nowNanoseconds: now)
            if ready.contains(.uplink) || ready.contains(.osmandUplink) || now >= (uplink.deadlineNanoseconds ?? .max) {
                let mask = (ready.contains(.uplink) ? UInt32(1) << uplink.slots[0] : 0)
                    | (ready.contains(.osmandUplink) ? UInt32(1) << uplink.slots[1] : 0)
                _ = uplink.service(nowNanoseconds: now, ready: .slots(mask))
            }
        }
        if let console, ready.contains(.console) || console.hasBufferedInput
            || now >= console.deadlineNanoseconds ?? .max {
            serviceConsole(nowNanoseconds: now)
        }
        if ticksOnDemand { drainEventsOnDemand() }
        if scheduler.tickDue(nowNanoseconds: now)
            || (ticksOnDemand && tickAwaited && scheduler.periodElapsed(nowNanoseconds: now)) {
            tick(nowNanoseconds: now)
            scheduler.tickRan(nowNanoseconds: now)
            tickRequested = false
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
        var deadline = WakeDeadline(gpsLink.deadlineNanoseconds, reason: .epoch)
        deadline.consider(trackRecorder.deadlineNanoseconds, .epoch)
        deadline.consider(uplink.deadlineNanoseconds, .epoch)
        if ticksOnDemand {
            scheduler.planTick(fullRate: core.cameraAnimates, demand: tickAwaited ? now : nextTickDemandNanoseconds(nowNanoseconds: now),
                               nowNanoseconds: now)
            deadline = softWakeDeadline(gps: gps, deadline: deadline, nowNanoseconds: now)
        }
        scheduler.arm(imuNextNanoseconds: imuLatestReadNanoseconds, deadline: deadline, fired: ready.contains(.timer))
        return baud
    }

    private func readSignals() {
        guard let signalDescriptor else { return }
        while true {
            guard let signal = signalDescriptor.nextSignal() else { return }
            if signal == StopReason.hangUpSignal { requestReload() } else { stopReason = StopReason(signal: signal) }
        }
    }

    /// Clean shutdown: the console's last replies written (and its terminal restored), LEDs off, lines
    /// released, state saved, systemd told. Returns the exit status: 0, or `ExitStatus.stateNotSaved`
    /// (74) when the final state save failed (the log line says why).
    public func shutdown(nowNanoseconds now: Int64) -> Int32 {
        notifier.stopping()
        finishConsole(nowNanoseconds: now)
        if let gpio {
            controls.allOff(nowNanoseconds: now)
            gpio.close()
        }
        output.text(trackRecorder.close(nowNanoseconds: now))
        uplink.publish(durableSequence: trackRecorder.durableSequence, nowNanoseconds: now)
        for line in uplink.close(nowNanoseconds: now) { output.text(line) }
        let (stateText, status) = persistence.finalSave(stateRecord())
        output.text("stopped by " + (stopReason ?? .runTime).description + ": " + (controls.leds != nil ? "LEDs off, " : "")
            + stateText)
        if let leds = configurationLEDOffsets, let line = board.exitLine(leds: leds) { output.text(line) }
        return status
    }

    /// The configured LED names and offsets (nil when none).
    var configurationLEDOffsets: [(String, Int)]? {
        let g = configuration.gpio
        let all: [(String, Int?)] = [("fix", g.ledFix), ("mode", g.ledMode), ("fault", g.ledFault), ("heartbeat", g.ledHeartbeat),
                                     ("red", g.ledModeRed), ("green", g.ledModeGreen), ("blue", g.ledModeBlue)]
        let present = all.compactMap { name, offset in offset.map { (name, $0) } }
        return present.isEmpty || controls.leds == nil ? nil : present
    }

}
