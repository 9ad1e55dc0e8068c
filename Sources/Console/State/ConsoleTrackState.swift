/// The track journal as the console's `track` view shows it (filled by the device's track recorder
/// before each reply; fixed size, no allocation). Sequences and times are nil when there is none.
public struct ConsoleTrackState: Sendable {
    /// False when `[track] enabled = false` (the view says so and shows nothing else).
    public var isEnabled = false
    /// The journal's directory.
    public var directory = ConsoleText()
    public var segments = 0
    /// Bytes of the journal (records, headers and raw NMEA).
    public var bytes: Int64 = 0
    /// Records in the journal (by sequence, from the oldest segment's first to the last appended).
    public var records: Int64 = 0
    /// UTC day of the oldest segment (nanoseconds of its midnight) and UTC of the newest record appended.
    public var oldestDayUTCNanoseconds: Int64?
    public var newestUTCNanoseconds: Int64?
    /// The sequence of the last record appended and of the last one known durable (fdatasync'ed).
    public var lastSequence: UInt64?
    public var durableSequence: UInt64?
    /// Records waiting in memory for the next flush, and fixes lost because the buffer was full.
    public var pendingRecords = 0
    public var lostRecords: UInt64 = 0
    /// Oldest segments dropped for the size cap (and the records they held).
    public var droppedSegments: UInt64 = 0
    public var droppedRecords: UInt64 = 0
    /// Monotonic time of the last flush, nanoseconds.
    public var lastFlushNanoseconds: Int64?
    /// The disk fault now, in words (empty: writes work).
    public var lastError = ConsoleText()

    public init() {}
}
