import Hardware
@testable import Simulation
import Testing
@testable import Controls

@Suite struct PPSPairingTests {
    /// UTC of 2026-11-30T12:00:00Z in nanoseconds.
    static let utc0: Int64 = 1_796_040_000 * 1_000_000_000

    /// A deterministic normal-ish variate (sum of 12 uniforms − 6: mean 0, standard deviation 1).
    struct Noise {
        var state: UInt64
        mutating func next() -> Double {
            var sum = 0.0
            for _ in 0..<12 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                sum += Double(state >> 11) / Double(1 << 53)
            }
            return sum - 6
        }
    }

    @Test func pairingGivesTheClockOffset() {
        var pps = PPSPairing()
        let pulse: Int64 = 5_000_000_000                          // monotonic time of the pulse
        pps.pulse(atNanoseconds: pulse)
        let pairing = pps.fix(utcNanoseconds: Self.utc0, receivedAtNanoseconds: pulse + 180_000_000)
        #expect(pairing == PPSPairedPulse(pulseNanoseconds: pulse, utcNanoseconds: Self.utc0,
                                          clockOffsetNanoseconds: Self.utc0 - pulse,
                                          sentenceLatencyNanoseconds: 180_000_000))
        #expect(pps.utcNanoseconds(atLocalNanoseconds: pulse + 250_000_000) == Self.utc0 + 250_000_000)
        // The same pulse pairs only once.
        #expect(pps.fix(utcNanoseconds: Self.utc0, receivedAtNanoseconds: pulse + 190_000_000) == nil)
    }

    @Test func fractionalAndLateFixesDoNotPair() {
        var pps = PPSPairing()
        pps.pulse(atNanoseconds: 0)
        // A 10 Hz receiver: x.1 … x.9 are ignored, x.0 pairs.
        for k in 1...9 {
            #expect(pps.fix(utcNanoseconds: Self.utc0 + Int64(k) * 100_000_000, receivedAtNanoseconds: Int64(k) * 100_000_000) == nil)
        }
        #expect(pps.statistics.unpairedFixCount == 0)
        // A whole-second fix arriving 960 ms after the pulse is too late (its own pulse was missed).
        #expect(pps.fix(utcNanoseconds: Self.utc0 + 1_000_000_000, receivedAtNanoseconds: 960_000_000) == nil)
        #expect(pps.statistics.unpairedFixCount == 1)
        // A fix received before the pulse does not pair with it.
        pps.pulse(atNanoseconds: 2_000_000_000)
        #expect(pps.fix(utcNanoseconds: Self.utc0 + 2_000_000_000, receivedAtNanoseconds: 1_990_000_000) == nil)
        #expect(pps.statistics.unpairedFixCount == 2)
        pps.pulse(atNanoseconds: 3_000_000_000)
        #expect(pps.statistics.unpairedPulseCount == 2)
    }

    /// 10 minutes of pulses from a local clock 25 ppm fast with 2 µs of edge jitter (interrupt latency),
    /// fixes 120–400 ms after each pulse, two pulses missing and one noise spike.
    @Test func rateErrorAndJitterOfASyntheticTrain() {
        var pps = PPSPairing()
        var noise = Noise(state: 42)
        let ratePPB = 25_000.0
        let edgeJitterNanoseconds = 2_000.0
        var paired = 0
        for second in 0..<600 {
            if second == 100 || second == 101 { continue }       // receiver dropped two pulses
            let ideal = 7_000_000_000 + Double(second) * 1e9 * (1 + ratePPB / 1e9)
            let pulse = Int64((ideal + noise.next() * edgeJitterNanoseconds).rounded())
            pps.pulse(atNanoseconds: pulse)
            if second == 300 { pps.pulse(atNanoseconds: pulse + 400_000_000) }   // glitch on the line
            let latency = Int64(120_000_000 + (noise.next() + 6) / 12 * 280_000_000)
            if pps.fix(utcNanoseconds: Self.utc0 + Int64(second) * 1_000_000_000,
                       receivedAtNanoseconds: pulse + latency) != nil { paired += 1 }
        }
        let s = pps.statistics
        #expect(s.pulseCount == 599 && s.missedPulseCount == 2)
        // The glitch and the pulse after it are irregular (0.4 s and 0.6 s intervals).
        #expect(s.irregularPulseCount == 2)
        // Second 300's fix arrived before the glitch that replaced its pulse: that pulse and the glitch
        // stay unpaired, and so does the fix.
        #expect(paired == 597 && s.pairedCount == 597)
        #expect(s.unpairedPulseCount == 2 && s.unpairedFixCount == 1)
        // 598 intervals minus the 3 s gap and the two irregular ones.
        #expect(s.intervalCount == 595)
        // Interval jitter of independent edge jitter σ is √2 σ.
        #expect(abs(s.rateErrorPartsPerBillion - ratePPB) < 300)
        #expect(abs(s.intervalJitterNanoseconds - 2_000 * 2.0.squareRoot()) < 300)
        // UTC extrapolated half a second past the last pairing, with the rate error removed.
        let last = s.lastPairing!
        let predicted = pps.utcNanoseconds(atLocalNanoseconds: last.pulseNanoseconds + 500_012_500)!
        #expect(abs(predicted - (last.utcNanoseconds + 500_000_000)) < 1_000)
    }

    /// The PPS input as a GPIO line on the twin (GPIO4 on the Adafruit Ultimate GPS HAT): rising edges
    /// are pulses, the falling edge 100 ms later is not.
    @Test func pulsesFromAGPIOLine() throws {
        let gpio = SimulatedGPIO()
        let line = try gpio.requestInput(GPIOInputConfiguration(offset: 4, bias: .disabled, activeLow: false))
        var pps = PPSPairing()
        var batch = GPIOEventBatch()
        for second in 0..<3 {
            let t = Int64(second) * 1_000_000_000 + 123_456
            gpio.drive(4, high: true, atNanoseconds: t)
            gpio.drive(4, high: false, atNanoseconds: t + 100_000_000)
            batch.removeAll()
            _ = try gpio.readEvents(line, into: &batch)
            for i in 0..<batch.count { pps.edge(batch[i]) }
            let pairing = pps.fix(utcNanoseconds: Self.utc0 + Int64(second) * 1_000_000_000,
                                  receivedAtNanoseconds: t + 300_000_000)
            #expect(pairing?.pulseNanoseconds == t)
        }
        #expect(pps.statistics.pulseCount == 3 && pps.statistics.intervalCount == 2)
        #expect(pps.statistics.rateErrorPartsPerBillion == 0 && pps.statistics.intervalJitterNanoseconds == 0)
    }

    @Test func offsetIsExactForKernelRealtimeStamps() {
        // /dev/pps0 stamps in CLOCK_REALTIME: pairing then measures the system clock's error.
        var pps = PPSPairing()
        let systemClockBehind: Int64 = 3_250_000                  // system clock 3.25 ms slow
        let stamp = Self.utc0 - systemClockBehind
        pps.pulse(atNanoseconds: stamp)
        let pairing = pps.fix(utcNanoseconds: Self.utc0, receivedAtNanoseconds: stamp + 200_000_000)
        #expect(pairing?.clockOffsetNanoseconds == systemClockBehind)
    }
}
