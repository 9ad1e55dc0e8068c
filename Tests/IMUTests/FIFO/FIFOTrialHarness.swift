import Heading
import IMU
@testable import Simulation
import TestSupport
import Testing

/// Runs a recorded trial through a register twin polled or read in FIFO bursts (docs/hardware.md
/// §1.7): the twin converts at the chip's own rate as its clock advances, each conversion the row
/// recorded nearest its time (so gyroscope and magnetometer stay consistent at any rate); the device
/// polls right at each conversion, or reads a burst after 8 to 13 conversions (irregular), a varying
/// fraction of a period late. Shared by the FIFO tests of every chip.
enum FIFOTrial {
    /// What one run of the trial gave: the heading after each sample and each sample's time.
    struct Run {
        var headings: [Double] = []
        var times: [Int64] = []
        var status = IMUDeviceStatus()
        /// Conversions the twin made over the trial.
        var conversions = 0
    }

    static func configuration(burstHertz: Int) -> IMUDeviceConfiguration {
        var c = IMUDeviceConfiguration()
        c.burstIntervalNanoseconds = burstHertz > 0 ? 1_000_000_000 / Int64(burstHertz) : 0
        c.stuckSampleLimit = 0
        return c
    }

    /// The twin's conversion period of `board`'s accel/gyro chip, nanoseconds (its own clock).
    static func period(_ board: SimulatedIMUBoard) -> Int64 {
        let imu = SimulatedIMU(board: board)
        var now: Int64 = 0
        _ = DriverHarness.runningDevice(imu, configuration: configuration(burstHertz: 0), now: &now)
        return Int64(1e9 / imu.primary.outputDataRateHertz)
    }

    /// Runs `rows` on `board`; with `stallAfterConversion`, the loop reads nothing for
    /// `stallConversions` conversions from there (the FIFO fills and overruns).
    static func run(_ board: SimulatedIMUBoard, _ rows: [IMUSample], burstHertz: Int,
                    stallAfterConversion stall: Int? = nil, stallConversions: Int = 0) -> Run {
        let imu = SimulatedIMU(board: board)
        var now: Int64 = 0
        var device = DriverHarness.runningDevice(imu, configuration: configuration(burstHertz: burstHertz), now: &now)
        let exactPeriod = 1e9 / imu.primary.outputDataRateHertz
        let period = Int64(exactPeriod)
        let start = (now / period + 2) * period
        let first = rows[0].timestampNanoseconds
        let rowPeriod = max(1, (rows[rows.count - 1].timestampNanoseconds - first) / Int64(max(rows.count - 1, 1)))
        let truth: (Int64) -> IMUSample = { t in rows[min(max(Int((t - start + rowPeriod / 2) / rowPeriod), 0), rows.count - 1)] }
        let conversions = Int((rowPeriod * Int64(rows.count - 1)) / period) + 1
        var estimator = HeadingEstimator()
        var burst = IMUBurst()
        var result = Run()
        func take(_ reading: IMUReading) {
            estimator.update(reading.sample)
            result.headings.append(estimator.current.magneticHeadingDegrees)
            result.times.append(reading.sample.timestampNanoseconds)
        }
        var untilBurst = 10
        var k = 0
        while k < conversions {
            // The twin converts at the chip's exact period (SimulatedIMU): so are its conversions here.
            let t = start + Int64((Double(k) * exactPeriod).rounded(.down))
            imu.advance(toNanoseconds: t, truth: truth)
            if burstHertz == 0 {
                if let reading = device.poll(nowNanoseconds: t) { take(reading) }
            } else if let stall, k >= stall && k < stall + stallConversions {
                // The loop does not read: the FIFO fills.
            } else {
                untilBurst -= 1
                if untilBurst == 0 || k == conversions - 1 {
                    let late = Int64(k * 7_919 % 97) * period / 100            // 0 … 0.96 period
                    imu.advance(toNanoseconds: t + late, truth: truth)
                    repeat {
                        device.poll(nowNanoseconds: t + late, into: &burst)
                        var i = 0
                        while i < burst.count { take(burst[i]); i += 1 }
                    } while burst.moreAvailable
                    untilBurst = 8 + k % 6
                }
            }
            k += 1
        }
        result.status = device.status
        result.conversions = conversions
        return result
    }

    /// The recorded rows with the magnetometer left out: the heading then follows the gyroscope and
    /// the accelerometer only, so both paths give the estimator exactly the same inputs.
    static var accelGyroRows: [IMUSample] {
        RecordedIMUData.samples.map { var s = $0; s.magneticFieldMicrotesla = nil; return s }
    }

    static func largestDifference(_ a: [Double], _ b: [Double]) -> Double {
        var worst = 0.0
        var i = 0
        while i < min(a.count, b.count) {
            let d = abs((a[i] - b[i] + 540).truncatingRemainder(dividingBy: 360) - 180)
            worst = max(worst, d)
            i += 1
        }
        return worst
    }

    /// Largest and RMS heading difference after the first `settled` samples.
    static func difference(_ a: [Double], _ b: [Double], after settled: Int) -> (worst: Double, rms: Double) {
        let n = min(a.count, b.count)
        guard n > settled else { return (.infinity, .infinity) }
        var sum = 0.0
        var worst = 0.0
        var i = settled
        while i < n {
            let d = largestDifference([a[i]], [b[i]])
            sum += d * d
            worst = max(worst, d)
            i += 1
        }
        return (worst, (sum / Double(n - settled)).squareRoot())
    }

    /// The magnetometer comparison of every FIFO chip (docs/hardware.md §1.7.5): the whole recorded
    /// trial, field included, polled and read in bursts at 10 Hz; the largest and the RMS heading
    /// difference after the first 10 s, and the FIFO run (for its counts).
    static func magnetometerComparison(_ board: SimulatedIMUBoard) -> (worst: Double, rms: Double, fifo: Run) {
        let rows = RecordedIMUData.samples
        let polled = run(board, rows, burstHertz: 0)
        let fifo = run(board, rows, burstHertz: 10)
        let settled = Int(10e9 / Double(period(board)))                          // 10 s
        let (worst, rms) = difference(polled.headings, fifo.headings, after: settled)
        print("FIFO vs polled heading with the magnetometer, \(board): \(worst)° worst, \(rms)° RMS after 10 s")
        return (worst, rms, fifo)
    }

    /// Checks the FIFO run's times against the polled run's: one period apart, never pulled forward,
    /// pulled back by less than one period in all (a later burst read earlier after its conversion),
    /// and each within a period after its conversion (less `slackNanoseconds`).
    static func expectTimes(_ fifo: Run, _ polled: Run, period: Int64, slackNanoseconds: Int64 = 100) {
        var i = 1
        var forward: Int64 = 0, backward: Int64 = 0
        while i < fifo.times.count {
            let off = fifo.times[i] - fifo.times[i - 1] - period
            if off > 2 { forward += off }
            if off < -2 { backward -= off }
            i += 1
        }
        #expect(forward == 0 && backward < period, "spacing: \(forward) ns forward, \(backward) ns back")
        i = 0
        while i < min(fifo.times.count, polled.times.count) {
            let late = fifo.times[i] - polled.times[i]
            #expect(late >= -slackNanoseconds && late < period, "sample \(i) placed \(late) ns after its conversion")
            if late < -slackNanoseconds || late >= period { break }
            i += 1
        }
    }
}
