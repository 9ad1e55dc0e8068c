import Hardware

/// Ticks on demand (`DeviceSetup.ticksOnDemand`, docs/power.md §2): when the router must tick
/// without the steady full-rate schedule, and the deadlines the wake timer is armed for.
extension Device {
    /// A fix or a change of mode, viewport or authorization reached the core since the last tick, or a
    /// console command waits for its answer: the next tick is due as soon as a period has passed. (A
    /// heading sample is an input too, but changes nothing a tick would show that its events, drained
    /// at every wake-up, do not carry: its bearing reaches the puck at the next tick that is due.)
    var tickAwaited: Bool { tickRequested || console?.awaitingTick != nil }

    /// On demand, each wake-up drains the core's events (their own times are kept) and asks for a
    /// tick when one of them changes more than the location or heading.
    func drainEventsOnDemand() {
        if core.events.count > 0 && drainCoreEvents() { tickRequested = true }
    }

    /// The earliest time after the last tick at which a tick changes what the device shows or says,
    /// with nothing animating: the core's next change, the LEDs' next blink edge, the console watch's
    /// next frame, a `puckd` watcher's next PUCK frame, and the faults that appear with time (GPS
    /// silent, the fix going stale, the IMU's start-up grace). nil: none. Counted from the last tick,
    /// not from `now`: a change that fell between the two (a tick ran just before an LED edge, the
    /// next wake-up came after it) is still owed its tick, at once (docs/power.md §2.1).
    func nextTickDemandNanoseconds(nowNanoseconds now: Int64) -> Int64? {
        let since = scheduler.lastTickNanoseconds
        var next = Self.later(core.nextChangeNanoseconds, than: since)
        if controls.leds != nil {
            let g = configuration.gpio
            let edge = controls.ledPatterns.nextChangeNanoseconds(
                for: indicatorState(nowNanoseconds: now), after: since, fix: g.ledFix != nil, mode: g.ledMode != nil,
                heartbeat: g.ledHeartbeat != nil)
            next = WakeScheduler.earliest(next, Self.later(edge, than: since))
        }
        if let console { next = WakeScheduler.earliest(next, Self.later(console.session.nextRedrawNanoseconds, than: since)) }
        next = WakeScheduler.earliest(next, Self.later(gpsdServer?.nextPuckdFrameNanoseconds, than: since))
        let stale = Int64(configuration.gps.staleSeconds * 1e9)
        next = WakeScheduler.earliest(next, Self.later(gpsLink.lastSentenceNanoseconds + stale, than: since))
        if let position = gpsLink.lastPositionNanoseconds { next = WakeScheduler.earliest(next, Self.later(position + stale, than: since)) }
        next = WakeScheduler.earliest(next, Self.later(startNanoseconds + 2_000_000_001, than: since))
        return next
    }

    /// The wake-up deadline on demand: `deadline` (the epoch's quiet line, the track recorder, the
    /// uplink) and every other part's next time-based decision, so that with nothing due the loop
    /// sleeps until the first of them (poll()'s 1 s timeout is the only backstop): the GPS source's
    /// reconnect, the console transport's input, the buttons' debounce and long-press decisions, the
    /// simulated board's next epoch, PPS edge or button release, the status line, systemd's watchdog
    /// and STATUS=, the state write and a pending reload (docs/power.md §2.1). Those that may come late
    /// (the status line, systemd, the state write, a reload, the simulated PPS pulse's fall) are armed
    /// `WakeScheduler.slackNanoseconds` after their time, to ride on another wake-up (§1.6).
    func softWakeDeadline<Source: ByteSource & ~Copyable>(gps: borrowing Source, deadline: WakeDeadline,
                                                           nowNanoseconds now: Int64) -> WakeDeadline {
        let slack = WakeScheduler.slackNanoseconds
        var next = deadline
        next.consider(Self.later(gps.pollRequest.deadlineNanoseconds, than: now), .source)
        if let console { next.consider(Self.later(console.transport.inputPollRequest.deadlineNanoseconds, than: now), .source) }
        next.consider(controls.deadlineNanoseconds, .buttons)
        next.consider(board.promptDeadlineNanoseconds, .board)
        next.consider(board.lateDeadlineNanoseconds.map { $0 + slack }, .board)
        if configuration.console.statusIntervalSeconds > 0 && console == nil { next.consider(nextStatusNanoseconds + slack, .status) }
        next.consider(notifier.deadlineNanoseconds.map { $0 + slack }, .housekeeping)
        next.consider(persistence.deadlineNanoseconds.map { $0 + slack }, .housekeeping)
        if pendingReloadRequests > 0 { next.consider(nextReloadNanoseconds + slack, .housekeeping) }
        return next
    }

    /// `t` when it lies after `now`, else nil.
    static func later(_ t: Int64?, than now: Int64) -> Int64? {
        guard let t, t > now, t != .max else { return nil }
        return t
    }
}
