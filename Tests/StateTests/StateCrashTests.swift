import Glibc
import Heading
import SystemCalls
import IMU
import NMEA
@testable import State
import Testing
import TestSupport
import Tracking

/// The state file survives the worst moments: a process killed with SIGKILL in the middle of a save
/// (looped 200 times, the file is always exactly the old or the new record), and every truncation and
/// every damaged byte is detected, moved aside and replaced by the defaults.
@Suite(.serialized) struct StateCrashTests {
    static let a = StateStoreTests.record
    static let b = SampleStateRecords.followWithHeading

    static func encoded(_ record: DeviceStateRecord) -> [UInt8] { SampleStateRecords.encoded(record) }

    @Test func killedWithSIGKILLWhileSavingTheFileIsAlwaysTheOldOrTheNewRecord() throws {
        let scratch = StateStoreTests.Directory()
        let directory = scratch.path
        let store = try StateStore.open(directory: directory).get()
        #expect(store.save(Self.a) == nil)
        #expect(store.save(Self.b) == nil)   // both paths warmed up before forking
        #expect(store.save(Self.a) == nil)
        let bytesA = Self.encoded(Self.a), bytesB = Self.encoded(Self.b)
        var sawA = 0, sawB = 0, sawTemporary = 0, killedBySIGKILL = 0
        let rounds = 200
        for round in 0..<rounds {
            let pid = fork()
            if pid == 0 {
                // The child saves the two records in turn, as fast as it can, until it is killed.
                var k = 0
                while true {
                    _ = store.save(k & 1 == 0 ? Self.b : Self.a)
                    k &+= 1
                }
            }
            #expect(pid > 0)
            // A different moment in each round: 20 µs … 3 ms after the fork.
            usleep(UInt32(20 + (round * 7919) % 3000))
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            if status & 0x7f == SIGKILL { killedBySIGKILL += 1 }
            let bytes = Fixtures.readFile(directory + "/state") ?? []
            if bytes == bytesA { sawA += 1 } else if bytes == bytesB { sawB += 1 } else {
                Issue.record("round \(round): the state file is neither record (\(bytes.count) bytes)")
            }
            if access(directory + "/state.tmp", F_OK) == 0 { sawTemporary += 1 }
            // What the next start finds: one of the two records, and no leftover temporary file.
            let next = try StateStore.open(directory: directory).get()
            let outcome = next.load()
            #expect(outcome == .loaded(Self.a) || outcome == .loaded(Self.b))
            #expect(access(directory + "/state.tmp", F_OK) != 0)
        }
        #expect(killedBySIGKILL == rounds)
        #expect(sawA + sawB == rounds)
        #expect(sawA > 0 && sawB > 0, "the kills landed at different points: \(sawA) old, \(sawB) new")
        #expect(sawTemporary > 0, "some kills landed between creating state.tmp and the rename: \(sawTemporary)")
        print("state kill -9 test: \(rounds) rounds, \(sawA) + \(sawB) whole records, \(sawTemporary) with a state.tmp left")
    }

    @Test func everyTruncationAndEveryDamagedByteIsDetected() throws {
        let scratch = StateStoreTests.Directory()
        let directory = scratch.path
        let bytes = Self.encoded(Self.b)
        for length in 0..<bytes.count {
            Fixtures.writeFile(directory + "/state", Array(bytes[0..<length]))
            let outcome = try StateStore.open(directory: directory).get().load()
            guard case .corrupt(let error, let movedTo) = outcome else {
                Issue.record("a state file cut at \(length) bytes was not detected: \(outcome)")
                continue
            }
            #expect(movedTo == directory + "/state.corrupt")
            #expect(error == (length == 0 ? .empty : .wrongLength(actual: length, expected: DeviceStateRecord.byteCount)))
        }
        #expect(StateRecordError.wrongLength(actual: 100, expected: 276).reason
            == "it has 100 bytes, a state file of its version has 276 (truncated or cut short by a crash)")
        for position in 0..<bytes.count {
            for bit in [0, 7] {
                var damaged = bytes
                damaged[position] ^= UInt8(1 << bit)
                Fixtures.writeFile(directory + "/state", damaged)
                let outcome = try StateStore.open(directory: directory).get().load()
                guard case .corrupt = outcome else {
                    Issue.record("bit \(bit) of byte \(position) flipped was not detected: \(outcome)")
                    continue
                }
            }
        }
    }

    @Test func aVersion1FileIsStillRead() throws {
        let scratch = StateStoreTests.Directory()
        let directory = scratch.path
        // Version 1 is version 2's first 224 bytes (no gyroscope bias, no follow options) and its CRC.
        var v1 = Array(Self.encoded(Self.a)[0..<224])
        v1[4] = 1
        v1[5] = 0
        let crc = v1.withUnsafeBytes { CRC32.checksum($0) }
        v1 += [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
        Fixtures.writeFile(directory + "/state", v1)
        #expect(try StateStore.open(directory: directory).get().load() == .loaded(Self.a))
    }

    @Test func aTemporaryFileLeftByACrashIsRemovedAndAnUnreadableFileMovedAside() throws {
        let scratch = StateStoreTests.Directory()
        let directory = scratch.path
        Fixtures.writeFile(directory + "/state.tmp", Array(Self.encoded(Self.b)[0..<50]))
        let store = try StateStore.open(directory: directory).get()
        #expect(store.removedStaleTemporary)
        #expect(access(directory + "/state.tmp", F_OK) != 0)
        // A directory where the file should be cannot be read: moved aside, defaults used.
        mkdir(directory + "/state", 0o755)
        #expect(store.load() == .unreadable(.isADirectory, movedTo: directory + "/state.corrupt"))
        #expect(access(directory + "/state", F_OK) != 0)
        rmdir(directory + "/state.corrupt")
        // Saving an unchanged record writes nothing.
        #expect(store.save(Self.a) == nil)
        #expect(store.save(Self.a) == nil)
        #expect(store.writeCount == 1 && store.unchangedSaveCount == 1)
    }
}
