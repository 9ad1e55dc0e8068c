import NMEA

/// Runs arbitrary bytes through framer, parser and assembler and checks the invariants that must hold
/// for any input: counters add up, every fix is within physical ranges. Used by the seeded fuzz test
/// (NMEATests) and `make fuzz` (Fuzz/Targets/nmea.swift), never linked into puckd. Allocation-free.
public enum NMEAFuzzHarness {
    /// The outcome of one run.
    public struct Report: Sendable, Equatable {
        /// Fixes emitted.
        public var fixes = 0
        /// Sentences delivered by the framer.
        public var sentences = 0
        /// Fixes with a 2D/3D position.
        public var positionFixes = 0
        /// The first invariant found violated, or nil when all held.
        public var violation: StaticString?

        public init() {}

        public static func == (a: Report, b: Report) -> Bool {
            a.fixes == b.fixes && a.sentences == b.sentences && a.positionFixes == b.positionFixes
                && (a.violation == nil) == (b.violation == nil)
        }
    }

    /// Feeds `bytes` in chunks of `chunkSize` bytes (≥ 1), finishes the stream, and checks invariants.
    public static func feed(_ bytes: UnsafeRawBufferPointer, chunkSize: Int = 4096, strict: Bool = false) -> Report {
        var report = Report()
        var pipeline = NMEAPipeline(strict: strict)
        let step = max(1, chunkSize)
        var offset = 0
        while offset < bytes.count {
            let n = min(step, bytes.count - offset)
            pipeline.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])) { fix in
                check(fix, &report)
            }
            offset += n
        }
        pipeline.finish { fix in check(fix, &report) }

        let f = pipeline.framer.counters
        report.sentences = f.sentencesDelivered
        if report.violation == nil {
            if f.sentencesStarted != f.sentencesDelivered + f.droppedSentences {
                report.violation = "framer: started sentences != delivered + dropped"
            } else if f.bytes != bytes.count {
                report.violation = "framer: byte count differs from input"
            } else if f.bytes != f.garbageBytes + f.terminatorBytes + f.deliveredBytes + f.droppedBytes {
                report.violation = "framer: bytes != garbage + terminators + delivered + dropped"
            } else if f.uncheckedSentences > f.sentencesDelivered || (strict && f.uncheckedSentences != 0) {
                report.violation = "framer: unchecked sentence count inconsistent"
            } else if pipeline.statistics.total != f.sentencesDelivered {
                report.violation = "parser: counted sentences != delivered sentences"
            } else if pipeline.assembler.counters.epochs != report.fixes {
                report.violation = "assembler: epoch count != fixes emitted"
            } else if pipeline.assembler.counters.epochsWithFix != report.positionFixes {
                report.violation = "assembler: epochs with fix != fixes with a position"
            }
        }
        return report
    }

    private static func check(_ fix: borrowing Fix, _ report: inout Report) {
        report.fixes += 1
        if fix.mode != .noFix { report.positionFixes += 1 }
        if report.violation == nil, let problem = rangeViolation(copy fix) { report.violation = problem }
    }

    /// What is out of range in `fix`, or nil when every field is plausible and consistent.
    public static func rangeViolation(_ fix: Fix) -> StaticString? {
        let day: Int64 = 86_400_000_000_000
        guard fix.timeOfDayNanoseconds >= 0, fix.timeOfDayNanoseconds < day + 1_000_000_000 else {
            return "time of day outside 0..<86401 s"
        }
        guard fix.isLeapSecond == (fix.timeOfDayNanoseconds >= day) else { return "leap-second flag inconsistent" }
        if let utc = fix.utcNanoseconds {
            guard (utc - fix.timeOfDayNanoseconds) % day == 0 else { return "UTC does not match time of day" }
            let days = (utc - fix.timeOfDayNanoseconds) / day
            // UTCDateResolver's range: a recording may carry a 2200 ZDA date on across midnights, or
            // resolve a later date against it (found by `make fuzz`, nmea target), but never leaves it.
            guard days >= 0, days < UTCDateResolver.latestDays else { return "UTC date outside 1970...2261" }
        }
        if fix.mode == .noFix {
            guard fix.latitudeDegrees == nil, fix.longitudeDegrees == nil, fix.speedMetersPerSecond == nil,
                  fix.courseDegrees == nil, fix.altitudeMSLMeters == nil, !fix.hasPosition,
                  fix.quality == .invalid else { return "no-fix epoch carries position data" }
        } else {
            guard let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees, fix.hasPosition else {
                return "fix without latitude/longitude"
            }
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { return "latitude/longitude out of range" }
            guard fix.quality != .invalid else { return "fix with quality invalid" }
        }
        if let v = fix.altitudeMSLMeters, !(v.isFinite && Limits.altitudeMeters.contains(v)) { return "altitude out of range" }
        if let v = fix.geoidSeparationMeters, !(v.isFinite && abs(v) <= 250) { return "geoid separation out of range" }
        if let v = fix.speedMetersPerSecond, !(v.isFinite && v >= 0 && v <= 10_000) { return "speed out of range" }
        if let v = fix.courseDegrees, !(v.isFinite && v >= 0 && v < 360) { return "course out of range" }
        if let v = fix.trueHeadingDegrees, !(v.isFinite && v >= 0 && v < 360) { return "heading out of range" }
        if let v = fix.magneticVariationDegrees, !(v.isFinite && abs(v) <= 180) { return "magnetic variation out of range" }
        if !within(fix.hdop, 0, 100) || !within(fix.vdop, 0, 100) || !within(fix.pdop, 0, 100) {
            return "DOP out of range"
        }
        if !within(fix.horizontalAccuracyMeters, 0, .greatestFiniteMagnitude)
            || !within(fix.verticalAccuracyMeters, 0, .greatestFiniteMagnitude) {
            return "accuracy negative or not finite"
        }
        // A source says where either estimate came from: a 3D epoch with VDOP but no HDOP has only a
        // vertical one (found by `make fuzz`, nmea target).
        let hasEstimate = fix.horizontalAccuracyMeters != nil || fix.verticalAccuracyMeters != nil
        if hasEstimate != (fix.accuracySource != .none) { return "accuracy source inconsistent" }
        if let n = fix.satellitesUsed, n < 0 || n > 255 * 8 { return "satellites used out of range" }
        if let n = fix.satellitesInView, n < 0 || n > SkyView.capacity { return "satellites in view out of range" }
        if let v = fix.differentialAgeSeconds, !(v >= 0 && v <= Limits.differentialAgeSeconds) { return "DGPS age out of range" }
        return nil
    }

    /// True when `value` is absent, or finite and within `low...high`.
    private static func within(_ value: Double?, _ low: Double, _ high: Double) -> Bool {
        guard let value else { return true }
        return value.isFinite && value >= low && value <= high
    }
}
