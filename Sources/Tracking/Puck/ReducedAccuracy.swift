import Angles
import Glibc

/// How reduced accuracy authorization coarsens positions (our method; iOS does not publish its own).
///
/// Each position is snapped to the centre of a cell of a fixed grid, `gridMeters` on a side: the
/// latitude step is gridMeters / 111 319.49 m per degree; the longitude step is the same distance
/// at the cell's (snapped) latitude, so every position inside a cell maps to the same centre and
/// the output only changes when the device crosses into another cell. The accuracy reported is the
/// fix's accuracy + the half-diagonal of a cell (gridMeters / √2), an honest bound on the error.
/// Course and speed are withheld (they would reveal the precise track), as iOS reports −1 for them
/// under reduced accuracy; compass heading is kept (it is not location).
public enum ReducedAccuracy {
    /// Metres per degree of latitude on the WGS84 equatorial radius: πR/180.
    static let metersPerDegree = Double.pi * WebMercator.earthRadiusMeters / 180

    /// The cell centre for `coordinate` on a grid of `gridMeters`.
    public static func coarsen(_ coordinate: GeoCoordinate, gridMeters: Double) -> GeoCoordinate {
        let latitudeStep = gridMeters / metersPerDegree
        var latitude = (floor(coordinate.latitudeDegrees / latitudeStep) + 0.5) * latitudeStep
        latitude = min(max(latitude, -90), 90)
        let metersPerLongitudeDegree = max(metersPerDegree * cos(latitude * Angle.radiansPerDegree), 1)
        let longitudeStep = min(gridMeters / metersPerLongitudeDegree, 360)
        var longitude = (floor((coordinate.longitudeDegrees + 180) / longitudeStep) + 0.5) * longitudeStep - 180
        longitude = Angle.wrapLongitude(longitude)
        return GeoCoordinate(latitudeDegrees: latitude, longitudeDegrees: longitude)
    }

    /// The accuracy to report for a coarsened position, metres.
    public static func coarsenedAccuracyMeters(_ accuracyMeters: Double?, gridMeters: Double) -> Double {
        (accuracyMeters ?? 0) + gridMeters / 2.0.squareRoot()
    }
}
