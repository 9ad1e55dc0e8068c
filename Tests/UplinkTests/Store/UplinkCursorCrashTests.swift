import Glibc
import Testing
import TestSupport
@testable import UplinkClient

/// The cursor file survives SIGKILL at any instant (docs/uplink.md §5, "The cursor file after a crash"):
/// in each of 300 rounds a forked child, like a restarted puckd, starts from the cursor on disk, and a
/// consumer acknowledges record after record as fast as it can; before each hand-over to the store's
/// worker the child announces the acknowledged cursor on a pipe. The child is killed at a different
/// moment in each round. After every kill the file is exactly 24 bytes that decode (never torn), its
/// cursor is the one of the round before or one the child announced in this round (old or new), and
/// never beyond the last acknowledged one.
@Suite(.serialized) struct UplinkCursorCrashTests {
    @Test func killedWithSIGKILLWhileTheCursorAdvancesTheFileIsTheOldOrANewAcknowledgedCursor() throws {
        let directory = Fixtures.temporaryDirectory(prefix: "puckd-cursor-crash")
        defer { _ = runProcess(["rm", "-rf", directory]) }
        let path = directory + "/mqtt.cursor"
        do {
            let first = try UplinkCursorStore(directory: directory, name: "mqtt", intervalSeconds: 0)
            _ = first.save(1, nowNanoseconds: 0, force: true)   // the worker's paths warmed up before forking
        }
        var cursor: UInt64 = 1   // on disk after the last round
        var random = SeededRandom(seed: 13)
        var killed = 0, stayed = 0, advanced = 0, temporaryLeft = 0, announcedTotal = 0
        let rounds = 300
        for round in 0..<rounds {
            var pipeEnds: [Int32] = [0, 0]
            #expect(pipe(&pipeEnds) == 0)
            let start = cursor
            let pid = fork()
            if pid == 0 {
                close(pipeEnds[0])
                // The child: a restarted puckd with its store (and worker thread), acknowledging onwards.
                guard let store = try? UplinkCursorStore(directory: directory, name: "mqtt", intervalSeconds: 0) else { _exit(3) }
                guard store.load() == .cursor(start) else { _exit(4) }
                var acknowledged = start
                var now: Int64 = 1
                while true {
                    acknowledged += 1
                    var announced = acknowledged
                    // Announced before the hand-over: the parent knows every cursor the file may hold.
                    guard write(pipeEnds[1], &announced, 8) == 8 else { _exit(5) }
                    _ = store.save(acknowledged, nowNanoseconds: now)
                    now += 1
                    if acknowledged & 7 == 0 { store.waitUntilWritten() }   // some rounds' kills land mid-write
                }
            }
            #expect(pid > 0)
            close(pipeEnds[1])
            // A different moment in each round: 50 µs … 8 ms after the fork (the store's start-up included).
            usleep(UInt32(50 + random.below(8000)))
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            if status & 0x7f == SIGKILL { killed += 1 } else { Issue.record("round \(round): the child ended with status \(status)") }
            // Every cursor announced in this round (the pipe holds them; the child is gone).
            var announced: Set<UInt64> = []
            var value: UInt64 = 0
            while read(pipeEnds[0], &value, 8) == 8 { announced.insert(value) }
            close(pipeEnds[0])
            announcedTotal += announced.count
            let bytes = Fixtures.readFile(path) ?? []
            guard bytes.count == UplinkCursorStore.byteCount, let onDisk = UplinkCursorStore.decode(bytes) else {
                Issue.record("round \(round): the cursor file is torn or missing (\(bytes.count) bytes)")
                break
            }
            #expect(onDisk == start || announced.contains(onDisk),
                    "round \(round): \(onDisk) is neither the old cursor \(start) nor one acknowledged in this round")
            #expect(onDisk <= (announced.max() ?? start), "round \(round): the cursor is ahead of every acknowledgement")
            if onDisk == start { stayed += 1 } else { advanced += 1 }
            if access(path + ".tmp", F_OK) == 0 { temporaryLeft += 1 }
            // What the next start reads: the same cursor.
            #expect(try UplinkCursorStore(directory: directory, name: "mqtt").load() == .cursor(onDisk))
            cursor = onDisk
        }
        #expect(killed == rounds)
        #expect(advanced > rounds / 2, "most rounds moved the cursor: \(advanced) moved, \(stayed) stayed")
        print("cursor kill -9 test: \(rounds) rounds, \(advanced) advanced, \(stayed) kept the old cursor, "
            + "\(temporaryLeft) left a mqtt.cursor.tmp, \(announcedTotal) acknowledgements announced, final cursor \(cursor)")
    }
}
