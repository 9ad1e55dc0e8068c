import Glibc
import Hardware
import Heading
import NMEA
import State
import Tracking

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

/// GPS: read the source, run the NMEA pipeline, hand fixes to the core, the heading and PPS.
extension Device {
    /// Reads what the source has (a few reads at most per wake-up) and handles the fixes it completes.
    /// Returns a baud rate when auto-baud wants the port switched.
    func serviceGPS<Source: ByteSource & ~Copyable>(_ gps: inout Source, nowNanoseconds now: Int64) -> Int? {
        var reads = 0
        while reads < 8 {
            let n: Int
            do throws(SourceError) {
                n = try gps.read(into: readBuffer, nowNanoseconds: now)
            } catch {
                counters.gpsErrors &+= 1
                logSourceError(error)
                break
            }
            if n == 0 { break }
            counters.gpsBytes &+= UInt64(n)
            feed(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]), nowNanoseconds: now)
            reads += 1
            if n < readBuffer.count { break }
        }
        noteGPSStatus(gps.status)
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
    func feed(_ bytes: UnsafeRawBufferPointer, nowNanoseconds now: Int64) {
        var pending = PendingFixes()
        observeReceiverBytes(bytes, nowNanoseconds: now)
        gpsdServer?.publish(receiverBytes: bytes)
        pipeline.feed(bytes, nowNanoseconds: now, onSentence: { s, c in observeReceiverSentence(s, c, nowNanoseconds: now) }) { fix in
            pending.append(fix)
        }
        var i = 0
        while i < pending.count {
            handleFix(pending[i], nowNanoseconds: now)
            i += 1
        }
    }

    /// Closes the open epoch when the line has been quiet past its deadline (its ender did not come).
    func serviceEpochDeadline(nowNanoseconds now: Int64) {
        guard let deadline = pipeline.deadlineNanoseconds, now >= deadline else { return }
        var pending = PendingFixes()
        pipeline.closeIfQuiet(nowNanoseconds: now) { fix in pending.append(fix) }
        if pending.count > 0 { handleFix(pending[0], nowNanoseconds: now) }
    }

    /// One fix: the tracking core, the heading's declination and speed, PPS pairing, the fix LED.
    func handleFix(_ fix: Fix, nowNanoseconds now: Int64) {
        counters.fixes &+= 1
        lastFixNanoseconds = now
        if fix.hasPosition {
            lastPositionNanoseconds = now
            lastGoodFix = SavedFix(fix)
            if now >= nextFixRefreshNanoseconds {
                nextFixRefreshNanoseconds = now + Int64(configuration.state.fixIntervalSeconds * 1e9)
                stateDirty = true
            }
        }
        lastFix = fix
        core.updateLocation(fix, atNanoseconds: now)
        heading.update(fix: fix, receivedAtNanoseconds: now)
        publishToGpsdServer(fix: fix, nowNanoseconds: now)
        publishToChrony(fix: fix, nowNanoseconds: now)
        guard let utc = fix.utcNanoseconds, utc % 1_000_000_000 == 0 else { return }
        if ppsLine != nil {
            _ = pps.fix(utcNanoseconds: utc, receivedAtNanoseconds: now)
        } else if let ppsDevice {
            // The kernel stamps PPS on CLOCK_REALTIME: pair on that clock (read only for whole seconds).
            if let reading = try? ppsDevice.fetch(), reading.assertSequence != ppsLastSequence {
                ppsLastSequence = reading.assertSequence
                counters.ppsEdges &+= 1
                pps.pulse(atNanoseconds: reading.assertRealtimeNanoseconds)
            }
            var ts = timespec()
            clock_gettime(CLOCK_REALTIME, &ts)
            _ = pps.fix(utcNanoseconds: utc, receivedAtNanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
        }
    }

    /// Logs a source error as the source reported it (the source already scheduled its reconnect).
    /// The same error again (a receiver that stays unplugged while the source retries with backoff) is
    /// counted, not logged; the reopen says how many attempts failed.
    func logSourceError(_ error: SourceError) {
        if let last = lastLoggedGPSError, last.kind == error.kind, last.systemErrno == error.systemErrno {
            repeatedGPSErrors += 1
            return
        }
        lastLoggedGPSError = error
        gpsErrorText.removeAll()
        error.writeMessage { gpsErrorText.append($0) }
        output.line(.error) { out in
            out.append("gps: ")
            error.writeMessage { out.append($0) }
            if error.isPermanent { out.append(" (not retried)") } else { out.append(" (retrying with backoff)") }
        }
    }

    /// Logs the source opening (once per open).
    func noteGPSStatus(_ status: SourceStatus) {
        if status == gpsStatus { return }
        gpsStatus = status
        switch status {
        case .open:
            let failed = repeatedGPSErrors + (lastLoggedGPSError == nil ? 0 : 1)
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
            lastLoggedGPSError = nil
            repeatedGPSErrors = 0
        case .finished:
            output.line(.warning) { out in out.append("gps: the source ended (end of file); the puck goes stale") }
        case .waitingToReconnect, .connecting, .failed:
            break
        }
    }

    /// Reads PPS line edges.
    func servicePPSLine() {
        guard let gpio, let line = ppsLine else { return }
        while true {
            ppsEvents.removeAll()
            let n: Int
            do throws(GPIOError) { n = try gpio.readEvents(line, into: &ppsEvents) } catch {
                counters.gpioErrors &+= 1
                return
            }
            var i = 0
            while i < ppsEvents.count {
                counters.ppsEdges &+= 1
                pps.edge(ppsEvents[i])
                i += 1
            }
            if n < GPIOEventBatch.capacity { return }
        }
    }
}
