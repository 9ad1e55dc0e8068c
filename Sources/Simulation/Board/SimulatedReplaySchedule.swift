import NMEA

/// An NMEA log cut into receiver epochs with the times at which a simulated receiver sends them, plus
/// one motion keyframe per epoch for the simulated IMU. Built once at start-up (allocates); pure.
///
/// Epochs are found the way puckd itself assembles them (`NMEAPipeline`, line by line), with the
/// cycle-ender close off: an epoch ends where the next one's first timed sentence begins (so the
/// simulated receiver sends every sentence of a cycle in it). Epoch k is sent `offsetNanoseconds[k]` after the
/// start; the step between epochs is the fixes' own time difference, clamped to `maximumGapNanoseconds`
/// (a long pause in the recording is compressed) and replaced by the typical step when the recording
/// gives none. A looping replay starts the next lap `lapNanoseconds` after the previous one.
public struct SimulatedReplaySchedule: Sendable {
    /// One epoch: its bytes in the log and when it is sent.
    public struct Epoch: Sendable, Equatable {
        /// Byte range in the log.
        public var start: Int
        public var end: Int
        /// Send time after the replay start, nanoseconds.
        public var offsetNanoseconds: Int64
    }

    /// What the simulated vehicle does at an epoch (from that epoch's fix).
    public struct Keyframe: Sendable, Equatable {
        public var offsetNanoseconds: Int64
        /// Course over ground, degrees, when the fix had one at ≥ 0.5 m/s.
        public var courseDegrees: Double?
        /// Speed over ground, m/s (0 when unknown).
        public var speedMetersPerSecond: Double
        public var latitudeDegrees: Double?
        public var longitudeDegrees: Double?
        public var altitudeMeters: Double?
        public var utcNanoseconds: Int64?
    }

    /// Slowest speed whose course sets the simulated heading, m/s.
    public static let courseMinimumSpeedMetersPerSecond = 0.5

    public let epochs: [Epoch]
    public let keyframes: [Keyframe]
    /// Time from the start of one lap to the next, nanoseconds: the last epoch's offset plus the
    /// typical step, at least one second (the simulated vehicle turns back to its first heading then).
    public let lapNanoseconds: Int64
    /// The usual step between epochs (median), nanoseconds.
    public let typicalStepNanoseconds: Int64
    /// Pauses shortened to `maximumGapNanoseconds`, and the time they lost, nanoseconds (saturating
    /// at `Int64.max`: a log of concatenated recordings decades apart loses more than that).
    public let compressedGapCount: Int
    public let removedNanoseconds: Int64
    public let maximumGapNanoseconds: Int64

    /// Cuts `log` into epochs.
    public init(log: UnsafeRawBufferPointer, maximumGapNanoseconds: Int64) {
        self.maximumGapNanoseconds = maximumGapNanoseconds
        var configuration = EpochAssembler.Configuration()
        configuration.closesAtCycleEnder = false
        var pipeline = NMEAPipeline(configuration: configuration)
        var starts: [Int] = []
        var fixes: [Fix] = []
        var lineStart = 0
        var index = 0
        while index < log.count {
            if log[index] == UInt8(ascii: "\n") || index == log.count - 1 {
                var completed: Fix?
                pipeline.feed(UnsafeRawBufferPointer(rebasing: log[lineStart...index])) { fix in completed = copy fix }
                if let completed {
                    fixes.append(completed)
                    starts.append(lineStart)           // a new epoch begins with this line
                }
                lineStart = index + 1
            }
            index += 1
        }
        var last: Fix?
        pipeline.finish { fix in last = copy fix }
        if let last { fixes.append(last) }
        // starts[k] begins epoch k+1; epoch 0 begins at byte 0. fixes[k] is epoch k's fix.
        var bounds = [0] + starts
        if bounds.count > fixes.count { bounds.removeLast(bounds.count - fixes.count) }
        var steps: [Int64] = []
        var k = 1
        while k < fixes.count {
            let step = EpochAssembler.interval(from: fixes[k - 1], to: fixes[k])
            if step > 0 { steps.append(step) }
            k += 1
        }
        let typical = steps.isEmpty ? 1_000_000_000 : min(steps.sorted()[steps.count / 2], maximumGapNanoseconds)
        typicalStepNanoseconds = typical
        var epochs: [Epoch] = []
        var keyframes: [Keyframe] = []
        var offset: Int64 = 0
        var compressed = 0
        var removed: Int64 = 0
        for i in 0..<bounds.count {
            if i > 0 {
                var step = EpochAssembler.interval(from: fixes[i - 1], to: fixes[i])
                if step <= 0 { step = typical }
                if step > maximumGapNanoseconds {
                    compressed += 1
                    // One step fits Int64 (fix times are 1970…2262), a sum of many need not: saturate.
                    let (sum, overflow) = removed.addingReportingOverflow(step - maximumGapNanoseconds)
                    removed = overflow ? Int64.max : sum
                    step = maximumGapNanoseconds
                }
                // Each step is at most maximumGap (≤ 60 s from the key table) and a ≤ 256 MiB log has
                // fewer than 2e7 epochs: the offset stays below 1.2e18 ns.
                offset += step
            }
            let end = i + 1 < bounds.count ? bounds[i + 1] : log.count
            epochs.append(Epoch(start: bounds[i], end: end, offsetNanoseconds: offset))
            let fix = fixes[i]
            let speed = fix.speedMetersPerSecond ?? 0
            let course = speed >= Self.courseMinimumSpeedMetersPerSecond && fix.mode != .noFix ? fix.courseDegrees : nil
            keyframes.append(Keyframe(offsetNanoseconds: offset, courseDegrees: course,
                                      speedMetersPerSecond: fix.mode == .noFix ? 0 : speed,
                                      latitudeDegrees: fix.hasPosition ? fix.latitudeDegrees : nil,
                                      longitudeDegrees: fix.hasPosition ? fix.longitudeDegrees : nil,
                                      altitudeMeters: fix.altitudeMSLMeters, utcNanoseconds: fix.utcNanoseconds))
        }
        self.epochs = epochs
        self.keyframes = keyframes
        lapNanoseconds = offset + max(typical, 1_000_000_000)
        compressedGapCount = compressed
        removedNanoseconds = removed
    }

    /// The first keyframe with a position (for the magnetic field), if any.
    public var firstPosition: Keyframe? { keyframes.first { $0.latitudeDegrees != nil } }
}
