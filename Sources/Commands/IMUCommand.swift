import SystemCalls
import IMU
import Console
import Hardware
import Heading
import Puckd

/// `puckd imu probe|read`: find the IMU on an I2C bus and print what was found, or read samples from
/// it. Bring-up and diagnosis on a board; the device loop uses the same `IMUProbe` / `IMUDevice`.
enum IMUCommand {
    static let usage: StaticString = """
          puckd imu probe [--bus /dev/i2c-N | --adapter NAME]
              Probe the I2C bus (default /dev/i2c-1) for a supported IMU by the WHO_AM_I of its accel/gyro
              die (LSM6DSL+LIS3MDL, LSM9DS1, ICM-20948, MPU-9250, BNO055): prints every identification read,
              then the chip and its addresses, or the reason none was found. --adapter picks the bus by the
              adapter name in /sys/class/i2c-adapter (e.g. "bcm2835", "SMBus stub driver").
          puckd imu read [--bus /dev/i2c-N | --adapter NAME] [--count N] [--mounting x-DIR,z-DIR[,yaw=DEG]]
              Initialize the IMU and print N samples (default 100) as CSV in the vehicle frame:
              time_s,gx,gy,gz (rad/s),ax,ay,az (m/s²),mx,my,mz (µT, empty without a new field),temp_c.
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        var rest = arguments
        guard let sub = rest.popFirst() else {
            StandardStreams.err("puckd imu: say 'probe' or 'read'\n\(usage)\n")
            return ExitStatus.usage
        }
        var busPath = "/dev/i2c-1"
        var adapterName: String?
        var count = 100
        var mounting = MountingOrientation.identity
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else {
                StandardStreams.err("puckd imu: \(option) needs a value\n\(usage)\n")
                return ExitStatus.usage
            }
            switch option {
            case "--bus": busPath = value
            case "--adapter": adapterName = value
            case "--count":
                guard let n = Int(value), n > 0 else {
                    StandardStreams.err("puckd imu: --count takes a positive number of samples, not '\(value)'\n")
                    return ExitStatus.usage
                }
                count = n
            case "--mounting":
                do throws(MountingOrientationError) {
                    mounting = try MountingOrientation(parsing: value)
                } catch {
                    StandardStreams.err("puckd imu: \(error.message)\n")
                    return ExitStatus.usage
                }
            default:
                StandardStreams.err("puckd imu: unknown option '\(option)'\n\(usage)\n")
                return ExitStatus.usage
            }
        }
        let bus: I2CDevBus
        if let adapterName {
            do throws(I2CDevBusLookupError) {
                bus = try I2CDevBus(adapterName: adapterName)
            } catch {
                StandardStreams.err("puckd imu: \(error.message)\n")
                if case .open(_, let e) = error { return exitStatus(for: e) }
                return ExitStatus.noInput
            }
        } else {
            do throws(I2CError) {
                bus = try I2CDevBus(path: busPath)
            } catch {
                StandardStreams.err("puckd imu: \(busPath): \(error.message)\n")
                return exitStatus(for: error)
            }
        }
        switch sub {
        case "probe": return probe(bus)
        case "read": return read(bus, count: count, mounting: mounting)
        default:
            StandardStreams.err("puckd imu: unknown subcommand '\(sub)'; say 'probe' or 'read'\n")
            return ExitStatus.usage
        }
    }

    static func exitStatus(for error: I2CError) -> Int32 {
        switch error {
        case .noSuchBus: ExitStatus.noInput
        case .permissionDenied: ExitStatus.permission
        case .notAnI2CBus: ExitStatus.usage
        case .busy, .unsupported: ExitStatus.unavailable
        default: ExitStatus.ioError
        }
    }

    static func probe(_ bus: I2CDevBus) -> Int32 {
        var b = bus
        let report = IMUProbe.run(bus: &b)
        StandardStreams.out("bus \(bus.path)\n")
        for line in report.lines { StandardStreams.out(line + "\n") }
        return report.found == nil ? ExitStatus.unavailable : ExitStatus.ok
    }

    static func monotonicNanoseconds() -> Int64 { Int64(SystemClock.monotonicNanoseconds()) }

    static func sleep(untilNanoseconds t: Int64) { SystemClock.sleep(untilMonotonicNanoseconds: UInt64(max(0, t))) }

    static func read(_ bus: I2CDevBus, count: Int, mounting: MountingOrientation) -> Int32 {
        var configuration = IMUDeviceConfiguration()
        configuration.mounting = mounting
        var device = IMUDevice(bus: bus, configuration: configuration)
        var out = OutputBuffer(capacity: 256)
        let start = monotonicNanoseconds()
        let giveUp = start + 10_000_000_000
        var printed = 0
        var reportedFaults = 0
        StandardStreams.out("time_s,gx,gy,gz,ax,ay,az,mx,my,mz,temp_c\n")
        while printed < count {
            let now = monotonicNanoseconds()
            if let reading = device.poll(nowNanoseconds: now) {
                format(reading.sample, since: start, into: &out)
                out.withBytes { _ = StandardStreams.write(to: .standardOutput, $0) }
                out.removeAll()
                printed += 1
            }
            if device.status.faults > reportedFaults, let fault = device.status.lastFault {
                reportedFaults = device.status.faults
                StandardStreams.err("puckd imu: \(fault.message)\n")
            }
            if printed == 0, now > giveUp {
                StandardStreams.err("puckd imu: no sample within 10 s (state \(device.status.state.name))\n")
                return ExitStatus.unavailable
            }
            sleep(untilNanoseconds: max(device.nextPollNanoseconds, now + 200_000))
        }
        if let chip = device.status.chip { StandardStreams.err("puckd imu: \(chip.description)\n") }
        return ExitStatus.ok
    }

    static func format(_ s: IMUSample, since start: Int64, into out: inout OutputBuffer) {
        out.append(Double(s.timestampNanoseconds - start) / 1e9, decimals: 4)
        append(s.gyroRadiansPerSecond, decimals: 5, to: &out)
        append(s.accelerationMetersPerSecondSquared, decimals: 4, to: &out)
        if let m = s.magneticFieldMicrotesla { append(m, decimals: 3, to: &out) } else { out.append(",,,") }
        out.append(UInt8(ascii: ","))
        if let t = s.temperatureCelsius { out.append(t, decimals: 2) }
        out.append(UInt8(ascii: "\n"))
    }

    static func append(_ v: Vector3, decimals: Int, to out: inout OutputBuffer) {
        out.append(UInt8(ascii: ","))
        out.append(v.x, decimals: decimals)
        out.append(UInt8(ascii: ","))
        out.append(v.y, decimals: decimals)
        out.append(UInt8(ascii: ","))
        out.append(v.z, decimals: decimals)
    }
}
