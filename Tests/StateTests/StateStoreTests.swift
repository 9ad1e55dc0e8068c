import IMU
import Glibc
import Heading
import NMEA
import Testing
import TestSupport
import Tracking
@testable import State

/// The state file: round trip, atomic replacement, checksum, damaged files moved aside.
@Suite struct StateStoreTests {
    final class Directory {
        let path = Fixtures.temporaryDirectory(prefix: "puckd-device")
        deinit {
            for name in ["state", "state.tmp", "state.corrupt"] { unlink(path + "/" + name) }
            rmdir(path)
        }
    }

    static let record = SampleStateRecords.overview

    func store(_ directory: String) throws -> StateStore { try StateStore.open(directory: directory).get() }

    @Test func firstStartFindsNoState() throws {
        let scratch = Directory()
        let directory = scratch.path
        #expect(try store(directory).load() == .none)
    }

    @Test func savedStateLoadsBackEqual() throws {
        let scratch = Directory()
        let directory = scratch.path
        let s = try store(directory)
        #expect(s.save(Self.record) == nil)
        #expect(try store(directory).load() == .loaded(Self.record))
        // A record without fix and calibration too.
        let bare = DeviceStateRecord(trackingMode: .none)
        #expect(s.save(bare) == nil)
        #expect(try store(directory).load() == .loaded(bare))
    }

    @Test func writeIsAtomicAndLeavesNoTemporaryFile() throws {
        let scratch = Directory()
        let directory = scratch.path
        let s = try store(directory)
        #expect(s.save(Self.record) == nil)
        var before = stat()
        stat(directory + "/state", &before)
        #expect(s.save(DeviceStateRecord(trackingMode: .follow)) == nil)
        var after = stat()
        stat(directory + "/state", &after)
        #expect(before.st_ino != after.st_ino, "the new file replaces the old by rename, not in place")
        #expect(access(directory + "/state.tmp", F_OK) != 0)
        #expect(Int(after.st_size) == DeviceStateRecord.byteCount)
        #expect(s.writeCount == 2)
    }

    @Test func savingAllocatesNothing() throws {
        let scratch = Directory()
        let directory = scratch.path
        let s = try store(directory)
        s.save(Self.record)
        // Two records in turn: a save of the same content writes nothing, so each save here is a write.
        var other = Self.record
        other.trackingMode = .followWithHeading
        let records = [other, Self.record]
        let allocations = allocationCount { for i in 0..<20 { s.save(records[i % 2]) } }
        #expect(allocations == 0)
        #expect(s.writeCount == 21, "every save reached the disk")
        #expect(try store(directory).load() == .loaded(Self.record))
    }

    @Test func damagedFileIsMovedAsideWithTheReason() throws {
        let scratch = Directory()
        let directory = scratch.path
        let s = try store(directory)
        s.save(Self.record)
        // Flip one byte of the fix: the checksum no longer matches.
        var bytes = Fixtures.readFile(directory + "/state")!
        bytes[20] ^= 0x40
        write(directory + "/state", bytes)
        let outcome = try store(directory).load()
        #expect(outcome == .corrupt(.checksumMismatch, movedTo: directory + "/state.corrupt"))
        #expect(access(directory + "/state", F_OK) != 0)
        #expect(Fixtures.readFile(directory + "/state.corrupt") == bytes)
        #expect(StateRecordError.checksumMismatch.reason
            == "its checksum does not match its content (a torn or damaged write)")
    }

    @Test func truncatedAndForeignFilesAreDetected() throws {
        let scratch = Directory()
        let directory = scratch.path
        let s = try store(directory)
        s.save(Self.record)
        let bytes = Fixtures.readFile(directory + "/state")!
        write(directory + "/state", Array(bytes[0..<100]))
        #expect(try store(directory).load() == .corrupt(.wrongLength(actual: 100, expected: DeviceStateRecord.byteCount),
                                                        movedTo: directory + "/state.corrupt"))
        write(directory + "/state", Array("not a state file at all".utf8) + [UInt8](repeating: 0, count: 205))
        #expect(try store(directory).load() == .corrupt(.notAStateFile, movedTo: directory + "/state.corrupt"))
        var future = bytes
        future[4] = 9
        write(directory + "/state", future)
        #expect(try store(directory).load() == .corrupt(.unsupportedVersion(9), movedTo: directory + "/state.corrupt"))
    }

    @Test func unusableDirectorySaysWhatToDo() {
        let result = StateStore.open(directory: "/proc/puckd-cannot-exist/state")
        guard case .failure(let error) = result else {
            Issue.record("opening a directory under /proc succeeded")
            return
        }
        #expect(error.message == "cannot create /proc/puckd-cannot-exist/state (No such file or directory): the state "
            + "(mode, calibration, last fix) will not be saved; make the directory writable for this user or set [state] directory")
    }

    func write(_ path: String, _ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
