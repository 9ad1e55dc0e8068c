import NMEA
@testable import Tracking
#if canImport(Glibc)
import Glibc
#endif

/// One second in nanoseconds.
let second: Int64 = 1_000_000_000
/// Milliseconds → nanoseconds.
func ms(_ milliseconds: Int64) -> Int64 { milliseconds * 1_000_000 }

/// Berlin Alexanderplatz, the default test position.
let berlin = GeoCoordinate(latitudeDegrees: 52.5219, longitudeDegrees: 13.4132)

/// A 3D fix at a coordinate with the given extras.
func makeFix(_ c: GeoCoordinate, accuracy: Double? = 5, course: Double? = nil, speed: Double? = nil,
             trueHeading: Double? = nil, utc: Int64? = nil) -> Fix {
    var fix = Fix(timeOfDayNanoseconds: 0)
    fix.mode = .threeD
    fix.quality = .gps
    fix.latitudeDegrees = c.latitudeDegrees
    fix.longitudeDegrees = c.longitudeDegrees
    fix.horizontalAccuracyMeters = accuracy
    fix.courseDegrees = course
    fix.speedMetersPerSecond = speed
    fix.trueHeadingDegrees = trueHeading
    fix.utcNanoseconds = utc
    return fix
}

/// A coordinate `northMeters` north and `eastMeters` east of `c` (small distances, spherical).
func offset(_ c: GeoCoordinate, northMeters: Double, eastMeters: Double = 0) -> GeoCoordinate {
    let r = WebMercator.earthRadiusMeters
    let dLat = northMeters / r * 180 / Double.pi
    let dLon = eastMeters / (r * cos(c.latitudeDegrees * Double.pi / 180)) * 180 / Double.pi
    return GeoCoordinate(latitudeDegrees: c.latitudeDegrees + dLat, longitudeDegrees: c.longitudeDegrees + dLon)
}

/// A core with a modified default configuration.
func makeCore(_ configure: (inout TrackingConfiguration) -> Void = { _ in }) -> TrackingCore {
    var config = TrackingConfiguration()
    configure(&config)
    return try! TrackingCore(configuration: config)
}

/// All waiting events, oldest first.
func drain(_ core: inout TrackingCore) -> [TrackingEvent] {
    var out: [TrackingEvent] = []
    while let e = core.popEvent() { out.append(e.event) }
    return out
}

/// Ticks every 16 ms from `from` (exclusive) to `to` (inclusive, always ticked last).
func run(_ core: inout TrackingCore, from: Int64, to: Int64) {
    var t = from + ms(16)
    while t < to { core.tick(atNanoseconds: t); t += ms(16) }
    core.tick(atNanoseconds: to)
}

/// A core that follows the user near Berlin in state Changed (first fly done, nothing animating),
/// camera at `zoom`; returns it and the time reached.
func followingCore(zoom: Double = 16, mode: TrackingMode = .follow,
                   _ configure: (inout TrackingConfiguration) -> Void = { _ in }) -> (TrackingCore, Int64) {
    var core = makeCore(configure)
    core.setCamera(CameraOptions(center: berlin, zoom: zoom), durationSeconds: 0, atNanoseconds: 0)
    core.updateLocation(makeFix(offset(berlin, northMeters: 30)), atNanoseconds: ms(10))
    core.setTrackingMode(mode, animated: true, atNanoseconds: ms(20))
    var t = ms(20)
    while core.currentTrackingState != .changed && t < 20 * second {
        t += ms(16)
        core.tick(atNanoseconds: t)
    }
    t += second
    core.tick(atNanoseconds: t)
    _ = drain(&core)
    return (core, t)
}

/// |a − b| ≤ tolerance.
func near(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance }
