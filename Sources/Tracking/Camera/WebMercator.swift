import Angles
import Glibc

/// A position on the Web Mercator world square, in world units: x 0...1 from 180° W eastwards,
/// y 0...1 from 85.0511° N southwards. Multiply by `WebMercator.worldSizePoints(zoom:)` for points.
/// x may leave 0...1 when a longitude is unwrapped for the shortest path.
public struct MercatorPoint: Sendable, Equatable {
    /// East coordinate, world units (1 = one world width).
    public var x: Double
    /// South coordinate, world units (1 = one world height).
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Web Mercator maths of MapLibre / Mapbox (tracking.md 12): 512-pt tiles, worldSize = 512 · 2^zoom,
/// latitude clamped to ±85.051128779806604°, zoom 0...25.5, pitch 0...85.
public enum WebMercator {
    /// WGS84 equatorial radius, metres (mbgl `util::EARTH_RADIUS_M`).
    public static let earthRadiusMeters = 6_378_137.0
    /// Tile size, points (`util::tileSize_D`; tracking.md 12.1).
    public static let tileSizePoints = 512.0
    /// Largest latitude Web Mercator shows, degrees (`util::LATITUDE_MAX`).
    public static let maximumLatitudeDegrees = 85.051128779806604
    /// Smallest zoom the core supports (`util::MIN_ZOOM`).
    public static let minimumZoom = 0.0
    /// Largest zoom the core supports (`util::MAX_ZOOM` = 25.5).
    public static let maximumZoomLimit = 25.5
    /// Default maximum zoom (MapLibre `DEFAULT_MAX_ZOOM`, Mapbox CameraBoundsOptions): 22.
    public static let defaultMaximumZoom = 22.0
    /// Default maximum pitch, degrees (MapLibre `DEFAULT_PITCH_MAX` = π/3; tracking.md 12.5).
    public static let defaultMaximumPitchDegrees = 60.0
    /// Largest maximum pitch the configuration accepts, degrees (Mapbox's default; tracking.md 12.5, Q5).
    public static let pitchLimitDegrees = 85.0
    /// The core's default vertical field of view, radians: 2·atan(1/3) ≈ 0.6435 (36.87°; tracking.md 12.6).
    public static let verticalFieldOfViewRadians = 2 * atan(1.0 / 3.0)
    /// MapLibre iOS `MLNAngularFieldOfView`, degrees, used only for camera altitude (tracking.md 12.6).
    public static let altitudeFieldOfViewDegrees = 30.0


    /// Latitude clamped to ±85.051128779806604°.
    @inline(__always)
    public static func clampLatitude(_ latitudeDegrees: Double) -> Double {
        min(max(latitudeDegrees, -maximumLatitudeDegrees), maximumLatitudeDegrees)
    }

    /// Zoom clamped to 0...25.5.
    @inline(__always)
    public static func clampZoom(_ zoom: Double) -> Double { min(max(zoom, minimumZoom), maximumZoomLimit) }

    /// World width at `zoom`, points: 512 · 2^zoom.
    @inline(__always)
    public static func worldSizePoints(zoom: Double) -> Double { tileSizePoints * exp2(zoom) }

    /// The world-unit position of a coordinate (mbgl `Projection::project` divided by worldSize).
    public static func project(_ coordinate: GeoCoordinate) -> MercatorPoint {
        let latitude = clampLatitude(coordinate.latitudeDegrees)
        let x = (180 + coordinate.longitudeDegrees) / 360
        let y = (180 - Angle.degreesPerRadian * log(tan(Double.pi / 4 + latitude * Double.pi / 360))) / 360
        return MercatorPoint(x: x, y: y)
    }

    /// The coordinate of a world-unit position (mbgl `Projection::unproject`). Longitude is wrapped
    /// to −180...180 when `wrap` is true.
    public static func unproject(_ point: MercatorPoint, wrap: Bool = true) -> GeoCoordinate {
        let y2 = 180 - point.y * 360
        let latitude = 360 / Double.pi * atan(exp(y2 * Angle.radiansPerDegree)) - 90
        var longitude = point.x * 360 - 180
        if wrap { longitude = Angle.wrapLongitude(longitude) }
        return GeoCoordinate(latitudeDegrees: clampLatitude(latitude), longitudeDegrees: longitude)
    }

