import State
import SystemCalls

/// An uplink's cursor on disk (`DIRECTORY/NAME.cursor`, docs/uplink.md §5): 24 bytes — "PKUC", version 1,
/// reserved, the cursor (u64 LE), a CRC-32 of the first 16 bytes, padding — written atomically like the
/// state file (temporary file, fsync, rename, directory fsync), so after a power cut it is the old or
/// the new cursor, never a mix. Saved at most every `intervalNanoseconds` and at shutdown: a crash re-sends
/// at most that much (duplicates, never a gap). `save` allocates nothing.
public final class UplinkCursorStore {
    public static let byteCount = 24
    public let path: String
    public let intervalNanoseconds: Int64
    public private(set) var savedCursor: UInt64 = 0
    public private(set) var lastError: Errno?
    public private(set) var writes: UInt64 = 0
    private var lastSaveNanoseconds: Int64?
    private let pathC: [CChar], temporaryC: [CChar]
    private let directoryFD: FileDescriptor
    private let buffer: UnsafeMutableRawBufferPointer

    /// What loading found.
    public enum Loaded: Equatable, Sendable {
        /// No file: a new uplink starts at cursor 0 (everything in the journal is sent).
        case none
        case cursor(UInt64)
        /// Damaged (CRC, size, magic): ignored, cursor 0 — everything is sent again (duplicates, no gap).
        case corrupt
    }

    public init(directory: String, name: String, intervalSeconds: Int = 5) throws(Errno) {
        path = directory + "/" + name + ".cursor"
        pathC = Array(path.utf8CString)
        temporaryC = Array((path + ".tmp").utf8CString)
        intervalNanoseconds = Int64(intervalSeconds) * 1_000_000_000
        directoryFD = try FileDescriptor.open(directory, .readOnly, options: [.directory, .closeOnExec])
        buffer = .allocate(byteCount: Self.byteCount, alignment: 8)
    }

    deinit {
        try? directoryFD.close()
        buffer.deallocate()
    }

    /// Reads the file (start-up).
    public func load() -> Loaded {
        let fd: FileDescriptor
        do throws(Errno) { fd = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .nonBlocking]) } catch {
            return error == .noSuchFileOrDirectory ? .none : .corrupt
        }
        defer { try? fd.close() }
        var bytes = [UInt8](repeating: 0, count: Self.byteCount + 1)
        let count: Int? = bytes.withUnsafeMutableBytes { raw in
            do throws(Errno) { return try fd.read(into: raw) } catch { return nil }
        }
        guard count == Self.byteCount, let cursor = Self.decode(bytes) else { return .corrupt }
        savedCursor = cursor
        return .cursor(cursor)
    }

    static func encode(_ cursor: UInt64, into raw: UnsafeMutableRawBufferPointer) {
        for k in 0..<Self.byteCount { raw[k] = 0 }
        raw[0] = 0x50; raw[1] = 0x4B; raw[2] = 0x55; raw[3] = 0x43   // "PKUC"
        raw[4] = 1
        for k in 0..<8 { raw[8 + k] = UInt8(truncatingIfNeeded: cursor >> (8 * UInt64(k))) }
        let crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(raw)[0..<16]))
        for k in 0..<4 { raw[16 + k] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k))) }
    }

    static func decode(_ bytes: [UInt8]) -> UInt64? {
        guard bytes.count >= Self.byteCount, bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 0x55, bytes[3] == 0x43, bytes[4] == 1
        else { return nil }
        let crc = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<16])) }
        var stored: UInt32 = 0
        for k in 0..<4 { stored |= UInt32(bytes[16 + k]) << (8 * UInt32(k)) }
        guard stored == crc else { return nil }
        var cursor: UInt64 = 0
        for k in 0..<8 { cursor |= UInt64(bytes[8 + k]) << (8 * UInt64(k)) }
        return cursor
    }

    /// Saves `cursor` when it changed and the interval passed (or `force`, at shutdown). Returns the
    /// error of a failed write (said once by the caller; the next save tries again).
    @discardableResult
    public func save(_ cursor: UInt64, nowNanoseconds now: Int64, force: Bool = false) -> Errno? {
        guard cursor != savedCursor else { return nil }
        if !force, let last = lastSaveNanoseconds, now - last < intervalNanoseconds { return nil }
        lastSaveNanoseconds = now
        Self.encode(cursor, into: buffer)
        do throws(Errno) {
            try write(UnsafeRawBufferPointer(buffer))
            savedCursor = cursor
            writes += 1
            lastError = nil
            return nil
        } catch {
            lastError = error
            return error
        }
    }

    /// When a changed cursor is due to be written (the caller's deadline), nil when nothing waits.
    public func deadlineNanoseconds(cursor: UInt64) -> Int64? {
        guard cursor != savedCursor else { return nil }
        return (lastSaveNanoseconds ?? 0) + intervalNanoseconds
    }

    private static let temporaryOptions: FileDescriptor.OpenOptions = [.create, .truncate, .closeOnExec]

    private func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        try temporaryC.withUnsafeBufferPointer { (temporary) throws(Errno) in
            try pathC.withUnsafeBufferPointer { (target) throws(Errno) in
                let fd = try FileDescriptor.open(temporary.baseAddress!, .writeOnly, options: Self.temporaryOptions, permissions: 0o644)
                do throws(Errno) {
                    try fd.writeAll(bytes)
                    try fd.sync()
                } catch {
                    try? fd.close()
                    try? FileSystem.unlink(temporary.baseAddress!)
                    throw error
                }
                try? fd.close()
                try FileSystem.rename(temporary.baseAddress!, to: target.baseAddress!)
            }
        }
        try? directoryFD.sync()
    }
}
