import Angles
import NMEA

/// Decimal years, the time argument of the World Magnetic Model.
public enum DecimalYear {
    /// year + (day_of_year − 1 + fraction_of_day) / days_in_year, from UTC nanoseconds since 1970
    /// (the convention of NOAA's software and of pygeomag).
    public static func from(utcNanoseconds: Int64) -> Double {
        var days = utcNanoseconds / 86_400_000_000_000
        var remainder = utcNanoseconds % 86_400_000_000_000
        if remainder < 0 {
            remainder += 86_400_000_000_000
            days -= 1
        }
        let (year, _, _) = CivilDate.fromDaysSinceEpoch(days)
        let start = CivilDate.daysSinceEpoch(year: year, month: 1, day: 1)
        let next = CivilDate.daysSinceEpoch(year: year + 1, month: 1, day: 1)
        let dayOfYear = Double(days - start) + Double(remainder) / 86_400_000_000_000
        return Double(year) + dayOfYear / Double(next - start)
    }
}

/// The magnetic declination (and the rest of the WMM field) at the current position, recomputed only
/// when the position moved by more than `refreshDegrees` or a day passed — cheap enough for every fix
/// anyway (one WMM evaluation is a few microseconds), and allocation-free.
public struct DeclinationTracker: Sendable {
    /// The model evaluated.
    public let model: WorldMagneticModel
    /// The field at the last position, nil until a position and date are known.
    public private(set) var elements: MagneticFieldElements?
    /// Position change that triggers a recomputation, degrees of latitude/longitude.
    public var refreshDegrees: Double = 0.01
    private var latitudeDegrees = 0.0, longitudeDegrees = 0.0, heightKilometers = 0.0, decimalYear = 0.0

    public init(model: WorldMagneticModel = .wmm2025) {
        self.model = model
    }

    /// Declination, degrees east-positive, when known.
    public var declinationDegrees: Double? { elements?.declinationDegrees }

    /// Updates the position (WGS84 degrees, height in metres, ellipsoidal or MSL) and time.
    public mutating func update(latitudeDegrees lat: Double, longitudeDegrees lon: Double, heightMeters: Double,
                                utcNanoseconds: Int64) {
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 360 else { return }
        let height = heightMeters.isFinite ? heightMeters / 1000 : 0
        let year = DecimalYear.from(utcNanoseconds: utcNanoseconds)
        if elements != nil && abs(lat - latitudeDegrees) < refreshDegrees
            && abs(Angle.wrap180(lon - longitudeDegrees)) < refreshDegrees
            && abs(height - heightKilometers) < 1 && abs(year - decimalYear) < 1.0 / 365 {
            return
        }
        latitudeDegrees = lat
        longitudeDegrees = lon
        heightKilometers = height
        decimalYear = year
        elements = model.field(latitudeDegrees: lat, longitudeDegrees: lon, heightKilometers: height, decimalYear: year)
    }

    /// Updates from a GPS fix; ignored when the fix has no position or no date.
    public mutating func update(fix: Fix) {
        guard fix.hasPosition, let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees,
              let utc = fix.utcNanoseconds else { return }
        update(latitudeDegrees: lat, longitudeDegrees: lon,
               heightMeters: fix.altitudeEllipsoidMeters ?? fix.altitudeMSLMeters ?? 0, utcNanoseconds: utc)
    }
}
