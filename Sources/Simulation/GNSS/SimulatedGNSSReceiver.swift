import Receiver

/// The common part of the receiver twins (`SimulatedUbloxReceiver`, `SimulatedMediaTekReceiver`):
/// a receiver that sends one NMEA cycle every `periodMilliseconds` through a UART at `baudRate`, no
/// faster than the line carries (10 bits a byte; what does not fit its transmit buffer is dropped and
/// counted, as on a real receiver at a rate too high for its baud), reads commands from its UART, and
/// forgets what it was told when it loses power unless it was saved.
///
/// Driven by monotonic time only; after `init` it allocates nothing.
open class SimulatedGNSSReceiver {
    /// What a receiver is set to: it starts from `factory`, commands change `current`, a save copies it
    /// to `saved` (battery-backed RAM or flash), which a power cycle restores.
    public struct Configuration: Sendable, Equatable {
        public var baudRate: Int
        public var periodMilliseconds: Int
        public var sentences: NMEASentenceSet
        public var constellations: GNSSConstellations

        public init(baudRate: Int, periodMilliseconds: Int, sentences: NMEASentenceSet, constellations: GNSSConstellations) {
            self.baudRate = baudRate
            self.periodMilliseconds = periodMilliseconds
            self.sentences = sentences
            self.constellations = constellations
        }
    }

    public let factory: Configuration
    /// The configuration in use.
    public internal(set) var current: Configuration
    /// What survives a power cycle (nil: nothing saved; the factory configuration returns).
    public internal(set) var saved: Configuration?
    /// The line speed of the receiver's UART now.
    public var baudRate: Int { current.baudRate }

    // MARK: counters
    public internal(set) var cyclesSent = 0
    /// Sentences that did not fit the transmit buffer.
    public internal(set) var sentencesDropped = 0
    /// Commands read with a valid checksum, and the replies (acknowledgements) sent.
    public internal(set) var commandsReceived = 0
    public internal(set) var acknowledgements = 0
    public internal(set) var refusals = 0
    /// Input that was no command (bad checksum, unknown framing).
    public internal(set) var garbageCommands = 0
    public internal(set) var powerCycles = 0

    /// Transmit buffer (a ring) and what is waiting in it.
    private let ring: UnsafeMutableRawBufferPointer
    private var head = 0
    private var queued = 0
    private var transmittedAtNanoseconds: Int64
    private var credit = 0.0
    /// Scratch for building sentences.
    let scratch: UnsafeMutableRawBufferPointer
    var nextCycleNanoseconds: Int64
    /// The receiver's time grid starts here (UTC 12:00:00.000 of the simulated day).
    let startNanoseconds: Int64
    /// A speed change waiting for the reply before it (applied once the reply has left).
    private var pendingBaud: Int?
    private var pendingBaudAfter = 0
    /// The receiver is off (no output, no input).
    public private(set) var poweredOff = false

    /// The sentence types in this receiver's own order.
    public let outputOrder: [NMEASentenceType]

    /// A receiver starting at `startNanoseconds` with `factory` settings, sending the sentences it is
    /// set to in `outputOrder`, with a transmit buffer of `transmitBufferBytes`.
    public init(factory: Configuration, outputOrder: [NMEASentenceType], startNanoseconds: Int64,
                transmitBufferBytes: Int = 4096) {
        self.factory = factory
        self.outputOrder = outputOrder
        current = factory
        ring = .allocate(byteCount: transmitBufferBytes, alignment: 1)
        scratch = .allocate(byteCount: 2048, alignment: 1)
        transmittedAtNanoseconds = startNanoseconds
        self.startNanoseconds = startNanoseconds
        nextCycleNanoseconds = startNanoseconds + 1_000_000_000
    }

    deinit {
        ring.deallocate()
        scratch.deallocate()
    }

    // MARK: for the family twins

    /// What the receiver prints when it starts (its start-up text), into `out`.
    open func writeStartUpText(into out: inout SentenceBuilder) {}

    /// Handles bytes that arrived at its UART (already at its own speed).
    open func receive(_ bytes: UnsafeRawBufferPointer, nowNanoseconds: Int64) {}

    /// The talker of the fix sentences for the systems in use.
    open var talker: StaticString {
        current.constellations.intersection(GNSSConstellations.major).rawValue.nonzeroBitCount > 1 ? "GN" : "GP"
    }

