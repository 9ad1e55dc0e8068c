import Controls
import GpsdProtocol
import SystemCalls

/// Where a PPS pulse paired with its second goes (docs/gpsd-protocol.md §7): the gpsd server's
/// `TOFF` and `PPS` reports to `pps` watchers, and a pulse sample to chrony's PPS refclock socket
/// (`[time] chrony_pps_socket`) and NTP shared memory's PPS unit, as gpsd's time service does. Called by the router only.
extension Device {
    /// A pairing made at `now` (the wake-up that completed the whole-second fix). `monotonic`: the
    /// pulse was stamped on CLOCK_MONOTONIC (a GPIO edge), so it is placed on the system clock by the
    /// time elapsed since it; else it is already CLOCK_REALTIME (the kernel PPS device).
    func publishPulse(_ pulse: PPSPairedPulse, monotonic: Bool, nowNanoseconds now: Int64) {
        guard gpsdServer != nil || chronyPPS != nil || ntpShmPPS != nil else { return }
        let system = Int64(truncatingIfNeeded: SystemClock.realtimeNanoseconds())
        let pulseSystem = monotonic ? system &- (now &- pulse.pulseNanoseconds) : pulse.pulseNanoseconds
        let received = monotonic ? system : pulse.pulseNanoseconds &+ pulse.sentenceLatencyNanoseconds
        gpsdServer?.publish(ppsUTCNanoseconds: pulse.utcNanoseconds, clockNanoseconds: pulseSystem,
                            fixReceivedClockNanoseconds: received)
        chronyPPS?.send(ChronySample(pulseAtSystemNanoseconds: pulseSystem, trueSecondUTCNanoseconds: pulse.utcNanoseconds),
                        nowNanoseconds: now)
        publishToSharedMemory(pulseAtSystemNanoseconds: pulseSystem, trueSecondUTCNanoseconds: pulse.utcNanoseconds)
    }
}
