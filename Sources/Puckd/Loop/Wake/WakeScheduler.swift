import Console
import SystemCalls

/// The loop's wake-ups: one timerfd armed (absolute, one-shot) for the next IMU poll or tick, whichever
/// comes first (a tick within `coalesceNanoseconds` of an IMU poll shares its wake-up), the tick
/// schedule, the poll set, and the loop counters (wake-ups, ticks, timer latency).
struct WakeScheduler {
    /// The timerfd (nil when the kernel refused one: the loop then polls every 20 ms).
    let timer: FileDescriptor?
    private(set) var armedWakeNanoseconds: Int64 = 0
    var coalesceNanoseconds: Int64
    private(set) var tickPeriodNanoseconds: Int64
    private(set) var nextTickNanoseconds: Int64
    let pollSet = PollSet()
    /// The router's fixed slots: signals, the timer, the GPS source, two buttons, PPS, console in and out, the gpsd server.
    let routerSlots: PollSlots

    /// Wake-ups of the loop (returns from poll, or steps in tests), timer wake-ups measured for latency.
    private(set) var wakeUps: UInt64 = 0
    private(set) var timerWakeUps: UInt64 = 0
    /// Longest delay between the moment the wake timer was armed for and the wake-up, nanoseconds.
    private(set) var maxWakeLatencyNanoseconds: Int64 = 0
    /// Wake-ups per reason (`stats loop.wake.*`), and the reason of the deadline the timer is armed for.
    private(set) var wakeReasons = WakeReasonCounts()
    private(set) var armedReason = WakeReason.imu
    /// Timer slack (docs/power.md §1.6): a deadline that may be met late (the status line, systemd's
    /// watchdog and STATUS=, the state write, a pending reload, the simulated PPS pulse's fall) is armed
    /// this long after its time, so that it rides on a wake-up the loop makes anyway (a 10 Hz GPS's
    /// epochs come 100 ms apart) instead of one of its own; it is still served at the first wake-up
    /// after its time. The kernel's timer slack and systemd's AccuracySec= do the same.
    static let slackNanoseconds: Int64 = 100_000_000
    /// Tracking ticks run, and ticks skipped because the loop fell behind by more than one period.
    private(set) var ticks: UInt64 = 0
    private(set) var skippedTicks: UInt64 = 0
    /// When the last tick ran (on demand, ticks never come closer together than a period).
    private(set) var lastTickNanoseconds: Int64 = .min / 2

    init(tickHertz: Int, imuPeriodNanoseconds: Int64?, nowNanoseconds now: Int64) {
        timer = try? FileDescriptor.monotonicTimer()
        let period = 1_000_000_000 / Int64(tickHertz)
        tickPeriodNanoseconds = period
        nextTickNanoseconds = now + period
        coalesceNanoseconds = imuPeriodNanoseconds.map { min($0, period) / 2 } ?? 0
        routerSlots = pollSet.reserve(9)
    }

    /// Closes the timerfd (shutdown of the device).
    func close() {
        do throws(Errno) { try timer?.close() } catch {}
    }

    /// Measures how late a timer wake-up came.
    mutating func noteTimer(nowNanoseconds now: Int64) {
        guard armedWakeNanoseconds > 0 else { return }
        timerWakeUps &+= 1
        let late = now - armedWakeNanoseconds
        if late > maxWakeLatencyNanoseconds { maxWakeLatencyNanoseconds = late }
    }

    /// Counts the wake-up under its reason: the armed deadline's when the timer fired, else a
    /// descriptor's, else poll()'s timeout.
    mutating func noteWake(_ ready: DeviceReadiness) {
        if ready.contains(.timer) { wakeReasons.count(armedReason) }
        else if ready.isEmpty { wakeReasons.count(.timeout) }
        else { wakeReasons.count(.descriptor) }
    }

    /// True when the next tick is planned on demand (`planTick`): at a time-based change (an LED
    /// edge, the fix going stale), so it must not run before that time.
    private(set) var nextTickIsOnDemand = false

    /// True when the tracking tick is due at `now`: within the coalescing window before a full-rate
    /// tick, but never before an on-demand one. A tick even a few milliseconds before an LED edge
    /// shows the old frame (docs/power.md §2.1: the lost 4 Hz blink edges).
    func tickDue(nowNanoseconds now: Int64) -> Bool {
        now >= nextTickNanoseconds - (nextTickIsOnDemand ? 0 : coalesceNanoseconds)
    }

