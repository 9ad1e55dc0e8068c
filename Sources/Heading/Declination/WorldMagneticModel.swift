import IMU
import Angles
#if canImport(Glibc)
import Glibc
#endif

/// The geomagnetic field at one place and time, as the World Magnetic Model gives it.
///
/// X north, Y east, Z down (nanotesla) in the local geodetic frame; angles in degrees; declination
/// east-positive (true bearing = magnetic bearing + declination); inclination down-positive.
/// `…PerYear` members are the secular variation.
public struct MagneticFieldElements: Sendable, Equatable {
    public var northNanotesla: Double
    public var eastNanotesla: Double
    public var downNanotesla: Double
    /// Horizontal intensity H, nT.
    public var horizontalNanotesla: Double
    /// Total intensity F, nT.
    public var totalNanotesla: Double
    /// Inclination (dip) I, degrees, positive down.
    public var inclinationDegrees: Double
    /// Declination D, degrees, positive east.
    public var declinationDegrees: Double
    public var northNanoteslaPerYear: Double
    public var eastNanoteslaPerYear: Double
    public var downNanoteslaPerYear: Double
    public var horizontalNanoteslaPerYear: Double
    public var totalNanoteslaPerYear: Double
    public var inclinationDegreesPerYear: Double
    public var declinationDegreesPerYear: Double
    /// False when the date is outside the model's validity (WMM2025: 2025.0 ..< 2030.0).
    public var isWithinValidityPeriod: Bool

    /// H below 2000 nT: the compass is unreliable (the WMM "blackout zone" around the magnetic poles).
    public var isInBlackoutZone: Bool { horizontalNanotesla < 2000 }
    /// H below 6000 nT: the WMM "caution zone".
    public var isInCautionZone: Bool { horizontalNanotesla < 6000 }
    /// Total intensity in microtesla (the unit of `IMUSample.magneticFieldMicrotesla`).
    public var totalMicrotesla: Double { totalNanotesla / 1000 }
}

/// The World Magnetic Model: a degree-12 spherical-harmonic model of the main geomagnetic field
/// (NOAA NCEI / BGS; algorithm as in "The US/UK World Magnetic Model for 2025–2030: Technical
/// Report", sections 1.2–1.3: geodetic → geocentric on WGS84, Schmidt semi-normalised associated
/// Legendre functions, rotation back to the geodetic frame).
///
/// Evaluation allocates nothing: every per-model quantity (coefficient layout, Schmidt factors,
/// recursion constants) is precomputed in `init`, the per-call work lives in fixed-size stack arrays.
/// A class (immutable, shared): the tables are 4 KB, holders keep a reference instead of a copy.
public final class WorldMagneticModel: Sendable {
    /// Maximum degree and order.
    public static let maximumDegree = 12
    /// Number of (n, m) terms including n = 0: 13·14/2.
    static let termCount = 91

    /// Coefficient epoch, decimal year.
    public let epochYear: Double
    /// Years the model is valid for.
    public let validYears: Range<Double>
    private let g: InlineArray<91, Double>
    private let h: InlineArray<91, Double>
    private let gDot: InlineArray<91, Double>
    private let hDot: InlineArray<91, Double>
    /// Gauss → Schmidt semi-normalisation factors.
    private let schmidt: InlineArray<91, Double>
    /// Recursion constants ((n−1)² − m²) / ((2n−1)(2n−3)).
    private let recursion: InlineArray<91, Double>

    /// WGS84 semi-major axis, km.
    static let semiMajorKilometers = 6378.137
    /// WGS84 first eccentricity squared, e² = f(2 − f), f = 1/298.257223563.
    static let eccentricitySquared: Double = {
        let f = 1 / 298.257223563
        return f * (2 - f)
    }()
    /// Geomagnetic reference radius, km.
    static let referenceRadiusKilometers = 6371.2

    /// WMM2025, compiled into the binary.
    public static let wmm2025 = WorldMagneticModel(epochYear: wmm2025Epoch, validYears: wmm2025ValidYears,
                                                   rows: wmm2025Coefficients)

