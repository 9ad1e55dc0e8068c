import Console
import GpsdProtocol
import Heading
import IMU
import NMEA
import Tracking

/// What the loop hands the server: each report is encoded once into `scratch`, then queued for every
/// client whose watch asks for it, and written at once where the socket takes it.
extension GpsdServer {
    /// After each fix: TPV (and GST when the epoch had it) to JSON watchers; SKY as well when
    /// `sky` is a newly completed view (and with every fix while the receiver has sent no GSV).
    public func publish(fix: borrowing Fix, sky: SkyView?, nowNanoseconds now: Int64) {
        let f = copy fix
        lastFix = f
        var climb: Double?
        if f.mode == .threeD, let utc = f.utcNanoseconds, let alt = f.altitudeMSLMeters {
            if let p = previousAltitude, utc > p.utc, utc - p.utc <= 10_000_000_000 {
                climb = (alt - p.meters) / (Double(utc - p.utc) / 1e9)
            }
            previousAltitude = (utc, alt)
        }
        scratch.removeAll()
        GpsdFixReports.appendTPV(f, device: device.path, climbMetersPerSecond: climb, to: &scratch)
        distribute { $0.wantsJSON }
        scratch.removeAll()
        if GpsdFixReports.appendGST(f, device: device.path, to: &scratch) { distribute { $0.wantsJSON } }
        if let sky {
            lastSky = sky
            hasSky = true
            scratch.removeAll()
            GpsdFixReports.appendSKY(lastSky, fix: f, device: device.path, to: &scratch)
            distribute { $0.wantsJSON }
        } else if !hasSky && (f.hdop != nil || f.satellitesUsed != nil) {
            // A receiver without GSV: SKY with the epoch's DOPs and used count, as gpsd sends from GSA/GGA.
            scratch.removeAll()
            GpsdFixReports.appendSKY(lastSky, fix: f, device: device.path, to: &scratch)
            distribute { $0.wantsJSON }
        }
    }

    /// The fused attitude (ATT), to JSON watchers.
    public func publish(attitude: HeadingEstimate, sample: IMUSample?, utcNanoseconds: Int64?) {
        guard anyClient(where: { $0.wantsJSON }) else { return }
        scratch.removeAll()
        GpsdAttitudeReport.append(attitude, sample: sample, utcNanoseconds: utcNanoseconds, device: device.path, to: &scratch)
        distribute { $0.wantsJSON }
    }

    /// A PPS edge paired with its UTC second: `TOFF` (the whole-second fix's UTC and the system clock
    /// when it was received) then `PPS` (the second and the system clock at the edge), to `pps`
    /// watchers, in gpsd's order (gpsd_json(5)).
    public func publish(ppsUTCNanoseconds real: Int64, clockNanoseconds clock: Int64, fixReceivedClockNanoseconds received: Int64) {
        guard anyClient(where: { $0.enable && $0.pps }) else { return }
        scratch.removeAll()
        GpsdTimeReports.appendTOFF(device: device.path, realUTCNanoseconds: real, clockNanoseconds: received, to: &scratch)
        distribute { $0.enable && $0.pps }
        scratch.removeAll()
        GpsdTimeReports.appendPPS(device: device.path, realUTCNanoseconds: real, clockNanoseconds: clock, to: &scratch)
        distribute { $0.enable && $0.pps }
    }

    /// After each tick: PUCK and CAMERA to `puckd` watchers, each at its own `puckd_hz`.
    public func publish(puck: PuckState, camera: CameraState, nowNanoseconds now: Int64) {
        guard anyClient(where: { $0.wantsPuckd }) else { return }
        scratch.removeAll()
        PuckdReports.appendPuck(puck, to: &scratch)
        PuckdReports.appendCamera(camera, to: &scratch)
        var i = 0
        while i < slots.count {
            defer { i += 1 }
            guard slots[i].isOpen, slots[i].watch.wantsPuckd, now >= slots[i].nextPuckdNanoseconds else { continue }
            let hz = Int64(slots[i].watch.puckdHertz)
            if hz > 0 {
                slots[i].nextPuckdNanoseconds += 1_000_000_000 / hz
                if slots[i].nextPuckdNanoseconds <= now { slots[i].nextPuckdNanoseconds = now + 1_000_000_000 / hz }
            }
            deliver(slot: i)
        }
    }

    /// A tracking event (EVENT), to `puckd` watchers.
    public func publish(event: TimedTrackingEvent) {
        guard anyClient(where: { $0.wantsPuckd }) else { return }
        scratch.removeAll()
        PuckdReports.appendEvent(event, to: &scratch)
        distribute { $0.wantsPuckd }
    }

    /// The receiver's bytes as read: every whole NMEA sentence (`$…` or `!…` through its line end)
    /// goes unchanged to `nmea`/`raw` watchers. Lines longer than 1 KiB are not sentences and are skipped.
    public func publish(receiverBytes bytes: UnsafeRawBufferPointer) {
        let wanted = anyClient { $0.wantsSentences }
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if sentenceCount == 0 && !sentenceOverlong && b != UInt8(ascii: "$") && b != UInt8(ascii: "!") { continue }
            if sentenceCount < sentence.count { sentence[sentenceCount] = b; sentenceCount += 1 } else { sentenceOverlong = true }
            guard b == 0x0A else { continue }
            if !sentenceOverlong && wanted {
                scratch.removeAll()
                scratch.append(UnsafeRawBufferPointer(rebasing: sentence[0..<sentenceCount]))
                counters.sentencesForwarded &+= 1
                distribute { $0.wantsSentences }
            }
            sentenceCount = 0
            sentenceOverlong = false
        }
    }

    func anyClient(where wants: (GpsdWatchFlags) -> Bool) -> Bool {
        var i = 0
        while i < slots.count { if slots[i].isOpen && wants(slots[i].watch) { return true }; i += 1 }
        return false
    }

    /// Queues `scratch` for every open client whose watch `wants` it (and whose `device`, when set,
    /// is this device), then writes.
    func distribute(_ wants: (GpsdWatchFlags) -> Bool) {
        var i = 0
        while i < slots.count {
            if slots[i].isOpen && wants(slots[i].watch) && matchesDevice(slots[i].watch) { deliver(slot: i) }
            i += 1
        }
    }

    func matchesDevice(_ w: GpsdWatchFlags) -> Bool {
        w.device.count == 0 || device.path.withBytes { w.device.equals($0) }
    }

    func deliver(slot: Int) {
        enqueueScratch(slot: slot)
        if !flush(slot: slot) { closeClient(slot: slot) }
    }
}