    /// A tick ran at `now`: the next one is a period later; periods the loop slept through are skipped.
    mutating func tickRan(nowNanoseconds now: Int64) {
        ticks &+= 1
        lastTickNanoseconds = now
        if nextTickNanoseconds > now + tickPeriodNanoseconds {      // an on-demand tick before the planned one
            nextTickNanoseconds = now + tickPeriodNanoseconds
            return
        }
        nextTickNanoseconds += tickPeriodNanoseconds
        if nextTickNanoseconds <= now {
            skippedTicks &+= UInt64((now - nextTickNanoseconds) / tickPeriodNanoseconds + 1)
            nextTickNanoseconds = now + tickPeriodNanoseconds
        }
    }

    /// True when a period has passed since the last tick (within the coalescing window): an input may
    /// have its tick now (ticks on demand).
    func periodElapsed(nowNanoseconds now: Int64) -> Bool {
        now >= lastTickNanoseconds + tickPeriodNanoseconds - coalesceNanoseconds
    }

    /// Ticks on demand (docs/power.md §2): the next tick on the full-rate schedule while `fullRate`,
    /// else at `demand` (the earliest time after the last tick at which a tick changes something; nil:
    /// none), never closer than a period after the last tick and never before `demand`.
    mutating func planTick(fullRate: Bool, demand: Int64?, nowNanoseconds now: Int64) {
        let earliest = lastTickNanoseconds + tickPeriodNanoseconds
        nextTickIsOnDemand = !fullRate && demand != nil
        if fullRate {
            if nextTickNanoseconds > now + tickPeriodNanoseconds { nextTickNanoseconds = max(earliest, now) }
        } else if let demand {
            nextTickNanoseconds = max(demand, earliest)
        } else {
            nextTickNanoseconds = .max
        }
    }

    /// A new tick rate (a reload): the next tick a period from `now`.
    mutating func setTickHertz(_ hertz: Int, imuPeriodNanoseconds: Int64?, nowNanoseconds now: Int64) {
        tickPeriodNanoseconds = 1_000_000_000 / Int64(hertz)
        nextTickNanoseconds = now + tickPeriodNanoseconds
        if let imuPeriodNanoseconds { coalesceNanoseconds = min(imuPeriodNanoseconds, tickPeriodNanoseconds) / 2 }
    }

    /// Arms the timer for the next IMU poll, or for the next tick when that comes more than the
    /// coalescing window before it, or for `deadline` (the open epoch's quiet-line deadline, and on
    /// demand every part's next decision) when that comes first, and keeps the reason of the one armed.
    /// Re-arming also clears a fired timer's expiration count.
    mutating func arm(imuNextNanoseconds imuNext: Int64?, deadline: WakeDeadline, fired: Bool) {
        guard let timer else { return }
        let imuNext = imuNext ?? .max
        let tick = nextTickNanoseconds
        var target = imuNext
        armedReason = .imu
        if tick != .max && imuNext > tick + coalesceNanoseconds { target = tick; armedReason = .tick }
        if let d = deadline.nanoseconds, d < target { target = d; armedReason = deadline.reason }
        if target != armedWakeNanoseconds || fired {
            armedWakeNanoseconds = target
            timer.armTimer(firstNanoseconds: max(1, target))
        }
    }

    /// The earlier of two optional deadlines (monotonic ns).
    static func earliest(_ a: Int64?, _ b: Int64?) -> Int64? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// poll() over every reserved slot: at most a second with the timer, 20 ms without one.
    mutating func wait() -> PollReadiness {
        let ready = pollSet.wait(timeoutMilliseconds: timer != nil ? 1000 : 20)
        wakeUps &+= 1
        return ready
    }

    /// The loop's rows of the `stats` table.
    func appendStats(to t: inout ConsoleCounterTable) {
        t.append("loop.wakeUps", Int64(truncatingIfNeeded: wakeUps))
        t.append("loop.ticks", Int64(truncatingIfNeeded: ticks))
        t.append("loop.skippedTicks", Int64(truncatingIfNeeded: skippedTicks))
        t.append("loop.timerWakeUps", Int64(truncatingIfNeeded: timerWakeUps))
        t.append("loop.maxWakeLatencyNanoseconds", maxWakeLatencyNanoseconds)
        wakeReasons.appendStats(to: &t)
    }
}
