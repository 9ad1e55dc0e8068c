import SystemCalls
import Glibc
import Hardware

/// The current CLOCK_MONOTONIC time in nanoseconds.
func monotonicNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// What a pump collected: bytes in order, and each error with the time passed to the failing read.
struct Collected {
    var bytes: [UInt8] = []
    var errors: [(error: SourceError, nowNanoseconds: Int64, statusAfter: SourceStatus)] = []
    var reads = 0
}

/// A stand-in for the device loop: poll() on what the source asks for (its descriptor, its
/// deadline), read with the monotonic time, collect. Between rounds `feed` runs (it may write
/// more input; returning true means it has more to write, so poll only briefly).
/// Stops when `done` says so or after `timeoutSeconds` (a generous bound, never a pacing device).
@discardableResult
func pump<Source: ByteSource & ~Copyable>(_ source: inout Source, timeoutSeconds: Double = 20,
                                          feed: () -> Bool = { false },
                                          until done: (Collected, SourceStatus) -> Bool) -> Collected {
    var collected = Collected()
    var buffer = [UInt8](repeating: 0, count: 1024)
    let end = monotonicNanoseconds() + Int64(timeoutSeconds * 1e9)
    while true {
        let pending = feed()
        let now = monotonicNanoseconds()
        do throws(SourceError) {
            let n = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SourceError) -> Int in try source.read(into: raw, nowNanoseconds: now) }
            }.get()
            collected.reads += 1
            collected.bytes.append(contentsOf: buffer[0..<n])
        } catch {
            collected.errors.append((error, now, source.status))
        }
        if done(collected, source.status) || now >= end { return collected }
        let request = source.pollRequest
        var timeout = min(request.deadlineNanoseconds, end)
        if pending { timeout = min(timeout, now + 2_000_000) }
        let milliseconds = Int32(clamping: max(0, (timeout - monotonicNanoseconds() + 999_999) / 1_000_000))
        var entry = pollfd(fd: request.fileDescriptor?.rawValue ?? -1, events: request.events.rawValue, revents: 0)
        _ = poll(&entry, 1, milliseconds)
    }
}

/// The lines of `bytes` (split at LF, CR removed, empty lines dropped), as strings.
func lines(_ bytes: [UInt8]) -> [String] {
    bytes.split(separator: UInt8(ascii: "\n")).map { line in
        String(decoding: line.filter { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    }.filter { !$0.isEmpty }
}

/// True when `line` is `$…*HH` (or `!…*HH`) with a correct NMEA checksum.
func hasValidChecksum(_ line: String) -> Bool {
    let bytes = Array(line.utf8)
    guard bytes.count >= 4, bytes[0] == UInt8(ascii: "$") || bytes[0] == UInt8(ascii: "!"),
          let star = bytes.lastIndex(of: UInt8(ascii: "*")), star == bytes.count - 3 else { return false }
    var sum: UInt8 = 0
    for byte in bytes[1..<star] { sum ^= byte }
    guard let given = UInt8(String(decoding: bytes[(star + 1)...], as: UTF8.self), radix: 16) else { return false }
    return given == sum
}

/// A `$GPTXT` sentence with a correct checksum carrying `text` (markers in the gpsd test).
func textSentence(_ text: String) -> [UInt8] {
    let body = Array("GPTXT,01,01,02,\(text)".utf8)
    var sum: UInt8 = 0
    for byte in body { sum ^= byte }
    let hex = Array("0123456789ABCDEF".utf8)
    return [UInt8(ascii: "$")] + body + [UInt8(ascii: "*"), hex[Int(sum >> 4)], hex[Int(sum & 15)], 13, 10]
}
