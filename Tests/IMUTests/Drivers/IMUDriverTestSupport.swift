import Heading
import IMU
@testable import Simulation
import TestSupport
import Testing

/// Shared helpers for the driver tests: run a device on a simulated board, compare vectors.
enum DriverHarness {
    static let g = 9.80665
    static let radiansPerDegree = Double.pi / 180

    /// Polls `device` (advancing time to each requested poll time) until it is running or `limit`
    /// polls passed; returns the time reached, nanoseconds.
    @discardableResult
    static func runUntilRunning<Bus: I2CBus>(_ device: inout IMUDevice<Bus>, from start: Int64 = 0,
                                            limit: Int = 200) -> Int64 {
        var now = start
        var polls = 0
        while polls < limit {
            _ = device.poll(nowNanoseconds: now)
            if device.status.state == .running { return now }
            now = max(now + 1, device.nextPollNanoseconds)
            polls += 1
        }
        Issue.record("device did not reach running: state \(device.status.state), fault \(device.status.lastFault?.message ?? "none")")
        return now
    }

    /// Presents `truth` to the board and polls once, one millisecond later; returns the reading.
    static func readOnce(_ imu: SimulatedIMU, _ device: inout IMUDevice<SimulatedI2CBus>, _ truth: IMUSample,
                         fusion: BNO055Fusion? = nil, at now: inout Int64) -> IMUReading? {
        imu.present(truth, fusion: fusion)
        now += 10_000_000
        return device.poll(nowNanoseconds: now)
    }

    /// A device on `imu`'s bus, already running.
    static func runningDevice(_ imu: SimulatedIMU, configuration: IMUDeviceConfiguration = IMUDeviceConfiguration(),
                              now: inout Int64) -> IMUDevice<SimulatedI2CBus> {
        var device = IMUDevice(bus: imu.bus, configuration: configuration)
        now = runUntilRunning(&device, from: now)
        return device
    }

    /// A sample with the given vectors (gyro rad/s, accel m/s², field µT).
    static func sample(gyro: Vector3 = .zero, accel: Vector3 = Vector3(0, 0, 9.80665), field: Vector3? = nil,
                       temperature: Double? = nil) -> IMUSample {
        IMUSample(timestampNanoseconds: 0, gyroRadiansPerSecond: gyro, accelerationMetersPerSecondSquared: accel,
                  magneticFieldMicrotesla: field, temperatureCelsius: temperature)
    }

    /// The writes of `log` as (address, register, value) triples.
    static func triples(_ log: [SimulatedI2CWrite]) -> [[UInt8]] { log.map { [$0.address, $0.register, $0.value] } }

    static func close(_ a: Vector3?, _ b: Vector3, within tolerance: Double) -> Bool {
        guard let a else { return false }
        return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.z - b.z) <= tolerance
    }

    static func close(_ a: Vector3, _ b: Vector3, within tolerance: Double) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.z - b.z) <= tolerance
    }
}

/// The x-io Fusion example recording (Tests/Fixtures/imu/fusion-example), as IMU samples in SI units,
/// read with the same CSV parser `puckd heading replay` uses.
enum RecordedIMUData {
    static let samples: [IMUSample] = {
        guard let bytes = Fixtures.xzBytes("imu/fusion-example/sensor_data.csv.xz") else { return [] }
        let parsed: [IMUCSVRecord]
        do {
            parsed = try bytes.withUnsafeBytes(parseRecords)
        } catch {
            return []
        }
        return parsed.map { record in
            var sample = record.sample
            sample.temperatureCelsius = 31.5      // the recording has none; the chips encode one
            return sample
        }
    }()

    private static func parseRecords(_ raw: UnsafeRawBufferPointer) throws(IMUCSVError) -> [IMUCSVRecord] {
        try IMUCSVParser.parseAll(raw).1
    }
}

extension DriverHarness {
    /// A level, still sample with sensor-like noise (deterministic in `index`): real chips never
    /// repeat their raw output for long, and the stuck-data detector relies on that.
    static func noisySample(_ index: Int, field: Vector3 = Vector3(20, 0, -40)) -> IMUSample {
        var state = UInt64(truncatingIfNeeded: index &* 2_654_435_761 &+ 12345)
        func noise() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(Int64(bitPattern: state >> 11) % 2001 - 1000) / 1000      // −1 … 1
        }
        return sample(gyro: Vector3(0.01 * noise(), 0.01 * noise(), 0.01 * noise()),
                      accel: Vector3(0.05 * noise(), 0.05 * noise(), g + 0.05 * noise()),
                      field: Vector3(field.x + 0.3 * noise(), field.y + 0.3 * noise(), field.z + 0.3 * noise()))
    }
}
