import Angles
import Testing
@testable import Tracking
#if canImport(Glibc)
import Glibc
#endif

/// tracking.md 12: Web Mercator maths.
struct WebMercatorTests {
    @Test func rule_12_1_worldIs512PointTilesTimesTwoToTheZoom() {
        #expect(WebMercator.tileSizePoints == 512)
        #expect(WebMercator.worldSizePoints(zoom: 0) == 512)
        #expect(WebMercator.worldSizePoints(zoom: 3) == 4096)
    }

    @Test func rule_12_1_projectUnprojectRoundTrip() {
        let p = WebMercator.project(berlin)
        let back = WebMercator.unproject(p)
        #expect(near(back.latitudeDegrees, berlin.latitudeDegrees, 1e-10))
        #expect(near(back.longitudeDegrees, berlin.longitudeDegrees, 1e-10))
        let origin = WebMercator.project(GeoCoordinate(latitudeDegrees: 0, longitudeDegrees: 0))
        #expect(near(origin.x, 0.5, 1e-15) && near(origin.y, 0.5, 1e-15))
        #expect(WebMercator.project(GeoCoordinate(latitudeDegrees: 0, longitudeDegrees: -180)).x == 0)
    }

    @Test func rule_12_2_latitudeClampedTo85_0511() {
        #expect(WebMercator.maximumLatitudeDegrees == 85.051128779806604)
        let top = WebMercator.project(GeoCoordinate(latitudeDegrees: 89, longitudeDegrees: 0))
        #expect(near(top.y, 0, 1e-12))
        #expect(WebMercator.clampLatitude(-90) == -85.051128779806604)
        #expect(near(WebMercator.unproject(MercatorPoint(x: 0.5, y: -1)).latitudeDegrees, 85.051128779806604, 1e-12))
    }

    @Test func rule_12_2_metersPerPointValues() {
        // z0 at the equator = 78 271.517 m/pt (156 543.034 per 256-px pixel); z14 @0° = 4.777;
        // z14 @52° = 2.941; z16.35 @52° = 0.5769.
        #expect(near(WebMercator.metersPerPoint(latitudeDegrees: 0, zoom: 0), 78_271.517, 0.001))
        #expect(near(WebMercator.metersPerPoint(latitudeDegrees: 0, zoom: 0) * 2, 156_543.034, 0.001))
        #expect(near(WebMercator.metersPerPoint(latitudeDegrees: 0, zoom: 14), 4.777, 0.0005))
        #expect(near(WebMercator.metersPerPoint(latitudeDegrees: 52, zoom: 14), 2.941, 0.0005))
        #expect(near(WebMercator.metersPerPoint(latitudeDegrees: 52, zoom: 16.35), 0.5769, 0.00005))
        #expect(WebMercator.metersPerPoint(latitudeDegrees: 0, zoom: 30) == WebMercator.metersPerPoint(latitudeDegrees: 0, zoom: 25.5))
        #expect(WebMercator.metersPerPoint(latitudeDegrees: 89, zoom: 3)
                == WebMercator.metersPerPoint(latitudeDegrees: 85.051128779806604, zoom: 3))
    }

    @Test func rule_12_4_zoomLimitsDefaultMax22() {
        #expect(WebMercator.minimumZoom == 0 && WebMercator.maximumZoomLimit == 25.5 && WebMercator.defaultMaximumZoom == 22)
        #expect(TrackingConfiguration().maximumZoom == 22)
        var core = makeCore()
        core.setCamera(CameraOptions(zoom: 24), durationSeconds: 0, atNanoseconds: 0)
        core.tick(atNanoseconds: 1)
        #expect(core.camera.zoom == 22)
        var config = TrackingConfiguration()
        config.maximumZoom = 25.6
        #expect(config.validationError()?.field == "maximumZoom")
        config.maximumZoom = 25.5
        #expect(config.validationError() == nil)
    }

    @Test func rule_12_5_pitchDefaultMax60ConfigurableTo85() {
        var core = makeCore()
        core.setCamera(CameraOptions(pitchDegrees: 80), durationSeconds: 0, atNanoseconds: 0)
        core.tick(atNanoseconds: 1)
        #expect(core.camera.pitchDegrees == 60)
        var wide = makeCore { $0.maximumPitchDegrees = 85 }
        wide.setCamera(CameraOptions(pitchDegrees: 80), durationSeconds: 0, atNanoseconds: 0)
        wide.tick(atNanoseconds: 1)
        // 80° is allowed by the configuration; with symmetric padding the padding limit is the
        // configured maximum itself (tracking.md 5.7).
        #expect(wide.camera.pitchDegrees == 80)
        var config = TrackingConfiguration()
        config.maximumPitchDegrees = 86
        #expect(config.validationError()?.field == "maximumPitchDegrees")
    }

    @Test func rule_12_6_altitudeZoomRoundTripAtPitch() {
        let altitude = WebMercator.altitudeMeters(zoom: 14, pitchDegrees: 30, latitudeDegrees: 52, viewHeightPoints: 480)
        let zoom = WebMercator.zoom(altitudeMeters: altitude, pitchDegrees: 30, latitudeDegrees: 52, viewHeightPoints: 480)
        #expect(near(zoom, 14, 1e-9))
        // MLNAngularFieldOfView = 30°: altitude = mpp·H/2 / tan(15°) at pitch 0.
        let a0 = WebMercator.altitudeMeters(zoom: 14, pitchDegrees: 0, latitudeDegrees: 0, viewHeightPoints: 480)
        let mpp = WebMercator.metersPerPoint(latitudeDegrees: 0, zoom: 14)
        #expect(near(a0, mpp * 240 / tan(15 * Double.pi / 180), 1e-6))
        #expect(near(WebMercator.verticalFieldOfViewRadians, 0.6435011087932844, 1e-15))
    }

    @Test func rule_12_7_shortestRotation() {
        #expect(Angle.shortestDelta(from: 350, to: 10) == 20)
        #expect(Angle.shortestDelta(from: 10, to: 350) == -20)
        #expect(Angle.shortestDelta(from: 0, to: 180) == -180)
        #expect(Angle.wrap360(-10) == 350)
        #expect(Angle.wrap360(720) == 0)
        #expect(Angle.interpolateShortest(from: 350, to: 10, fraction: 0.5) == 0)
    }

    @Test func cameraGeometry_projectionInvertsUnderPitchAndBearing() {
        let camera = CameraValues(center: WebMercator.project(berlin), zoom: 15, bearingDegrees: 33,
                                  pitchDegrees: 50, padding: EdgeInsets(topPoints: 100))
        let size = ScreenSize.raspberryPiDisplay
        let ground = WebMercator.project(offset(berlin, northMeters: 120, eastMeters: -40))
        let s = CameraGeometry.screenPoint(of: ground, camera: camera, size: size)!
        let back = CameraGeometry.worldPoint(at: s, camera: camera, size: size)!
        #expect(near(back.x, ground.x, 1e-13) && near(back.y, ground.y, 1e-13))
        // The centre is drawn at the anchor.
        let c = CameraGeometry.screenPoint(of: camera.center, camera: camera, size: size)!
        #expect(c == ScreenPoint(xPoints: 400, yPoints: 290))
    }
}
