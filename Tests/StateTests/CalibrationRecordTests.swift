@testable import IMU
import Testing
import TestSupport
import Heading
@testable import State

@Suite struct CalibrationRecordTests {
    static let sample = MagnetometerCalibration(
        hardIronMicrotesla: Vector3(25.5, -12.25, 8), softIronRow0: Vector3(0.93, -0.04, 0.03),
        softIronRow1: Vector3(-0.04, 1.08, -0.05), softIronRow2: Vector3(0.03, -0.05, 0.99),
        fieldMicrotesla: 49.02, coverageFraction: 0.96875, residualFraction: 0.0068, sampleCount: 1018,
        gyroBiasRadiansPerSecond: Vector3(0.014, -0.0087, 0.0052), utcNanoseconds: 1_782_864_000_000_000_000)

    @Test func roundTripIsExact() throws {
        let bytes = Self.sample.recordBytes
        #expect(bytes.count == MagnetometerCalibration.recordByteCount)
        #expect(Array(bytes[0..<4]) == Array("PKMC".utf8))
        let back = try bytes.withUnsafeBytes { raw throws(CalibrationRecordError) in try MagnetometerCalibration(record: raw) }
        #expect(back == Self.sample)
        // Optional fields absent stay absent.
        var bare = Self.sample
        bare.gyroBiasRadiansPerSecond = nil
        bare.utcNanoseconds = nil
        let bareBack = try bare.recordBytes.withUnsafeBytes { raw throws(CalibrationRecordError) in try MagnetometerCalibration(record: raw) }
        #expect(bareBack == bare)
    }

    /// Known-answer CRC-32: "123456789" → 0xCBF43926.
    @Test func crc32KnownAnswer() {
        let crc = Array("123456789".utf8).withUnsafeBytes { CRC32.checksum($0) }
        #expect(crc == 0xCBF4_3926)
    }

    @Test func everyFlippedByteIsDetected() {
        let good = Self.sample.recordBytes
        for i in good.indices {
            var bad = good
            bad[i] ^= 0x40
            let result = bad.withUnsafeBytes { raw in Result { () throws(CalibrationRecordError) in try MagnetometerCalibration(record: raw) } }
            guard case .failure = result else {
                Issue.record("flipping byte \(i) went undetected")
                continue
            }
        }
    }

    @Test func errorsSayWhatIsWrong() {
        func decode(_ bytes: [UInt8]) -> CalibrationRecordError? {
            bytes.withUnsafeBytes { raw in
                do throws(CalibrationRecordError) { _ = try MagnetometerCalibration(record: raw); return nil } catch { return error }
            }
        }
        let good = Self.sample.recordBytes
        #expect(decode(Array(good.prefix(100))) == .wrongLength(actual: 100, expected: 168))
        var magic = good
        magic[0] = 0x58
        #expect(decode(magic) == .notACalibrationRecord)
        var version = good
        version[4] = 2
        #expect(decode(version) == .unsupportedVersion(2))
        var crc = good
        crc[50] ^= 1
        #expect(decode(crc) == .checksumMismatch)
        #expect(CalibrationRecordError.checksumMismatch.message.contains("calibrate again"))
        #expect(CalibrationRecordError.unsupportedVersion(2).message.contains("upgrade puckd"))
        // Finite but singular soft iron (checksum valid) is refused.
        var singular = Self.sample
        singular.softIronRow2 = singular.softIronRow0
        #expect(decode(singular.recordBytes) == .invalidValues)
    }

    @Test func encodingIsAllocationFreeIntoACallerBuffer() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        defer { buffer.deallocate() }
        let c = Self.sample
        _ = c.encode(into: buffer)
        var written = 0
        let allocations = allocationCount { written = c.encode(into: buffer) }
        #expect(written == 168 && allocations == 0)
        #expect(c.encode(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<100])) == 0)
    }
}
