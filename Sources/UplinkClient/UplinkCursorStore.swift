import State
import Synchronization
import SystemCalls

/// An uplink's cursor on disk (`DIRECTORY/NAME.cursor`, docs/uplink.md §5): 24 bytes — "PKUC", version 1,
/// reserved, the cursor (u64 LE), a CRC-32 of the first 16 bytes, padding — written atomically like the
/// state file (temporary file, fsync, rename, directory fsync), so after a power cut it is the old or
/// the new cursor, never a mix. The write runs on the store's own worker thread (docs/track-log.md §4,
/// "off the loop"): `save` only hands the cursor over (a UInt64 under a mutex the worker never holds
/// across a syscall), so a stalled disk never stalls the loop. Saved at most every `intervalNanoseconds`
/// and at shutdown: a crash re-sends at most that much (duplicates, never a gap). `save` allocates nothing.
public final class UplinkCursorStore: @unchecked Sendable {
    public static let byteCount = 24
    public let path: String
    public let intervalNanoseconds: Int64
    /// The cursor last handed to the worker (the loop's view: written or about to be).
    public private(set) var handedCursor: UInt64 = 0
    /// The cursor last made durable on disk (set by the worker).
    public var savedCursor: UInt64 { durableCursor.load(ordering: .acquiring) }
    /// The error of the last write (nil: it worked), as the loop last took it.
    public private(set) var lastError: Errno?
    /// Writes done (the worker's count).
    public var writes: UInt64 { writeCount.load(ordering: .acquiring) }
    /// Hand-overs that replaced a cursor the worker had not started writing (the disk was slower than the interval).
    public var coalesced: UInt64 { coalescedCount.load(ordering: .relaxed) }
    /// True when the write runs on its own thread (false: the thread could not be made; `save` writes itself).
    public var isThreaded: Bool { thread != nil }
    private var lastSaveNanoseconds: Int64?
    private let pathC: [CChar], temporaryC: [CChar]
    private let directoryFD: FileDescriptor
    private let buffer: UnsafeMutableRawBufferPointer
    /// Runs on the worker before each write (tests: a disk that stalls); nil in the device.
    private let beforeWrite: (@Sendable () -> Void)?

    // The hand-over, under `lock`: the newest cursor not yet taken by the worker, and the worker's state.
    private let lock = ThreadLock(conditionCount: 2)
    private static let wake = 0, idle = 1
    private var pending: UInt64 = 0
    private var hasPending = false
    private var writing = false
    private var stopping = false
    private var thread: WorkerThread?
    private let durableCursor = Atomic<UInt64>(0)
    private let writeCount = Atomic<UInt64>(0)
    private let coalescedCount = Atomic<UInt64>(0)
    /// The errno of the last failed write (0: the last write worked).
    private let writeError = Atomic<Int32>(0)

    /// What loading found.
    public enum Loaded: Equatable, Sendable {
        /// No file: a new uplink starts at cursor 0 (everything in the journal is sent).
        case none
        case cursor(UInt64)
        /// Damaged (CRC, size, magic): ignored, cursor 0 — everything is sent again (duplicates, no gap).
        case corrupt
    }

    /// Opens the directory and starts the worker (start-up). `beforeWrite`: a test's stalling disk.
    public init(directory: String, name: String, intervalSeconds: Int = 5,
                beforeWrite: (@Sendable () -> Void)? = nil) throws(Errno) {
        path = directory + "/" + name + ".cursor"
        pathC = Array(path.utf8CString)
        temporaryC = Array((path + ".tmp").utf8CString)
        intervalNanoseconds = Int64(intervalSeconds) * 1_000_000_000
        directoryFD = try FileDescriptor.open(directory, .readOnly, options: [.directory, .closeOnExec])
        buffer = .allocate(byteCount: Self.byteCount, alignment: 8)
        self.beforeWrite = beforeWrite
        let context = Unmanaged.passUnretained(self).toOpaque()
        thread = try? WorkerThread.start(stackBytes: 64 << 10, context: context) { context in
            Unmanaged<UplinkCursorStore>.fromOpaque(context!).takeUnretainedValue().serve()
            return nil
        }
    }

    deinit {
        if let thread {
            lock.lock()
            stopping = true
            lock.signal(condition: Self.wake)
            lock.unlock()
            thread.join()
        }
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
        handedCursor = cursor
        durableCursor.store(cursor, ordering: .releasing)
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

    /// Hands `cursor` to the worker when it changed and the interval passed (the loop: never waits for
    /// the disk), or with `force` (shutdown) writes it and waits until it is on disk. Returns the error
    /// of the last finished write (said once by the caller; a later save tries again).
    @discardableResult
    public func save(_ cursor: UInt64, nowNanoseconds now: Int64, force: Bool = false) -> Errno? {
        if cursor != handedCursor && (force || lastSaveNanoseconds.map { now - $0 >= intervalNanoseconds } ?? true) {
            lastSaveNanoseconds = now
            handedCursor = cursor
            hand(cursor)
        }
        if force { waitUntilWritten() }
        let code = writeError.load(ordering: .acquiring)
        lastError = code == 0 ? nil : Errno(rawValue: code)
        return lastError
    }

    /// When a changed cursor is due to be handed over (the caller's deadline), nil when nothing waits.
    public func deadlineNanoseconds(cursor: UInt64) -> Int64? {
        guard cursor != handedCursor else { return nil }
        return (lastSaveNanoseconds ?? 0) + intervalNanoseconds
    }

    /// Blocks until every handed cursor is written (shutdown and tests; never the loop's wake-ups).
    public func waitUntilWritten() {
        guard thread != nil else { return }
        lock.lock()
        while hasPending || writing { lock.wait(onCondition: Self.idle) }
        lock.unlock()
    }

    private func hand(_ cursor: UInt64) {
        guard thread != nil else {
            write(cursor)
            return
        }
        lock.lock()
        if hasPending { coalescedCount.add(1, ordering: .relaxed) }
        pending = cursor
        hasPending = true
        lock.signal(condition: Self.wake)
        lock.unlock()
    }

    /// The worker: takes the newest handed cursor and writes it outside the lock.
    private func serve() {
        while true {
            lock.lock()
            while !hasPending && !stopping { lock.wait(onCondition: Self.wake) }
            if !hasPending && stopping {
                lock.unlock()
                return
            }
            let cursor = pending
            hasPending = false
            writing = true
            lock.unlock()
            beforeWrite?()
            write(cursor)
            lock.lock()
            writing = false
            lock.signal(condition: Self.idle)
            lock.unlock()
        }
    }

    private static let temporaryOptions: FileDescriptor.OpenOptions = [.create, .truncate, .closeOnExec]

    /// The atomic write (worker thread): temporary file, fsync, rename, directory fsync.
    private func write(_ cursor: UInt64) {
        Self.encode(cursor, into: buffer)
        do throws(Errno) {
            try writeFile(UnsafeRawBufferPointer(buffer))
            durableCursor.store(cursor, ordering: .releasing)
            writeError.store(0, ordering: .releasing)
        } catch {
            writeError.store(error.rawValue, ordering: .releasing)
        }
        writeCount.add(1, ordering: .releasing)
    }

    private func writeFile(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
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
