import Glibc
import GpsdServer
import Testing
import TestSupport
@testable import Puckd

/// After each tracking tick the router hands the puck and camera to the gpsd server once: a `puckd`
/// watcher without `puckd_hz` gets exactly one PUCK and one CAMERA per tick (docs/gpsd-protocol.md §3).
@Suite(.serialized) struct DeviceGpsdServerTickTests {
    @Test func onePuckAndOneCameraPerTick() throws {
        let h = try SimulatedDeviceHarness(overrides: ["server.listen=127.0.0.1:0"], setupChanges: { setup in
            (setup.gpsdServer, setup.gpsdServerReport) = Device.openGpsdServer(setup.loaded.configuration)
        })
        defer { h.removeDirectory() }
        let server = try #require(h.device.gpsdServer as GpsdServer?)
        let port = try #require(server.listeners.first?.port)
        let client = try #require(DeviceGpsdServerAllocationTests.Client(port: port, request: "?WATCH={\"enable\":true,\"puckd\":true};"))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        func count() -> (puck: Int, camera: Int) {
            var bytes: [UInt8] = []
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n <= 0 { break }
                bytes += chunk[0..<n]
            }
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n")
            return (lines.filter { $0.hasPrefix("{\"class\":\"PUCK\"") }.count,
                    lines.filter { $0.hasPrefix("{\"class\":\"CAMERA\"") }.count)
        }
        h.advance(by: 200_000_000)                              // the server accepts, the WATCH is answered
        _ = count()
        let ticks0 = h.device.scheduler.ticks
        var puck = 0, camera = 0
        for _ in 0..<20 {                                        // 2 s at 60 Hz
            h.advance(by: 100_000_000)
            let c = count()
            puck += c.puck
            camera += c.camera
        }
        let ticks = Int(h.device.scheduler.ticks - ticks0)
        #expect(ticks >= 100)
        #expect(puck == ticks && camera == ticks, "\(ticks) ticks, \(puck) PUCK, \(camera) CAMERA")
    }
}
