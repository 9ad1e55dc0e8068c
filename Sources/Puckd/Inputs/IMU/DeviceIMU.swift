import IMU
import Tracking

/// Routing the IMU link: the board twin lets the simulated chips catch up before the read (a no-op on
/// hardware), the link reads, fuses and feeds a running calibration, and the router hands its heading
/// samples to the tracking core in order; a calibration it applied marks the state dirty.
extension Device {
    /// Services the IMU link when its read window is open (`timerDue`) or its INT1 line has an edge
    /// (`edgeReady`).
    func serviceIMU(nowNanoseconds now: Int64, timerDue: Bool = true, edgeReady: Bool = false) {
        board.imuWillBeRead(atNanoseconds: now)
        let edgeMask = edgeReady ? imuLink.interrupt.map { UInt32(1) << UInt32($0.slot) } ?? 0 : 0
        let events = imuLink.service(nowNanoseconds: now, timerDue: timerDue, ready: .slots(edgeMask))
        board.imuWasRead(atNanoseconds: now)
        var i = 0
        while i < events.headings {
            core.updateHeading(imuLink.headingSamples[i])
            i += 1
        }
        if events.stateChanged { persistence.dirty = true }
    }
}
