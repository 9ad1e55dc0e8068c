/// When the router reads the IMU (docs/power.md §1.4). Polled, a sample is due at its poll time and a
/// wake-up within the coalescing window before it reads it. Read from a FIFO in bursts, the FIFO holds
/// far more than one burst (the watermark is at most half of it), so a burst rides on any wake-up the
/// loop makes anyway (a GPS epoch, a tick, a button) from half a burst interval before its time, and
/// the wake timer is armed for it only half an interval after: with a 10 Hz GPS and `burst_hz` 10 the
/// bursts share the epochs' wake-ups instead of adding ten of their own. While the link waits for the
/// IMU's interrupt line the window is closed: an early read would empty the FIFO before the edge and
/// lose its timing, and the link's deadline is already the edge's fallback.
extension Device {
    /// The earliest time a wake-up reads the IMU (nil: no IMU).
    var imuEarliestReadNanoseconds: Int64? {
        guard let next = imuLink.deadlineNanoseconds else { return nil }
        return next - max(scheduler.coalesceNanoseconds, imuBurstSlackNanoseconds)
    }

    /// The time the wake timer is armed for to read the IMU (nil: no IMU).
    var imuLatestReadNanoseconds: Int64? {
        guard let next = imuLink.deadlineNanoseconds else { return nil }
        return next + imuBurstSlackNanoseconds
    }

    /// Half a burst interval while the IMU is read from its FIFO in bursts, else 0.
    var imuBurstSlackNanoseconds: Int64 {
        guard !imuLink.waitsForEdges, let device = imuLink.device, device.readsFIFO, device.status.state == .running else { return 0 }
        return device.configuration.burstIntervalNanoseconds / 2
    }
}