    /// A model from `rows`: for n = 1…12, m = 0…n in order, four numbers g, h, ġ, ḣ.
    init(epochYear: Double, validYears: Range<Double>, rows: InlineArray<360, Double>) {
        self.epochYear = epochYear
        self.validYears = validYears
        var g = InlineArray<91, Double>(repeating: 0), h = g, gDot = g, hDot = g, schmidt = g, recursion = g
        for i in 0..<90 {
            g[i + 1] = rows[4 * i]
            h[i + 1] = rows[4 * i + 1]
            gDot[i + 1] = rows[4 * i + 2]
            hDot[i + 1] = rows[4 * i + 3]
        }
        schmidt[0] = 1
        for n in 1...12 {
            let index = n * (n + 1) / 2, previous = (n - 1) * n / 2
            schmidt[index] = schmidt[previous] * Double(2 * n - 1) / Double(n)
            for m in 1...n {
                let factor = Double((n - m + 1) * (m == 1 ? 2 : 1)) / Double(n + m)
                schmidt[index + m] = schmidt[index + m - 1] * factor.squareRoot()
            }
            for m in 0...n where n > 1 && m <= n - 2 {
                recursion[index + m] = Double((n - 1) * (n - 1) - m * m) / Double((2 * n - 1) * (2 * n - 3))
            }
        }
        self.g = g
        self.h = h
        self.gDot = gDot
        self.hDot = hDot
        self.schmidt = schmidt
        self.recursion = recursion
    }

    /// The coefficients of term (n, m) at `decimalYear`: (g, h) in nT.
    public func coefficients(n: Int, m: Int) -> (g: Double, h: Double, gDot: Double, hDot: Double) {
        let i = n * (n + 1) / 2 + m
        return (g[i], h[i], gDot[i], hDot[i])
    }

