import Glibc

/// What arrived at the consumer: `mosquitto_sub -v` prints one line per message,
/// `puckd/fleetNNNNN/position {"seq":S,…}`; this reads its output file as it grows and checks every
/// tracker's sequence numbers (docs/uplink.md §3: `seq` increases by 1): arrivals, gaps, duplicates.
/// `puckd/peer/position` lines (the mosquitto_pub peer) are counted and checked apart.
final class FleetSubscriberCount {
    private let fd: Int32
    private var partial: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    /// Per tracker, the next `seq` expected (sequences start at 1).
    private(set) var expectedNext: [UInt64]
    private(set) var peerExpectedNext: UInt64 = 1
    private(set) var arrived = 0
    private(set) var peerArrived = 0
    /// Sequences skipped (a gap) and sequences seen again (a duplicate, at or below one seen).
    private(set) var gaps: UInt64 = 0
    private(set) var duplicates: UInt64 = 0
    /// Lines that are neither (the start-up probe).
    private(set) var otherLines = 0
    private(set) var lastArrivalNanoseconds: Int64 = 0
    /// This thread's CPU time spent reading and parsing here (subtracted from the harness's figure).
    private(set) var parseCPUNanoseconds: Int64 = 0

    init?(path: String, trackers: Int) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        expectedNext = [UInt64](repeating: 1, count: trackers)
    }

    deinit { close(fd) }

    /// Reads what mosquitto_sub wrote since the last call.
    func drain() {
        let cpu0 = threadCPUNanoseconds()
        defer { parseCPUNanoseconds += threadCPUNanoseconds() - cpu0 }
        var gotAny = false
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            gotAny = true
            var start = 0
            for i in 0..<n where chunk[i] == 0x0A {
                if partial.isEmpty {
                    line(chunk[start..<i])
                } else {
                    partial.append(contentsOf: chunk[start..<i])
                    line(partial[...])
                    partial.removeAll(keepingCapacity: true)
                }
                start = i + 1
            }
            if start < n { partial.append(contentsOf: chunk[start..<n]) }
        }
        if gotAny { lastArrivalNanoseconds = monotonicNanoseconds() }
    }

    private static let prefix = Array("puckd/".utf8)
    private static let fleet = Array("fleet".utf8)
    private static let peer = Array("peer/position ".utf8)
    private static let seq = Array("/position {\"seq\":".utf8)

    private func line<C: RandomAccessCollection>(_ bytes: C) where C.Element == UInt8, C.Index == Int {
        var i = bytes.startIndex
        func match(_ text: [UInt8]) -> Bool {
            guard bytes.endIndex - i >= text.count else { return false }
            for k in 0..<text.count where bytes[i + k] != text[k] { return false }
            i += text.count
            return true
        }
        func number() -> UInt64? {
            var value: UInt64 = 0, digits = 0
            while i < bytes.endIndex, bytes[i] >= 0x30, bytes[i] <= 0x39 { value = value * 10 + UInt64(bytes[i] - 0x30); i += 1; digits += 1 }
            return digits > 0 ? value : nil
        }
        guard match(Self.prefix) else { otherLines += 1; return }
        if match(Self.peer) {
            guard match(Array("{\"seq\":".utf8)), let s = number() else { otherLines += 1; return }
            peerArrived += 1
            check(s, &peerExpectedNext)
            return
        }
        guard match(Self.fleet), let tracker = number(), Int(tracker) < expectedNext.count, match(Self.seq), let s = number()
        else { otherLines += 1; return }
        arrived += 1
        check(s, &expectedNext[Int(tracker)])
    }

    private func check(_ s: UInt64, _ next: inout UInt64) {
        if s == next { next += 1 } else if s > next { gaps += s - next; next = s + 1 } else { duplicates += 1 }
    }

    /// Trackers whose last sequence is not `last` (something missing at the end).
    func trackersShort(of last: UInt64) -> Int { expectedNext.reduce(0) { $0 + ($1 == last + 1 ? 0 : 1) } }
}
