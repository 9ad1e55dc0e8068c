import Console
import GpsdProtocol
import Heading
import IMU
import NMEA
import Testing
import TestSupport
import Tracking

/// The protocol module allocates nothing per request or report once warmed up (fixed buffers only;
/// DEVELOPERS.md rule 3), in debug and release. Each test also checks what was produced.
@Suite struct GpsdProtocolAllocationTests {
    static func sampleFix() -> Fix {
        var f = Fix(timeOfDayNanoseconds: 48_499_600_000_000)
        f.utcNanoseconds = 1_584_538_099_600_000_000
        f.mode = .threeD
        f.quality = .dgps
        f.latitudeDegrees = 41.574965910
        f.longitudeDegrees = -93.750571901
        f.altitudeMSLMeters = 278.161
        f.geoidSeparationMeters = -31.442
        f.speedMetersPerSecond = 0.076
        f.courseDegrees = 124.888
        f.magneticVariationDegrees = 11.5985
        f.hdop = 0.9; f.vdop = 1.2; f.pdop = 1.5
        f.horizontalAccuracyMeters = 4.275
        f.verticalAccuracyMeters = 6.1
        f.errorEllipse = ErrorEllipse(rangeRMSMeters: 1.2, semiMajorMeters: 2.1, semiMinorMeters: 1.1, orientationDegrees: 45,
                                      latitudeSigmaMeters: 1.5, longitudeSigmaMeters: 1.4, altitudeSigmaMeters: 2.5)
        return f
    }

    static func sampleSky() -> SkyView {
        var sky = SkyView()
        for i in 1...24 {
            sky.append(SatelliteInView(identity: SatelliteIdentity(constellation: i > 12 ? .glonass : .gps,
                                                                   svid: UInt16(i), prn: UInt16(i > 12 ? 64 + i : i)),
                                       elevationDegrees: Int8(i * 3), azimuthDegrees: UInt16(i * 15), snr: UInt8(20 + i),
                                       used: i % 2 == 0))
        }
        return sky
    }

    static let estimate = HeadingEstimate(timestampNanoseconds: 5, magneticHeadingDegrees: 258.7, trueHeadingDegrees: 259.4,
                                          declinationDegrees: 0.7, rollDegrees: 1.5, pitchDegrees: -2.25, orientation: .identity,
                                          headingAccuracyDegrees: 3, calibrationState: .calibrated, calibrationNeeded: false,
                                          magnetometer: .accepted)
    static let imuSample = IMUSample(timestampNanoseconds: 5, gyroRadiansPerSecond: Vector3(0.01, 0, -0.02),
                                     accelerationMetersPerSecondSquared: Vector3(0.1, 0.2, 9.81),
                                     magneticFieldMicrotesla: Vector3(20, -3, -45), temperatureCelsius: 31)

    @Test func everyReportIsWrittenWithoutAllocating() throws {
        var out = OutputBuffer(capacity: 16_384)
        let fix = Self.sampleFix()
        let sky = Self.sampleSky()
        var device = GpsdShortText()
        for b in "/dev/ttyAMA0".utf8 { device.append(b) }
        let info = GpsdDeviceInfo(path: device, bitsPerSecond: 115_200, cycleSeconds: 0.1,
                                  activatedUTCNanoseconds: 1_584_538_099_000_000_000, seenPackets: true)
        var core = try TrackingCore()
        core.updateLocation(fix, atNanoseconds: 1_000_000_000)
        core.tick(atNanoseconds: 1_016_000_000)
        let puck = core.puck
        let camera = core.camera
        let event = TimedTrackingEvent(timeNanoseconds: 7, event: .didChangeTrackingMode(.follow, animated: true))
        var watch = GpsdWatchFlags()
        watch.enable = true; watch.json = true; watch.puckd = true
        let error = GpsdRequestError(.unrecognized, excerpt: device)

        func writeAll(_ out: inout OutputBuffer) {
            out.removeAll()
            GpsdReports.appendVersion(release: "puckd 0.1.0", to: &out)
            GpsdReports.appendDevices(info, to: &out)
            GpsdReports.appendWatch(watch, to: &out)
            GpsdReports.appendError(error, to: &out)
            GpsdFixReports.appendTPV(fix, device: device, climbMetersPerSecond: 0.1, to: &out)
            GpsdFixReports.appendSKY(sky, fix: fix, device: device, to: &out)
            GpsdFixReports.appendGST(fix, device: device, to: &out)
            GpsdAttitudeReport.append(Self.estimate, sample: Self.imuSample, utcNanoseconds: fix.utcNanoseconds, device: device,
                                      to: &out)
            PuckdReports.appendPuck(puck, to: &out)
            PuckdReports.appendCamera(camera, to: &out)
            PuckdReports.appendEvent(event, to: &out)
            GpsdTimeReports.appendPPS(device: device, realUTCNanoseconds: 1_584_538_100_000_000_000,
                                      clockNanoseconds: 1_584_538_100_000_012_345, to: &out)
            GpsdTimeReports.appendTOFF(device: device, realUTCNanoseconds: 1_584_538_100_000_000_000,
                                       clockNanoseconds: 1_584_538_100_080_000_000, to: &out)
        }
        writeAll(&out)
        let count = allocationCount { writeAll(&out) }
        #expect(count == 0)
        let overflowed = out.overflowed
        #expect(!overflowed)
        let text = out.string
        for cls in ["VERSION", "DEVICES", "WATCH", "ERROR", "TPV", "SKY", "GST", "ATT", "PUCK", "CAMERA", "EVENT", "PPS", "TOFF"] {
            #expect(text.contains("{\"class\":\"" + cls + "\""), "\(cls)")
        }
        #expect(text.split(separator: "\r\n").count == 13)
    }

    @Test func requestsAreParsedWithoutAllocating() {
        var reader = GpsdCommandReader()
        var request = Array("?WATCH={\"enable\":true,\"json\":true,\"nmea\":false,\"puckd\":true,\"puckd_hz\":5};?POLL;?VERSION;?FOO;".utf8)
        var garbage = [UInt8](repeating: 0, count: 4096)
        for i in 0..<garbage.count { garbage[i] = UInt8(truncatingIfNeeded: i &* 131 &+ 7) }
        garbage[garbage.count - 1] = 0x0A   // a newline ends whatever the garbage left open
        var seen = 0
        var watches = 0
        var flags = GpsdWatchFlags()
        func run(_ reader: inout GpsdCommandReader) {
            request.withUnsafeMutableBytes { raw in
                reader.feed(UnsafeRawBufferPointer(raw)) { c in
                    seen += 1
                    if case .watch(let r?) = c { flags.apply(r); watches += 1 }
                }
            }
            garbage.withUnsafeMutableBytes { raw in reader.feed(UnsafeRawBufferPointer(raw)) { _ in seen += 1 } }
        }
        run(&reader)
        let count = allocationCount { for _ in 0..<100 { run(&reader) } }
        #expect(count == 0)
        #expect(watches == 101)
        #expect(flags.wantsPuckd && flags.puckdHertz == 5)
    }
}
