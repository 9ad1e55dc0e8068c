import Console
import Configuration
import Hardware
import NMEA

/// Fixes completed while feeding one read: at most one per sentence, so 16 cover a 256-byte read.
struct PendingFixes {
    static let capacity = 16
    private var storage = InlineArray<16, Fix>(repeating: Fix(timeOfDayNanoseconds: 0))
    private(set) var count = 0

    mutating func append(_ fix: borrowing Fix) {
        if count < Self.capacity {
            storage[count] = copy fix
            count += 1
        }
    }

    subscript(index: Int) -> Fix { storage[index] }
}

/// The GPS link as a loop component: the NMEA pipeline (framer, parser, epoch assembler), the baud
/// search, the receiver configurator, the source's status and reconnect messages, and its counters.
/// `service` reads the source the router passes in (generic, so no existential), and hands each fix it
/// completes to the router's non-escaping `onFix` (the core, the heading, PPS and the state take it
/// from there). Its `LoopComponent` side (GPSLink+Component.swift) is what needs no source: the
/// quiet-line epoch close at its deadline, and its `gps.*` stats. Everything is allocated at start-up.
final class GPSLink {
    var pipeline: NMEAPipeline
    var baudSearch: BaudRateSearch?
    /// Configuring the receiver: the configurator, the UBX reader, what the log said.
    let receiverLink: DeviceReceiverLink
    let output: DeviceOutput
    /// The console, whose NMEA log records the sentences, UBX frames and commands (nil: none).
    let console: DeviceConsole?
    private let readBuffer: UnsafeMutableRawBufferPointer
    /// The last fix, and when it (and the last one with a position) arrived, monotonic ns.
    private(set) var lastFix: Fix?
    private(set) var lastFixNanoseconds: Int64?
    private(set) var lastPositionNanoseconds: Int64?
    private var lastSentenceCount = 0
    /// When the last valid sentence arrived (the gps-silent fault), monotonic ns.
    private(set) var lastSentenceNanoseconds: Int64
    private(set) var status: SourceStatus = .connecting
    var baudLockLogged = false
    /// The source said how it was opened (once).
    var described = false
    private var lastLoggedError: SourceError?
    private var repeatedErrors = 0
    /// The last source error as text (the console's fault list), empty when none.
    private(set) var errorText = ConsoleText()
    private(set) var bytes: UInt64 = 0
    private(set) var fixes: UInt64 = 0
    private(set) var errors: UInt64 = 0

    init(_ settings: GPSSettings, epochs: EpochAssembler.Configuration, output: DeviceOutput, console: DeviceConsole?,
         nowNanoseconds now: Int64) {
        pipeline = NMEAPipeline(strict: settings.strict, configuration: epochs)
        receiverLink = DeviceReceiverLink(settings)
        self.output = output
        self.console = console
        readBuffer = .allocate(byteCount: 256, alignment: 16)
        lastSentenceNanoseconds = now
    }

    deinit { readBuffer.deallocate() }

    /// Reads what the source has (a few reads at most per wake-up) and handles the fixes it completes.
    /// Returns a baud rate when auto-baud wants the port switched.
    func service<Source: ByteSource & ~Copyable>(_ gps: inout Source, nowNanoseconds now: Int64,
                                                 onBytes: (UnsafeRawBufferPointer) -> Void = { _ in },
                                                 onFix: (borrowing Fix) -> Void) -> Int? {
        var reads = 0
        while reads < 8 {
            let n: Int
            do throws(SourceError) {
                n = try gps.read(into: readBuffer, nowNanoseconds: now)
            } catch {
                errors &+= 1
                logSourceError(error)
                break
            }
            if n == 0 { break }
            bytes &+= UInt64(n)
            onBytes(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]))
            feed(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]), nowNanoseconds: now, onFix: onFix)
            reads += 1
            if n < readBuffer.count { break }
        }
        noteStatus(gps.status)
        if let rate = serviceReceiver(&gps, nowNanoseconds: now) { return rate }
        let delivered = pipeline.framer.counters.sentencesDelivered
        if delivered != lastSentenceCount {
            lastSentenceCount = delivered
            lastSentenceNanoseconds = now
        }
        guard var search = baudSearch else { return nil }
        let decision = search.observe(pipeline.framer, nowNanoseconds: now)
        let wasLocked = search.state == .locked
        baudSearch = search
        switch decision {
        case .keep:
            if wasLocked && !baudLockLogged {
                baudLockLogged = true
                output.line { out in
                    out.append("gps: auto-baud: NMEA at ")
                    out.append(int: search.currentBaud)
                    out.append(" baud")
                }
            }
            return nil
        case .tryNext(let rate):
            baudLockLogged = false
            return rate
        }
    }

    /// Runs bytes through the pipeline and handles the completed fixes: an epoch closes the moment its
    /// learned last sentence is in (or the next epoch begins).
    func feed(_ bytes: UnsafeRawBufferPointer, nowNanoseconds now: Int64, onFix: (borrowing Fix) -> Void) {
        var pending = PendingFixes()
        observeReceiverBytes(bytes, nowNanoseconds: now)
        pipeline.feed(bytes, nowNanoseconds: now, onSentence: { s, c in observeReceiverSentence(s, c, nowNanoseconds: now) }) { fix in
            pending.append(fix)
        }
        var i = 0
        while i < pending.count {
            handle(pending[i], nowNanoseconds: now, onFix: onFix)
            i += 1
        }
    }

    /// One fix: counted and kept as the last one, then handed to the router.
    private func handle(_ fix: Fix, nowNanoseconds now: Int64, onFix: (borrowing Fix) -> Void) {
        note(fix, nowNanoseconds: now)
        onFix(fix)
    }

    /// Counts `fix` and keeps it as the last one.
    func note(_ fix: Fix, nowNanoseconds now: Int64) {
        fixes &+= 1
        lastFixNanoseconds = now
        if fix.hasPosition { lastPositionNanoseconds = now }
        lastFix = fix
    }

    /// Logs a source error as the source reported it (the source already scheduled its reconnect).
    /// The same error again (a receiver that stays unplugged while the source retries with backoff) is
    /// counted, not logged; the reopen says how many attempts failed.
    func logSourceError(_ error: SourceError) {
        if let last = lastLoggedError, last.kind == error.kind, last.systemError == error.systemError {
            repeatedErrors += 1
            return
        }
        lastLoggedError = error
        errorText.removeAll()
        error.writeMessage { errorText.append($0) }
        output.line(.error) { out in
            out.append("gps: ")
            error.writeMessage { out.append($0) }
            if error.isPermanent { out.append(" (not retried)") } else { out.append(" (retrying with backoff)") }
        }
    }

    /// Logs the source opening (once per open).
    func noteStatus(_ status: SourceStatus) {
        if status == self.status { return }
        self.status = status
        switch status {
        case .open:
            let failed = repeatedErrors + (lastLoggedError == nil ? 0 : 1)
            output.line { out in
                out.append("gps: source open, reading NMEA")
                if failed > 0 {
                    out.append(" (after ")
                    out.append(int: failed)
                    out.append(" failed attempt")
                    if failed > 1 { out.append(UInt8(ascii: "s")) }
                    out.append(")")
                }
            }
            lastLoggedError = nil
            repeatedErrors = 0
        case .finished:
            output.line(.warning) { out in out.append("gps: the source ended (end of file); the puck goes stale") }
        case .waitingToReconnect, .connecting, .failed:
            break
        }
    }
}
