import SystemCalls

/// How the track journal is written: where, how often it is made durable, how large it may grow, and
/// whether the raw NMEA is kept beside the records (from `[track]`, docs/track-log.md §3).
public struct TrackLogSettings: Sendable, Equatable {
    /// The journal's directory (absolute).
    public var directory: String
    /// Buffered records are written and fsync'ed this often (a power cut loses at most this much).
    public var flushIntervalNanoseconds: Int64
    /// The whole journal (records and raw NMEA); the oldest segments are dropped beyond it.
    public var maximumBytes: Int64
    /// A segment is closed and a new one begun beyond this size (and at each new UTC day).
    public var segmentBytes: Int64
    /// Keep the raw NMEA as received in a `.nmea` file beside each segment.
    public var rawNMEA: Bool
    /// Records the buffer holds between flushes (at 25 Hz, 512 records are 20 s).
    public var bufferRecords: Int
    /// Raw NMEA bytes the buffer holds between flushes.
    public var rawBufferBytes: Int

    public init(directory: String, flushIntervalSeconds: Double = 5, maximumMegabytes: Double = 64,
                rawNMEA: Bool = false, bufferRecords: Int = 512, rawBufferBytes: Int = 1 << 16) {
        self.directory = directory
        flushIntervalNanoseconds = Int64((flushIntervalSeconds * 1e9).rounded())
        maximumBytes = Int64(maximumMegabytes * 1_048_576)
        // Eight segments or more under the cap, each between 64 KiB and 4 MiB.
        segmentBytes = min(4 << 20, max(64 << 10, maximumBytes / 8))
        self.rawNMEA = rawNMEA
        self.bufferRecords = max(1, bufferRecords)
        self.rawBufferBytes = max(1024, rawBufferBytes)
    }
}

/// What went wrong with the journal's disk: the error and the step. The loop goes on; records wait in
/// the buffer (and are counted as lost when it is full) until a flush succeeds again.
public struct TrackLogFault: Sendable, Equatable {
    /// The disk operation that failed.
    public enum Step: UInt8, Sendable, Equatable { case createDirectory, createSegment, write, sync }
    public var step: Step
    public var error: Errno

    /// One sentence for the log: what failed and what to do.
    public func message(directory: String) -> String {
        let reason: String
        switch error {
        case .noSpace: reason = "the disk is full (ENOSPC): free space or lower [track] max_size_mb"
        case .readOnlyFileSystem:
            reason = "the file system is read-only (EROFS): remount it read-write or set [track] directory elsewhere"
        case .permissionDenied, .notPermitted: reason = "permission denied: make " + directory + " writable for puckd's user"
        case .noSuchFileOrDirectory: reason = "the directory is missing (ENOENT): create it or restart puckd"
        default: reason = error.description + ": check the disk (dmesg)"
        }
        let what: String
        switch step {
        case .createDirectory: what = "cannot create the track directory " + directory
        case .createSegment: what = "cannot create a track segment in " + directory
        case .write: what = "cannot write the track log in " + directory
        case .sync: what = "cannot flush the track log to disk in " + directory
        }
        return what + ": " + reason + "; tracking goes on and fixes are kept in memory until the buffer is full"
    }
}

/// The journal's counters (console `stats`, `status`).
public struct TrackLogCounters: Sendable, Equatable {
    /// Records accepted into the buffer (each got a sequence number).
    public var recordsAppended: UInt64 = 0
    /// Records written and flushed to disk.
    public var recordsWritten: UInt64 = 0
    /// Fixes not recorded because the buffer was full while the disk failed.
    public var recordsLost: UInt64 = 0
    /// Epochs without a position (nothing to record).
    public var epochsWithoutPosition: UInt64 = 0
    public var flushes: UInt64 = 0
    public var failedFlushes: UInt64 = 0
    public var segmentsCreated: UInt64 = 0
    /// Oldest segments removed to keep the journal under its size cap, and the records they held.
    public var segmentsDropped: UInt64 = 0
    public var recordsDropped: UInt64 = 0
    public var rawBytesWritten: UInt64 = 0
    public var rawBytesLost: UInt64 = 0
    /// Flushes that kept their records buffered instead of rotating, because the file system had no room
    /// to take a rotation's requests without waiting (a stalled flusher, docs/track-log.md §4).
    public var rotationsDeferred: UInt64 = 0
    public init() {}
}
