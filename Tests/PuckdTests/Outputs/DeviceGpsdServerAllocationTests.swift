import Glibc
import GpsdServer
import SystemCalls
import Testing
import TestSupport
@testable import Puckd

/// The whole device with its gpsd-protocol server and 32 clients attached (JSON, NMEA and puckd's
/// PUCK/CAMERA at the 60 Hz tick) and NTP shared memory on (`[time] shm = 0`, private segments):
/// 60 000 wake-ups allocate nothing (docs/gpsd-protocol.md §4, §7.2).
@Suite(.serialized) struct DeviceGpsdServerAllocationTests {
    /// A loopback TCP client reading into one fixed buffer.
    final class Client {
        let fd: Int32
        init?(port: UInt16, request: String) {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = port.bigEndian
            sa.sin_addr.s_addr = UInt32(0x0100007F)
            let rc = withUnsafePointer(to: &sa) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard rc == 0 else { close(fd); return nil }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        deinit { close(fd) }
        /// Reads what has arrived; returns the byte count.
        func drain(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
            var total = 0
            while true {
                let n = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                if n <= 0 { return total }
                total += n
            }
        }
    }

    @Test func sixtyThousandWakeUpsWithThirtyTwoClientsAllocateNothing() throws {
        let h = try SimulatedDeviceHarness(overrides: ["server.listen=127.0.0.1:0", "time.shm=0"], setupChanges: { setup in
            (setup.gpsdServer, setup.gpsdServerReport) = Device.openGpsdServer(setup.loaded.configuration)
            setup.ntpSharedMemoryKeys = (SharedMemorySegment.privateKey, SharedMemorySegment.privateKey)
        })
        defer { h.removeDirectory() }
        let shm = try #require(h.device.ntpShm), shmPPS = try #require(h.device.ntpShmPPS)
        defer {
            for id in [shm.identifier, shmPPS.identifier].compactMap({ $0 }) { try? SharedMemorySegment.remove(identifier: id) }
        }
        let server = try #require(h.device.gpsdServer as GpsdServer?)
        let port = try #require(server.listeners.first?.port)
        var clients: [Client] = []
        for i in 0..<32 {
            let request = i % 2 == 0 ? "?WATCH={\"enable\":true,\"json\":true,\"puckd\":true};"
                                     : "?WATCH={\"enable\":true,\"json\":true,\"nmea\":true,\"puckd\":true,\"puckd_hz\":10};"
            clients.append(try #require(Client(port: port, request: request)))
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { buffer.deallocate() }
        var received = 0
        func drainAll() { for c in clients { received += c.drain(buffer) } }
        // Warm-up: 10 s of device time, clients reading.
        for _ in 0..<100 { h.advance(by: 100_000_000); drainAll() }
        #expect(server.clientCount == 32)
        let queued0 = server.counters.reportsQueued
        let fixes0 = h.device.counters.fixes
        let shm0 = shm.samplesWritten, shmPPS0 = shmPPS.samplesWritten
        var allocations: UInt64 = 0
        for _ in 0..<60 {
            allocations &+= allocationCount {
                var k = 0
                while k < 1000 {
                    h.now += 1_000_000
                    _ = h.device.step(gps: &h.source, nowNanoseconds: h.now, ready: .all)
                    k += 1
                }
            }
            drainAll()
        }
        #expect(allocations == 0)
        // The server worked during the measured minute: fixes went out, PUCK/CAMERA at the tick rate.
        #expect(h.device.counters.fixes - fixes0 > 300)
        #expect(shm.samplesWritten - shm0 > 300 && shmPPS.samplesWritten - shmPPS0 >= 30, "NTP0 took the fixes, NTP1 the pulses: \(shm.samplesWritten - shm0), \(shmPPS.samplesWritten - shmPPS0)")
        let queued = server.counters.reportsQueued - queued0
        #expect(queued > 16 * 3600)          // half the clients take every 60 Hz pair
        #expect(server.counters.reportsDropped == 0)
        #expect(received > 1_000_000)
    }
}