    /// Ground metres per screen point at a latitude and zoom (tracking.md 12.2,
    /// mbgl `Projection::getMetersPerPixelAtLatitude`): cos(lat)·2πR / (512·2^z), lat clamped
    /// to ±85.0511°, zoom clamped to 0...25.5.
    public static func metersPerPoint(latitudeDegrees: Double, zoom: Double) -> Double {
        let latitude = clampLatitude(latitudeDegrees)
        return cos(latitude * Angle.radiansPerDegree) * 2 * Double.pi * earthRadiusMeters
            / worldSizePoints(zoom: clampZoom(zoom))
    }

    /// The zoom at which one point covers `metersPerPoint` ground metres at a latitude (inverse of
    /// `metersPerPoint`, not clamped).
    public static func zoom(metersPerPoint: Double, latitudeDegrees: Double) -> Double {
        let latitude = clampLatitude(latitudeDegrees)
        return log2(cos(latitude * Angle.radiansPerDegree) * 2 * Double.pi * earthRadiusMeters
                    / (metersPerPoint * tileSizePoints))
    }

    /// Camera altitude in metres for a zoom, pitch, latitude and view height (MapLibre iOS
    /// `MLNAltitudeForZoomLevel`, field of view 30°; tracking.md 12.6).
    public static func altitudeMeters(zoom: Double, pitchDegrees: Double, latitudeDegrees: Double,
                                      viewHeightPoints: Double) -> Double {
        let metersTall = metersPerPoint(latitudeDegrees: latitudeDegrees, zoom: zoom) * viewHeightPoints
        let altitude = metersTall / 2 / tan(altitudeFieldOfViewDegrees * Angle.radiansPerDegree / 2)
        return altitude * sin(Double.pi / 2 - pitchDegrees * Angle.radiansPerDegree)
    }

    /// Zoom for a camera altitude in metres (MapLibre iOS `MLNZoomLevelForAltitude`; inverse of
    /// `altitudeMeters`).
    public static func zoom(altitudeMeters: Double, pitchDegrees: Double, latitudeDegrees: Double,
                            viewHeightPoints: Double) -> Double {
        let eyeAltitude = altitudeMeters / sin(Double.pi / 2 - pitchDegrees * Angle.radiansPerDegree)
        let metersTall = eyeAltitude * 2 * tan(altitudeFieldOfViewDegrees * Angle.radiansPerDegree / 2)
        let metersPerPoint = metersTall / viewHeightPoints
        let worldWidth = cos(clampLatitude(latitudeDegrees) * Angle.radiansPerDegree) * 2 * Double.pi
            * earthRadiusMeters / metersPerPoint
        return log2(worldWidth / tileSizePoints)
    }

    /// Spherical-Mercator projected metres (mbgl `projectedMetersForLatLng`): easting, northing.
    public static func projectedMeters(_ coordinate: GeoCoordinate) -> (eastingMeters: Double, northingMeters: Double) {
        let latitude = clampLatitude(coordinate.latitudeDegrees)
        let easting = earthRadiusMeters * coordinate.longitudeDegrees * Angle.radiansPerDegree
        let northing = earthRadiusMeters * log(tan(Double.pi / 4 + latitude * Angle.radiansPerDegree / 2))
        return (easting, northing)
    }

    /// Great-circle distance between two coordinates, metres (haversine on the WGS84 equatorial
    /// radius, as `CLLocation.distance(from:)` is approximated by MapLibre's helpers).
    public static func distanceMeters(_ a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
        let lat1 = a.latitudeDegrees * Angle.radiansPerDegree, lat2 = b.latitudeDegrees * Angle.radiansPerDegree
        let dLat = lat2 - lat1
        let dLon = (b.longitudeDegrees - a.longitudeDegrees) * Angle.radiansPerDegree
        let s1 = sin(dLat / 2), s2 = sin(dLon / 2)
        let h = s1 * s1 + cos(lat1) * cos(lat2) * s2 * s2
        return 2 * earthRadiusMeters * atan2(h.squareRoot(), max(0, 1 - h).squareRoot())
    }
}
