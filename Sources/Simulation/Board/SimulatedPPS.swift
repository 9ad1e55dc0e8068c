/// The PPS twin: the simulated receiver's pulse-per-second output wired to a line of the GPIO twin,
/// as a pps-gpio wire on a board. It rises `leadNanoseconds` before each whole-second epoch the
/// receiver sends (the pulse marks the second, the sentences of that second follow it) and falls
/// `widthNanoseconds` later; puckd reads it through the same GPIO edge events as a real PPS line.
/// Allocation-free.
public struct SimulatedPPS: Sendable {
    /// The GPIO twin's line the pulse drives (`[pps] line`).
    public let offset: UInt32
    /// How long before the whole second's sentences the pulse rises (receivers: 50–500 ms; less
    /// than the simulated drive's 100 ms step).
    public static let leadNanoseconds: Int64 = 40_000_000
    /// How long the pulse stays high (u-blox default: 100 ms).
    public static let widthNanoseconds: Int64 = 100_000_000
    /// When the next rising and falling edges are due (Int64.max: none), monotonic ns.
    public private(set) var riseNanoseconds: Int64 = .max
    public private(set) var fallNanoseconds: Int64 = .max
    /// Pulses sent.
    public private(set) var pulses = 0

    public init(offset: UInt32) {
        self.offset = offset
    }

    /// The earliest edge due, monotonic ns.
    public var deadlineNanoseconds: Int64 { min(riseNanoseconds, fallNanoseconds) }

    /// Drives the edges due by `now` on `gpio` (stamped when they were due), before the receiver
    /// sends what is due.
    public mutating func service(_ gpio: SimulatedGPIO, nowNanoseconds now: Int64) {
        if fallNanoseconds <= now && fallNanoseconds <= riseNanoseconds {
            gpio.drive(offset, high: false, atNanoseconds: fallNanoseconds)
            fallNanoseconds = .max
        }
        if riseNanoseconds <= now {
            if fallNanoseconds != .max { gpio.drive(offset, high: false, atNanoseconds: riseNanoseconds) }
            gpio.drive(offset, high: true, atNanoseconds: riseNanoseconds)
            pulses += 1
            fallNanoseconds = riseNanoseconds + Self.widthNanoseconds
            riseNanoseconds = .max
        }
    }

    /// After the receiver sent: plans the pulse of its next epoch when that epoch is a whole second.
    public mutating func plan(after receiver: SimulatedReceiver) {
        guard riseNanoseconds == .max, receiver.deadlineNanoseconds != .max,
              let utc = receiver.schedule.keyframes[receiver.nextEpochIndex].utcNanoseconds,
              utc % 1_000_000_000 == 0 else { return }
        riseNanoseconds = receiver.deadlineNanoseconds - Self.leadNanoseconds
    }
}
