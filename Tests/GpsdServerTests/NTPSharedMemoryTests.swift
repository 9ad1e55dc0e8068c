import Glibc
import GpsdProtocol
import GpsdServer
import SystemCalls
import Testing
import TestSupport

/// NTP shared memory (`[time] shm`, docs/gpsd-protocol.md §7.2): `struct shmTime`'s layout and mode 1's
/// count/valid protocol on a private segment, then units 0 and 1 read by a real chronyd
/// (`refclock SHM 0` / `SHM 1`), whose `chronyc -n sources` shows both with samples.
@Suite(.serialized) struct NTPSharedMemoryTests {
    /// Units 0 and 1 not attached by anyone (a running ntpd, chronyd or gpsd owns them otherwise:
    /// the test would feed it, or read its samples).
    static let unitsFree = (0...1).allSatisfy { (SharedMemorySegment.status(key: NTPShmSample.key(unit: $0))?.attachCount ?? 0) == 0 }

    @Test func theSegmentIsShmTimeWrittenWithModeOnesProtocol() throws {
        let shm = NTPSharedMemory(unit: 0, key: SharedMemorySegment.privateKey)
        #expect(shm.attachError == nil)
        let id = try #require(shm.identifier)
        defer { try? SharedMemorySegment.remove(identifier: id) }
        let status = try #require(SharedMemorySegment.status(identifier: id))
        #expect(status.byteCount == 96 && status.permissions == 0o600, "gpsd's unit 0: 96 bytes, 0600")
        // The reader's view: a second attachment, as chronyd's.
        let reader = try #require(shmat(id, nil, 0))
        defer { _ = shmdt(reader) }
        let sample = NTPShmSample(trueNanoseconds: 1_700_000_000_987_654_321, receiveSystemNanoseconds: 1_699_999_999_687_654_000, leap: 1, precision: -20)
        shm.write(sample)
        func int32(_ offset: Int) -> Int32 { reader.load(fromByteOffset: offset, as: Int32.self) }
        #expect(int32(0) == 1, "mode 1")
        #expect(int32(4) == 2, "count: odd while writing, +2 per sample")
        #expect(reader.load(fromByteOffset: 8, as: Int64.self) == 1_700_000_000)
        #expect(int32(16) == 987_654)
        #expect(reader.load(fromByteOffset: 24, as: Int64.self) == 1_699_999_999)
        #expect(int32(32) == 687_654)
        #expect(int32(36) == 1 && int32(40) == -20, "leap, precision")
        #expect(int32(48) == 1, "valid")
        #expect(reader.load(fromByteOffset: 52, as: UInt32.self) == 987_654_321)
        #expect(reader.load(fromByteOffset: 56, as: UInt32.self) == 687_654_000)
        // A reader clears valid after taking a sample (ntpd's and chrony's SHM driver); the next
        // sample sets it again and moves the count on.
        reader.storeBytes(of: 0, toByteOffset: 48, as: Int32.self)
        shm.write(NTPShmSample(trueNanoseconds: -1, receiveSystemNanoseconds: 5))
        #expect(int32(48) == 1 && int32(4) == 4)
        #expect(reader.load(fromByteOffset: 8, as: Int64.self) == -1 && int32(16) == 999_999, "before 1970: floor seconds")
        #expect(shm.samplesWritten == 2 && shm.samplesLost == 0)
    }

    @Test func aUnitThatCannotBeAttachedCountsItsSamplesLost() throws {
        // A key whose segment exists smaller than shmTime: shmget says EINVAL, as it does for a stale
        // segment. The key is this process's own ("PK" + pid), never an NTP unit's.
        let key = Int32(bitPattern: 0x504B_0000 | UInt32(getpid() & 0xFFFF))
        let small = shmget(key_t(key), 16, IPC_CREAT | IPC_EXCL | 0o600)
        try #require(small >= 0)
        defer { _ = shmctl(small, IPC_RMID, nil) }
        let shm = NTPSharedMemory(unit: 1, key: key)
        #expect(shm.attachError == .invalidArgument)
        shm.write(NTPShmSample(trueNanoseconds: 0, receiveSystemNanoseconds: 0))
        #expect(shm.samplesWritten == 0 && shm.samplesLost == 1)
        #expect(shm.reportLine("PPS").contains("cannot attach shared memory NTP1 (key 0x4e545031)"))
    }

    @Test(.enabled(if: ChronydHarness.available && unitsFree, "chronyd and chronyc (Debian chrony), as root; NTP0/NTP1 not in use"))
    func chronydReadsUnitsZeroAndOne() throws {
        let existed = (0...1).map { SharedMemorySegment.status(key: NTPShmSample.key(unit: $0)) != nil }
        // gpsd's time-service HOWTO lines, without selection (noselect: never steer).
        let chronyd = try ChronydHarness { _ in [
            "refclock SHM 0 refid NMEA poll 0 filter 1 noselect",
            "refclock SHM 1 refid PPS poll 0 filter 1 noselect",
        ] }
        defer { chronyd.stop() }
        let coarse = NTPSharedMemory(unit: 0)
        let pulse = NTPSharedMemory(unit: 1)
        defer {
            for (unit, was) in zip([coarse, pulse], existed) where !was {
                if let id = unit.identifier { try? SharedMemorySegment.remove(identifier: id) }
            }
        }
        #expect(coarse.attachError == nil && pulse.attachError == nil)
        // A receiver 0.3 s ahead of the system clock: fixes at 10 Hz, a pulse each second.
        for i in 0..<60 {
            let system = ChronydHarness.realtime()
            coarse.write(NTPShmSample(trueNanoseconds: system + 300_000_000, receiveSystemNanoseconds: system))
            if i % 10 == 0 { pulse.write(NTPShmSample(trueNanoseconds: system + 300_000_000, receiveSystemNanoseconds: system)) }
            usleep(100_000)
            _ = chronyd.process.poll()
        }
        for refid in ["NMEA", "PPS"] {
            let (row, reach) = try chronyd.source(refid)
            #expect(reach != 0, "\(row)")
            #expect(row.contains("-300ms") || row.contains("-299ms") || row.contains("-301ms"), "\(row)")
        }
        let segment = try #require(SharedMemorySegment.status(key: NTPShmSample.key(unit: 0)))
        #expect(segment.attachCount >= 2, "chronyd and this process")
    }
}
