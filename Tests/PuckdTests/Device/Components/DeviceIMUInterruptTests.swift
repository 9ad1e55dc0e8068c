import Hardware
@testable import IMU
@testable import Simulation
import Testing
import TestSupport
@testable import Puckd

/// `[imu] interrupt_line` (docs/power.md §1.5, docs/hardware.md §1.7.7): the LSM6DSL twin's INT1
/// (FIFO watermark) drives a line of the GPIO twin; the loop, woken where its timer is armed as poll()
/// would wake it, reads each burst at the edge (not at the burst timer), times it by the edge, keeps
/// the heading of the timer path, falls back to the timer when the wire is wrong, and allocates nothing.
@Suite(.serialized) struct DeviceIMUInterruptTests {
    /// A free BCM line of the sim profile (button 17, LEDs 22–24, PPS 18).
    static let line = 25
    /// The sim profile's watermark at the twin's 104 Hz: 10 bursts/s → 11 samples.
    static let watermarkSamples = 11

    static func harness(line: Int?, wiredTo wire: Int? = nil) throws -> SimulatedDeviceHarness {
        try SimulatedDeviceHarness(overrides: line.map { ["imu.interrupt_line=\($0)"] } ?? [], setupChanges: { setup in
            setup.ticksOnDemand = true
            if let wire { setup.loaded.configuration.imu.interruptLine = wire }    // the device listens elsewhere
        })
    }

    /// One wake-up where the loop's timer is armed (at most 1 s later), every descriptor ready.
    static func wake(_ h: SimulatedDeviceHarness) {
        let armed = h.device.scheduler.armedWakeNanoseconds
        h.now = min(max(armed, h.now + 1), h.now + 1_000_000_000)
        _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
    }

    struct Run {
        var wakeUps = 0
        /// (wake time, readings) of each wake-up that read a burst.
        var bursts: [(Int64, Int)] = []
    }

    static func run(_ h: SimulatedDeviceHarness, nanoseconds: Int64) -> Run {
        var run = Run()
        let end = h.now + nanoseconds
        while h.now < end {
            let before = h.device.imuLink.fifoBursts
            wake(h)
            run.wakeUps += 1
            if h.device.imuLink.fifoBursts > before { run.bursts.append((h.now, h.device.imuLink.burst.count)) }
        }
        return run
    }

    @Test func theLoopReadsEachBurstAtItsEdgeWithTheTimerPathsHeading() throws {
        var headings: [Double] = []
        var runs: [Run] = []
        for line in [nil, Self.line] {
            let h = try Self.harness(line: line)
            defer { h.removeDirectory() }
            _ = Self.run(h, nanoseconds: 5_000_000_000)
            let link0 = (h.device.imuLink.interruptBursts, h.device.imuLink.fifoBursts)
            let run = Self.run(h, nanoseconds: 30_000_000_000)
            runs.append(run)
            let link = h.device.imuLink
            #expect(link.fifoOverruns == 0)
            if line != nil {
                #expect(link.device?.routesWatermark == true, "the LSM6DSL program routed INT1_FTH")
                #expect(h.board.imu?.primary.fifoInterruptEnabled == true)
                #expect(link.interruptBursts - link0.0 == UInt64(link.fifoBursts - link0.1), "every burst at an edge")
                #expect(link.interruptTimeouts == 0, "the fallback timer never fired")
                // At the edge the FIFO holds exactly the watermark, and edges come one watermark apart
                // (11 periods of the chip's clock), not at the timer's 100 ms.
                #expect(run.bursts.allSatisfy { $0.1 == Self.watermarkSamples }, "\(run.bursts.prefix(5))")
                var i = 1
                while i < run.bursts.count {
                    let gap = run.bursts[i].0 - run.bursts[i - 1].0
                    // The twin converts at the exact 1e9 / 104 ns (docs/hardware.md §1.7.5).
                    let expected = Int64((Double(Self.watermarkSamples) * 1e9 / 104).rounded())
                    #expect(abs(gap - expected) <= 2, "burst \(i): \(gap) ns")
                    i += 1
                }
                let newest = try #require(h.device.imuLink.lastSample)
                #expect(newest.timestampNanoseconds == run.bursts.last!.0, "the newest sample is timed at its edge")
            } else {
                #expect(link.interruptBursts == 0)
                #expect(run.bursts.contains { $0.1 != Self.watermarkSamples }, "the timer reads 10 or 11 samples")
            }
            #expect(run.bursts.count >= 280, "\(run.bursts.count) bursts in 30 s")
            headings.append(try #require(h.device.imuLink.heading.current.trueHeadingDegrees))
        }
        var difference = (headings[0] - headings[1]).truncatingRemainder(dividingBy: 360)
        if difference > 180 { difference -= 360 } else if difference < -180 { difference += 360 }
        difference = abs(difference)
        #expect(difference < 1.0, "heading timer \(headings[0])° vs edges \(headings[1])°")
        print("DeviceIMUInterruptTests: wake-ups in 30 s: timer \(runs[0].wakeUps), edges \(runs[1].wakeUps); "
              + "bursts \(runs[0].bursts.count) vs \(runs[1].bursts.count); heading difference \(difference)°")
    }

    @Test func aLineThatNeverFiresFallsBackToTheTimerSaidOnceAndCounted() throws {
        let h = try Self.harness(line: Self.line, wiredTo: 5)
        defer { h.removeDirectory() }
        _ = Self.run(h, nanoseconds: 5_000_000_000)
        let bursts0 = h.device.imuLink.fifoBursts
        _ = Self.run(h, nanoseconds: 30_000_000_000)
        let link = h.device.imuLink
        #expect(link.interruptBursts == 0)
        #expect(link.interruptTimeouts >= 190, "\(link.interruptTimeouts) fallback reads")
        #expect(link.fifoBursts - bursts0 >= 190, "the FIFO is still read, every 150 ms")
        #expect(link.fifoOverruns == 0)
        #expect(h.device.imuLink.heading.current.trueHeadingDegrees != nil, "the heading goes on")
        let warnings = h.output.split(separator: "\n").filter { $0.contains("no FIFO watermark edge on interrupt line 5") }.count
        #expect(warnings == 1, "\(h.output)")
    }

    @Test func edgeWakeUpsAllocateNothing() throws {
        let h = try Self.harness(line: Self.line)
        defer { h.removeDirectory() }
        for _ in 0..<4000 { Self.wake(h) }
        let bursts0 = h.device.imuLink.interruptBursts
        let allocations = allocationCount { for _ in 0..<20_000 { Self.wake(h) } }
        #expect(allocations == 0)
        #expect(h.device.imuLink.interruptBursts - bursts0 > 500)
    }
}
