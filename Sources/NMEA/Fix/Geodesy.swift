import Angles
import Glibc

/// Distances and bearings on the WGS84 ellipsoid.
public enum Geodesy {
    /// WGS84 semi-major axis, metres.
    public static let semiMajorAxisMeters = 6_378_137.0
    /// WGS84 flattening.
    public static let flattening = 1 / 298.257_223_563

    /// Geodesic distance in metres and initial bearing in degrees (clockwise from true north, 0 ..< 360;
    /// nil for coincident points) from point 1 to point 2, by Vincenty's inverse formula (1975), the
    /// same method gpsd uses to synthesize speed. Accurate to well below a millimetre; for nearly
    /// antipodal points where the iteration does not converge, falls back to a spherical estimate.
    public static func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double)
        -> (distanceMeters: Double, initialBearingDegrees: Double?) {
        let a = semiMajorAxisMeters
        let f = flattening
        let b = (1 - f) * a
        let radians = Angle.radiansPerDegree
        let deltaLongitude = (longitude2 - longitude1) * radians
        let u1 = atan((1 - f) * tan(latitude1 * radians))
        let u2 = atan((1 - f) * tan(latitude2 * radians))
        let sinU1 = sin(u1), cosU1 = cos(u1), sinU2 = sin(u2), cosU2 = cos(u2)

        var lambda = deltaLongitude
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cosSquaredAlpha = 0.0, cos2SigmaM = 0.0
        var sinLambda = 0.0, cosLambda = 0.0
        var converged = false
        for _ in 0..<100 {
            sinLambda = sin(lambda)
            cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return (0, nil) }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSquaredAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha : 0
            let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda = deltaLongitude + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 { converged = true; break }
        }
        guard converged else {
            return sphericalInverse(latitude1: latitude1, longitude1: longitude1,
                                    latitude2: latitude2, longitude2: longitude2)
        }
        let uSquared = cosSquaredAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSquared / 16_384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        let distance = b * bigA * (sigma - deltaSigma)
        let bearing = atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) / radians
        return (distance, Angle.wrap360(bearing))
    }

    /// Great-circle distance (mean Earth radius) and initial bearing: the fallback for antipodes.
    static func sphericalInverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double)
        -> (distanceMeters: Double, initialBearingDegrees: Double?) {
        let radians = Angle.radiansPerDegree
        let phi1 = latitude1 * radians, phi2 = latitude2 * radians
        let dPhi = phi2 - phi1, dLambda = (longitude2 - longitude1) * radians
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        let distance = 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        return (distance, distance == 0 ? nil : Angle.wrap360(atan2(y, x) / radians))
    }
}