    /// Queues a reply; `first` puts it ahead of the NMEA waiting (receivers answer at once).
    public func enqueue(_ bytes: UnsafeRawBufferPointer, first: Bool = false) {
        guard bytes.count <= ring.count - queued else {
            sentencesDropped += 1
            return
        }
        if first {
            head = (head - bytes.count + ring.count) % ring.count
            for i in 0..<bytes.count { ring[(head + i) % ring.count] = bytes[i] }
            if pendingBaud != nil { pendingBaudAfter += bytes.count }
        } else {
            for i in 0..<bytes.count { ring[(head + queued + i) % ring.count] = bytes[i] }
        }
        queued += bytes.count
    }

    /// Changes the UART speed once the `afterBytes` now at the front of the queue have left (the
    /// reply to the command that asked for it); 0 = at once.
    public func switchBaudRate(to rate: Int, afterBytes: Int) {
        if afterBytes <= 0 {
            current.baudRate = rate
            credit = 0
        } else {
            pendingBaud = rate
            pendingBaudAfter = afterBytes
        }
    }

    // MARK: running

    /// Bytes waiting to leave the UART.
    public var queuedBytes: Int { queued }

    /// When the next cycle is due (the pty harness wakes for it).
    public var nextEventNanoseconds: Int64 { poweredOff ? .max : nextCycleNanoseconds }

    /// Queues the cycles due by `now`, then moves up to what the line carried since the last call into
    /// `out`; returns the byte count.
    public func transmit(nowNanoseconds now: Int64, into out: UnsafeMutableRawBufferPointer) -> Int {
        guard !poweredOff else { return 0 }
        while nextCycleNanoseconds <= now {
            queueCycle(atNanoseconds: nextCycleNanoseconds)
            nextCycleNanoseconds += Int64(current.periodMilliseconds) * 1_000_000
        }
        let elapsed = Double(max(0, now - transmittedAtNanoseconds)) / 1e9
        transmittedAtNanoseconds = now
        credit = min(credit + elapsed * Double(current.baudRate) / 10, Double(ring.count))
        var n = 0
        while n < out.count && queued > 0 && credit >= 1 {
            out[n] = ring[head]
            head = (head + 1) % ring.count
            queued -= 1
            n += 1
            credit -= 1
            if let rate = pendingBaud {
                pendingBaudAfter -= 1
                if pendingBaudAfter <= 0 {
                    pendingBaud = nil
                    current.baudRate = rate
                    credit = 0
                    break      // the rest leaves at the new speed
                }
            }
        }
        return n
    }

    /// Sets the measurement period; the next cycle falls on the new time grid.
    public func setPeriod(milliseconds: Int, nowNanoseconds now: Int64) {
        current.periodMilliseconds = milliseconds
        let period = Int64(milliseconds) * 1_000_000
        let elapsed = max(0, now - startNanoseconds)
        nextCycleNanoseconds = startNanoseconds + (elapsed / period + 1) * period
    }

    private func queueCycle(atNanoseconds due: Int64) {
        var builder = SentenceBuilder(storage: scratch)
        let epoch = SimulatedNMEAEpoch(timeOfDayMilliseconds: 43_200_000 + Int((due - startNanoseconds) / 1_000_000),
                                       talker: talker)
        var i = 0
        while i < outputOrder.count {
            let type = outputOrder[i]
            i += 1
            guard current.sentences.contains(type) else { continue }
            let before = builder.count
            if !epoch.write(type, into: &builder) || builder.count > ring.count - queued {
                builder.truncate(to: before)
                sentencesDropped += 1
            }
        }
        cyclesSent += 1
        enqueue(builder.bytes)
    }

    /// Power off now (nothing sent or read until `powerOn`).
    public func powerOff() {
        poweredOff = true
        head = 0
        queued = 0
        pendingBaud = nil
    }

    /// Power on at `now`: the saved configuration (or the factory one) returns, the start-up text is
    /// sent, the first cycle follows a second later.
    public func powerOn(nowNanoseconds now: Int64) {
        poweredOff = false
        powerCycles += 1
        current = saved ?? factory
        credit = 0
        transmittedAtNanoseconds = now
        setPeriod(milliseconds: current.periodMilliseconds, nowNanoseconds: now + 900_000_000)
        var builder = SentenceBuilder(storage: scratch)
        writeStartUpText(into: &builder)
        enqueue(builder.bytes)
    }

    /// A power cut: off and on again at `now`.
    public func powerCycle(nowNanoseconds now: Int64) {
        powerOff()
        powerOn(nowNanoseconds: now)
    }
}
