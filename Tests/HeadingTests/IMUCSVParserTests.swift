@testable import IMU
import Testing
@testable import Heading

@Suite struct IMUCSVParserTests {
    static func parse(_ text: String) throws(IMUCSVError) -> (IMUCSVFormat, [IMUCSVRecord]) {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: text.utf8.count, alignment: 1)
        defer { bytes.deallocate() }
        bytes.copyBytes(from: text.utf8)
        return try IMUCSVParser.parseAll(UnsafeRawBufferPointer(bytes))
    }

    @Test func fusionFormatIsConvertedToSI() throws {
        let (format, records) = try Self.parse("""
            Time (s),Gyroscope X (deg/s),Gyroscope Y (deg/s),Gyroscope Z (deg/s),Accelerometer X (g),Accelerometer Y (g),Accelerometer Z (g),Magnetometer X (uT),Magnetometer Y (uT),Magnetometer Z (uT)
            0.010078907,90,-180,0,0,0.5,1,15.3,0.43,-41.06
            """)
        #expect(format == .fusion && records.count == 1)
        let s = records[0].sample
        #expect(s.timestampNanoseconds == 10_078_907)
        #expect(abs(s.gyroRadiansPerSecond.x - Double.pi / 2) < 1e-12 && abs(s.gyroRadiansPerSecond.y + Double.pi) < 1e-12)
        #expect(abs(s.accelerationMetersPerSecondSquared.y - 4.903325) < 1e-12)
        #expect(abs(s.accelerationMetersPerSecondSquared.z - 9.80665) < 1e-12)
        #expect(s.magneticFieldMicrotesla == Vector3(15.3, 0.43, -41.06))
        #expect(records[0].referenceOrientation == nil && records[0].movement == nil)
    }

    @Test func broadFormatWithReferenceAndCRLF() throws {
        let (format, records) = try Self.parse(
            "time_s,gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s,acc_x_m_s2,acc_y_m_s2,acc_z_m_s2,mag_x_uT,mag_y_uT,mag_z_uT,ref_qw,ref_qx,ref_qy,ref_qz,movement,ref_yaw_enu_deg,ref_heading_mag_deg\r\n"
            + "0.000000,5.217422e-19,0.004260349,-0.002131047,0.08211229,0.04034021,9.831622,0.257508,15.63173,-40.00887,nan,nan,nan,nan,0,nan,nan\r\n"
            + "0.003500,0.1,0.2,0.3,0,0,9.8,1,2,3,2,0,0,0,1,90.0,0.0\r\n\r\n")
        #expect(format == .broad && records.count == 2)
        #expect(records[0].referenceOrientation == nil && records[0].movement == false)
        #expect(records[1].referenceOrientation == .identity && records[1].movement == true)   // normalised
        #expect(records[1].sample.timestampNanoseconds == 3_500_000)
        #expect(records[1].sample.gyroRadiansPerSecond == Vector3(0.1, 0.2, 0.3))
    }

    @Test func columnsAreFoundByNameAndMagnetometerIsOptional() throws {
        let (format, records) = try Self.parse("""
            Accelerometer Z (g), Time (s), Gyroscope Z (deg/s), Gyroscope Y (deg/s), Gyroscope X (deg/s), Accelerometer X (g), Accelerometer Y (g), Temperature (C)
            1, 2.5, 0, 0, 0, 0, 0, 21
            """)
        #expect(format == .fusion)
        #expect(records[0].timeSeconds == 2.5 && records[0].sample.magneticFieldMicrotesla == nil)
        #expect(abs(records[0].sample.accelerationMetersPerSecondSquared.z - 9.80665) < 1e-12)
    }

    /// `Int64(time * 1e9)` trapped for |time| ≥ 9.2e9 s ("Double value cannot be converted to Int64").
    @Test func timesBeyondInt64NanosecondsAreAnError() {
        let header = "time_s,gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s,acc_x_m_s2,acc_y_m_s2,acc_z_m_s2,mag_x_uT,mag_y_uT,mag_z_uT\n"
        for (time, value) in [("1e10", 1e10), ("-1e10", -1e10), ("4.0000001e9", 4.0000001e9)] {
            #expect(throws: IMUCSVError.timeOutOfRange(line: 3, seconds: value)) {
                try Self.parse(header + "0,0,0,0,0,0,9.8,1,2,3\n" + time + ",0,0,0,0,0,9.8,1,2,3\n")
            }
        }
        let edge = try? Self.parse(header + "4e9,0,0,0,0,0,9.8,1,2,3\n-4e9,0,0,0,0,0,9.8,1,2,3\n")
        #expect(edge?.1.map(\.sample.timestampNanoseconds) == [4_000_000_000_000_000_000, -4_000_000_000_000_000_000])
        #expect(IMUCSVError.timeOutOfRange(line: 3, seconds: 1e10).message
            == "CSV line 3: the time 10000000000.0 s is outside ±4e9 s (126 years): the time column must be seconds; fix the value")
    }

    @Test func errorsNameTheLineAndColumn() {
        #expect(throws: IMUCSVError.unrecognizedHeader(missing: "Time (s)")) {
            try Self.parse("t,gx,gy,gz\n1,2,3,4\n")
        }
        #expect(throws: IMUCSVError.badNumber(line: 3, column: 2)) {
            try Self.parse("""
                time_s,gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s,acc_x_m_s2,acc_y_m_s2,acc_z_m_s2,mag_x_uT,mag_y_uT,mag_z_uT
                0,0,0,0,0,0,9.8,1,2,3
                0.01,x,0,0,0,0,9.8,1,2,3
                """)
        }
        #expect(throws: IMUCSVError.missingFields(line: 2, found: 3, expected: 10)) {
            try Self.parse("""
                time_s,gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s,acc_x_m_s2,acc_y_m_s2,acc_z_m_s2,mag_x_uT,mag_y_uT,mag_z_uT
                0,0,0
                """)
        }
        #expect(IMUCSVError.badNumber(line: 3, column: 2).message.contains("line 3, column 2"))
        #expect(IMUCSVError.unrecognizedHeader(missing: "Time (s)").message.contains("BROAD format"))
    }

    @Test func fixturesParseCompletely() {
        #expect(IMUFixtures.broad07.count == 52_518)
        #expect(IMUFixtures.broad30.count == 50_059)
        #expect(IMUFixtures.fusionExample.count == 13_514)
        // BROAD: 285.714 Hz, t = index / rate.
        let r = IMUFixtures.broad07
        #expect(abs(r[1].timeSeconds - 0.0035) < 1e-9 && r.last!.sample.timestampNanoseconds > 183_000_000_000)
        #expect(r.filter { $0.referenceOrientation == nil }.count == 1594)
    }
}
