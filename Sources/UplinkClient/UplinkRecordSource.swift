import TrackLog

/// Where an uplink reads the records it sends: the journal on the device (by sequence number), an
/// array in tests. `record(sequence:)` must not allocate.
public protocol UplinkRecordSource {
    /// The record with this sequence number; nil when the journal no longer has it (dropped by the cap).
    mutating func record(sequence: UInt64) -> TrackRecord?
}

/// Records held in memory (tests, `puckd` tools replaying a journal read at start-up).
public struct ArrayRecordSource: UplinkRecordSource {
    public var records: [TrackRecord]
    public init(_ records: [TrackRecord]) { self.records = records }

    public mutating func record(sequence: UInt64) -> TrackRecord? {
        guard let first = records.first, sequence >= first.sequence else { return nil }
        let index = Int(sequence - first.sequence)
        return index < records.count ? records[index] : nil
    }
}