    /// The field at a geodetic position (WGS84 latitude/longitude in degrees, height above the
    /// ellipsoid in km; GPS altitude above mean sea level is close enough for declination) and time
    /// (decimal year, see `DecimalYear`).
    public func field(latitudeDegrees: Double, longitudeDegrees: Double, heightKilometers: Double,
                      decimalYear: Double) -> MagneticFieldElements {
        // Geodetic → geocentric spherical.
        let phi = latitudeDegrees * Angle.radiansPerDegree
        let sinLat = sin(phi), cosLat = cos(phi)
        let e2 = WorldMagneticModel.eccentricitySquared
        let rc = WorldMagneticModel.semiMajorKilometers / (1 - e2 * sinLat * sinLat).squareRoot()
        let xp = (rc + heightKilometers) * cosLat
        let zp = (rc * (1 - e2) + heightKilometers) * sinLat
        let r = (xp * xp + zp * zp).squareRoot()
        let sinPhiG = zp / r
        let phiG = asin(sinPhiG)
        let cosPhiG = cos(phiG)
        let lambda = longitudeDegrees * Angle.radiansPerDegree

        // Legendre functions of sin φ' (Gauss-normalised recursion, then Schmidt factors).
        var p = InlineArray<91, Double>(repeating: 0)
        var dp = InlineArray<91, Double>(repeating: 0)
        let x = sinPhiG, z = ((1 - x) * (1 + x)).squareRoot()
        p[0] = 1
        for n in 1...12 {
            let base = n * (n + 1) / 2, previous = (n - 1) * n / 2
            for m in 0...n {
                let i = base + m
                if n == m {
                    let j = previous + m - 1
                    p[i] = z * p[j]
                    dp[i] = z * dp[j] + x * p[j]
                } else if n == 1 {
                    p[i] = x * p[0]
                    dp[i] = x * dp[0] - z * p[0]
                } else {
                    let j2 = previous + m
                    if m > n - 2 {
                        p[i] = x * p[j2]
                        dp[i] = x * dp[j2] - z * p[j2]
                    } else {
                        let j1 = (n - 2) * (n - 1) / 2 + m
                        let k = recursion[i]
                        p[i] = x * p[j2] - k * p[j1]
                        dp[i] = x * dp[j2] - z * p[j2] - k * dp[j1]
                    }
                }
            }
        }

        // Longitude harmonics and radius powers.
        var cosM = InlineArray<13, Double>(repeating: 0)
        var sinM = InlineArray<13, Double>(repeating: 0)
        var radiusPower = InlineArray<13, Double>(repeating: 0)
        cosM[0] = 1
        cosM[1] = cos(lambda)
        sinM[1] = sin(lambda)
        for m in 2...12 {
            cosM[m] = cosM[m - 1] * cosM[1] - sinM[m - 1] * sinM[1]
            sinM[m] = cosM[m - 1] * sinM[1] + sinM[m - 1] * cosM[1]
        }
        let ratio = WorldMagneticModel.referenceRadiusKilometers / r
        var power = ratio * ratio
        for n in 1...12 {
            power *= ratio
            radiusPower[n] = power                     // (a/r)^(n+2)
        }

        // Summation in geocentric spherical coordinates (field and secular variation).
        let years = decimalYear - epochYear
        var bx = 0.0, by = 0.0, bz = 0.0, sx = 0.0, sy = 0.0, sz = 0.0
        for n in 1...12 {
            let base = n * (n + 1) / 2
            let rp = radiusPower[n]
            for m in 0...n {
                let i = base + m
                let pn = p[i] * schmidt[i], dpn = -dp[i] * schmidt[i]
                let gt = g[i] + years * gDot[i], ht = h[i] + years * hDot[i]
                let cosTerm = gt * cosM[m] + ht * sinM[m]
                let sinTerm = gt * sinM[m] - ht * cosM[m]
                let cosDot = gDot[i] * cosM[m] + hDot[i] * sinM[m]
                let sinDot = gDot[i] * sinM[m] - hDot[i] * cosM[m]
                bz -= rp * cosTerm * Double(n + 1) * pn
                by += rp * sinTerm * Double(m) * pn
                bx -= rp * cosTerm * dpn
                sz -= rp * cosDot * Double(n + 1) * pn
                sy += rp * sinDot * Double(m) * pn
                sx -= rp * cosDot * dpn
            }
        }
        let cosGuard = max(abs(cosPhiG), 1e-12)
        by /= cosGuard
        sy /= cosGuard

        // Rotate from geocentric to geodetic.
        let psi = phiG - phi
        let cosPsi = cos(psi), sinPsi = sin(psi)
        let north = bx * cosPsi - bz * sinPsi, down = bx * sinPsi + bz * cosPsi
        let northDot = sx * cosPsi - sz * sinPsi, downDot = sx * sinPsi + sz * cosPsi
        let east = by, eastDot = sy

        let horizontal = (north * north + east * east).squareRoot()
        let total = (horizontal * horizontal + down * down).squareRoot()
        let horizontalDot = horizontal > 0 ? (north * northDot + east * eastDot) / horizontal : 0
        let totalDot = total > 0 ? (north * northDot + east * eastDot + down * downDot) / total : 0
        let declinationDot = horizontal > 0 ? (north * eastDot - east * northDot) / (horizontal * horizontal) : 0
        let inclinationDot = total > 0 ? (horizontal * downDot - down * horizontalDot) / (total * total) : 0
        return MagneticFieldElements(
            northNanotesla: north, eastNanotesla: east, downNanotesla: down,
            horizontalNanotesla: horizontal, totalNanotesla: total,
            inclinationDegrees: atan2(down, horizontal) * Angle.degreesPerRadian,
            declinationDegrees: atan2(east, north) * Angle.degreesPerRadian,
            northNanoteslaPerYear: northDot, eastNanoteslaPerYear: eastDot, downNanoteslaPerYear: downDot,
            horizontalNanoteslaPerYear: horizontalDot, totalNanoteslaPerYear: totalDot,
            inclinationDegreesPerYear: inclinationDot * Angle.degreesPerRadian,
            declinationDegreesPerYear: declinationDot * Angle.degreesPerRadian,
            isWithinValidityPeriod: validYears.contains(decimalYear))
    }
}
