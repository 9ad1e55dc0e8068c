import Console
import Heading
import IMU

/// gpsd's attitude class `ATT` from puckd's fused IMU (docs/gpsd-protocol.md §2.6): heading (true when
/// the declination is known, else magnetic), mheading, pitch, roll, the magnetometer's calibration
/// state as gpsd's `mag_st`, and the raw acceleration (m/s²), rotation rate (deg/s) and magnetic
/// field (µT) of the sample fused last. Allocation-free.
public enum GpsdAttitudeReport {
    /// gpsd's magnetometer status letter: `N` normal (calibrated), `C` calibration alarm.
    public static func magnetometerStatus(_ s: MagnetometerCalibrationState) -> StaticString {
        s == .calibrated ? "N" : "C"
    }

    /// `{"class":"ATT",…}`. `utcNanoseconds` is the time of the estimate on the UTC clock (the last
    /// fix's UTC carried forward by the monotonic clock), nil when no fix has dated the device yet.
    public static func append(_ e: HeadingEstimate, sample: IMUSample?, utcNanoseconds: Int64?,
                              device: borrowing GpsdShortText, to out: inout OutputBuffer) {
        out.append("{\"class\":\"ATT\",\"device\":")
        device.withBytes { JSONWriter.string($0, &out) }
        if let utc = utcNanoseconds {
            out.append(",\"time\":\""); out.append(isoTime: utc, fractionDigits: 3); out.append(UInt8(ascii: "\""))
        }
        GpsdFixReports.number("heading", e.trueHeadingDegrees ?? e.magneticHeadingDegrees, 2, &out)
        GpsdFixReports.number("mheading", e.magneticHeadingDegrees, 2, &out)
        out.append(",\"mag_st\":\""); out.append(magnetometerStatus(e.calibrationState)); out.append(UInt8(ascii: "\""))
        GpsdFixReports.number("pitch", e.pitchDegrees, 2, &out)
        GpsdFixReports.number("roll", e.rollDegrees, 2, &out)
        if let a = e.headingAccuracyDegrees { GpsdFixReports.number("heading_acc", a, 2, &out) }
        if let s = sample {
            let acc = s.accelerationMetersPerSecondSquared
            GpsdFixReports.number("acc_x", acc.x, 3, &out)
            GpsdFixReports.number("acc_y", acc.y, 3, &out)
            GpsdFixReports.number("acc_z", acc.z, 3, &out)
            GpsdFixReports.number("acc_len", (acc.x * acc.x + acc.y * acc.y + acc.z * acc.z).squareRoot(), 3, &out)
            let degrees = 180.0 / Double.pi
            GpsdFixReports.number("gyro_x", s.gyroRadiansPerSecond.x * degrees, 3, &out)
            GpsdFixReports.number("gyro_y", s.gyroRadiansPerSecond.y * degrees, 3, &out)
            GpsdFixReports.number("gyro_z", s.gyroRadiansPerSecond.z * degrees, 3, &out)
            if let m = s.magneticFieldMicrotesla {
                GpsdFixReports.number("mag_x", m.x, 2, &out)
                GpsdFixReports.number("mag_y", m.y, 2, &out)
                GpsdFixReports.number("mag_z", m.z, 2, &out)
                GpsdFixReports.number("mag_len", (m.x * m.x + m.y * m.y + m.z * m.z).squareRoot(), 2, &out)
            }
            GpsdFixReports.number("temp", s.temperatureCelsius, 1, &out)
        }
        out.append("}\r\n")
    }
}
