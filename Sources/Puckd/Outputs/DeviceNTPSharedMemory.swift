import Configuration
import Console
import GpsdProtocol
import GpsdServer
import NMEA
import SystemCalls

/// NTP shared memory (`[time] shm`, docs/gpsd-protocol.md §7.2) as gpsd's time service writes it:
/// unit N takes each dated fix's UTC against the system clock (coarse, like gpsd's SHM(0)), unit
/// N + 1 each PPS pulse paired with its second (like SHM(1)). Attached once in `Device.init`.
extension Device {
    /// The two units `[time] shm` asks for (the pulse unit only with a `[pps]` line or device), and
    /// the start-up report's lines. `keys` replaces the units' keys (tests: private segments).
    static func openNTPSharedMemory(_ c: PuckdConfiguration, keys: (coarse: Int32, pulse: Int32)?)
        -> (coarse: NTPSharedMemory?, pulse: NTPSharedMemory?, lines: [String]) {
        guard let unit = c.time.shmUnit else { return (nil, nil, []) }
        let coarse = NTPSharedMemory(unit: unit, key: keys?.coarse)
        var lines = [coarse.reportLine("each fix's UTC (coarse, refclock SHM " + String(unit) + ")")]
        let hasPPS = c.pps.line != nil || !(c.pps.device.isEmpty || c.pps.device == "none")
        guard hasPPS else {
            lines.append("time: no PPS unit NTP" + String(unit + 1) + ": [pps] has no line or device")
            return (coarse, nil, lines)
        }
        let pulse = NTPSharedMemory(unit: unit + 1, key: keys?.pulse)
        lines.append(pulse.reportLine("each PPS pulse paired with its second (refclock SHM " + String(unit + 1) + ")"))
        return (coarse, pulse, lines)
    }

    /// After each dated 2D/3D fix: its UTC against the system clock `system` (CLOCK_REALTIME now).
    func publishToSharedMemory(fixUTCNanoseconds utc: Int64, systemNanoseconds system: Int64) {
        ntpShm?.write(NTPShmSample(trueNanoseconds: utc, receiveSystemNanoseconds: system))
    }

    /// After each PPS pairing: the whole second against the edge's system time.
    func publishToSharedMemory(pulseAtSystemNanoseconds system: Int64, trueSecondUTCNanoseconds second: Int64) {
        ntpShmPPS?.write(NTPShmSample(trueNanoseconds: second, receiveSystemNanoseconds: system))
    }

    /// `stats` rows of the units.
    func appendSharedMemoryCounters(_ t: inout ConsoleCounterTable) {
        if let ntpShm {
            t.append("time.shmSamples", Int64(truncatingIfNeeded: ntpShm.samplesWritten))
            t.append("time.shmSamplesLost", Int64(truncatingIfNeeded: ntpShm.samplesLost))
        }
        if let ntpShmPPS {
            t.append("time.shmPulseSamples", Int64(truncatingIfNeeded: ntpShmPPS.samplesWritten))
            t.append("time.shmPulseSamplesLost", Int64(truncatingIfNeeded: ntpShmPPS.samplesLost))
        }
    }
}
