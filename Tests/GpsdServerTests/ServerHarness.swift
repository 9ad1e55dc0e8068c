import Glibc
import GpsdProtocol
import GpsdServer
import Heading
import IMU
import NMEA
import SystemCalls
import TestSupport

/// A server on 127.0.0.1 port 0 and a Unix socket in a scratch directory, fed from a recorded log
/// (gpsd's regression logs in Tests/Fixtures/nmea/gpsd) one sentence per step, and serviced by the
/// test's own thread while real clients run as processes.
final class ServerHarness {
    let server: GpsdServer
    let directory: String
    var log: [UInt8]
    var offset = 0
    var pipeline = NMEAPipeline()
    var now: Int64 = 1_000_000_000
    var seenSky = 0
    /// Publish an ATT (a fixed attitude) with each fix.
    var publishesAttitude = false
    static let attitude = HeadingEstimate(timestampNanoseconds: 0, magneticHeadingDegrees: 258.7, trueHeadingDegrees: 259.4,
                                          declinationDegrees: 0.7, rollDegrees: 1.5, pitchDegrees: -2.25, orientation: .identity,
                                          headingAccuracyDegrees: 3, calibrationState: .calibrated, calibrationNeeded: false,
                                          magnetometer: .accepted)
    /// The fixes published, in order.
    var fixes: [Fix] = []

    init(maxClients: Int = 32, bufferBytes: Int = 16_384, logName: String = "nmea-rtk") throws {
        var template = Array("/tmp/puckd-gpsd-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        var c = GpsdServerConfiguration()
        c.listen = [.ipv4(address: (127, 0, 0, 1), port: 0)]
        c.socketPath = directory + "/gpsd.sock"
        c.maxClients = maxClients
        c.clientBufferBytes = bufferBytes
        var path = GpsdShortText()
        for b in "/dev/ttyAMA0".utf8 { path.append(b) }
        server = try GpsdServer(configuration: c, device: GpsdDeviceInfo(path: path, bitsPerSecond: 115_200, cycleSeconds: 0.1,
                                                                       seenPackets: true))
        log = Fixtures.bytes("nmea/gpsd/" + logName + ".nmea") ?? []
    }

    deinit {
        _ = unlink(directory + "/gpsd.sock")
        _ = rmdir(directory)
    }

    var port: UInt16 { server.listeners.first { $0.port != nil }?.port ?? 0 }
    var socketPath: String { directory + "/gpsd.sock" }

    /// Feeds the next sentence of the log (looping), publishes what it completes, services the server.
    func step() {
        if log.isEmpty { return }
        if offset >= log.count { offset = 0 }
        var end = offset
        while end < log.count && log[end] != 0x0A { end += 1 }
        end = min(end + 1, log.count)
        var completed: [Fix] = []
        log[offset..<end].withUnsafeBytes { raw in
            server.publish(receiverBytes: raw)
            pipeline.feed(raw, nowNanoseconds: now) { completed.append(copy $0) }
        }
        offset = end
        for fix in completed {
            var sky: SkyView?
            if pipeline.assembler.counters.skyViews != seenSky {
                seenSky = pipeline.assembler.counters.skyViews
                sky = pipeline.assembler.skyView
            }
            server.publish(fix: fix, sky: sky, nowNanoseconds: now)
            fixes.append(fix)
            if publishesAttitude { server.publish(attitude: Self.attitude, sample: nil, utcNanoseconds: fix.utcNanoseconds) }
        }
        now += 10_000_000
        server.service(nowNanoseconds: now)
    }

    /// Runs `arguments` while stepping the server (a step each millisecond) until it exits or
    /// `timeoutSeconds` pass; returns its status and output.
    func run(_ arguments: [String], timeoutSeconds: Int = 60, environment: [String]? = nil) -> (status: Int32, output: String)? {
        guard let child = ChildProcess(arguments, environment: environment) else { return nil }
        let deadline = monotonicSeconds() + Double(timeoutSeconds)
        while !child.poll() {
            step()
            if monotonicSeconds() > deadline { child.kill(); break }
            usleep(1000)
        }
        return (child.status, String(decoding: child.output, as: UTF8.self))
    }

    /// Services the server for `n` rounds without feeding it.
    func idle(_ n: Int) {
        for _ in 0..<n { server.service(nowNanoseconds: now); usleep(500) }
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
