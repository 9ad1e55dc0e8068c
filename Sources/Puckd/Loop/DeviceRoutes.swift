import GpsdServer
import NMEA
import State

/// What the router does with the GPS link's output: each fix goes to the tracking core, the IMU link's
/// heading (declination, course aiding), the gpsd server and chrony, the track journal, the PPS pairing
/// (whole seconds; a paired pulse to the server and chrony) and the state (the last good fix).
extension Device {
    /// One fix the GPS link completed at `now`.
    func route(_ fix: borrowing Fix, nowNanoseconds now: Int64) {
        if fix.hasPosition {
            lastGoodFix = SavedFix(fix)
            persistence.positionArrived(nowNanoseconds: now, intervalSeconds: configuration.state.fixIntervalSeconds)
        }
        core.updateLocation(fix, atNanoseconds: now)
        tickRequested = true
        imuLink.route(fix: fix, nowNanoseconds: now)
        publishToGpsdServer(fix: fix, nowNanoseconds: now)
        publishToChrony(fix: fix, nowNanoseconds: now)
        trackRecorder.publish(fix: fix, heading: trackHeading(for: fix), nowNanoseconds: now)
        guard let utc = fix.utcNanoseconds, utc % 1_000_000_000 == 0 else { return }
        if let pulse = ppsInput.publish(wholeSecondUTCNanoseconds: utc, nowNanoseconds: now) {
            publishPulse(pulse, monotonic: ppsInput.pulseClockIsMonotonic, nowNanoseconds: now)
        }
    }

    /// The receiver's bytes as read: unchanged to the gpsd server's `nmea`/`raw` watchers, and to the
    /// track journal when it records the raw NMEA.
    func routeReceiverBytes(_ bytes: UnsafeRawBufferPointer, nowNanoseconds now: Int64) {
        gpsdServer?.publish(receiverBytes: bytes)
        trackRecorder.publish(receiverBytes: bytes, nowNanoseconds: now)
    }
}
