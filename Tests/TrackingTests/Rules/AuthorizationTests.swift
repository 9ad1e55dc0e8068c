import Testing
@testable import Tracking
#if canImport(Glibc)
import Glibc
#endif

/// tracking.md 7 (showsUserLocation lifecycle, authorization) and reduced accuracy coarsening.
struct AuthorizationTests {
    @Test func rule_7_1_showingTheLocationStartsLocating() {
        var core = makeCore()
        core.setShowsUserLocation(true, atNanoseconds: 0)
        #expect(drain(&core) == [.willStartLocatingUser])
        core.setShowsUserLocation(true, atNanoseconds: 1)
        #expect(drain(&core).isEmpty)
    }

    @Test func rule_7_2_hidingTheLocationStopsTracking() {
        var (core, t) = followingCore()
        core.setShowsUserLocation(false, atNanoseconds: t)
        #expect(drain(&core) == [.didStopLocatingUser, .didChangeTrackingMode(.none, animated: true)])
        core.tick(atNanoseconds: t + 1)
        #expect(!core.puck.isVisible && core.trackingMode == .none)
    }

    @Test func rule_7_4_deniedStopsTrackingRemovesThePuckAndFails() {
        var (core, t) = followingCore(mode: .followWithCourse)
        core.changeAuthorization(status: .denied, accuracy: .full, atNanoseconds: t)
        #expect(drain(&core) == [.didChangeTrackingMode(.none, animated: true), .didStopLocatingUser,
                                 .didFailToLocateUser(.authorizationDenied), .didChangeAuthorization(.denied, .full)])
        core.updateLocation(makeFix(berlin), atNanoseconds: t + 1)
        core.setShowsUserLocation(true, atNanoseconds: t + 2)
        core.tick(atNanoseconds: t + 3)
        #expect(!core.puck.isVisible && !core.puck.hasLocation && core.rejectedFixCount == 1)
    }

    @Test func rule_7_4_reducedWhileTrackingRequestsTemporaryFullAccuracy_Q12() {
        var (core, t) = followingCore()
        let center = core.camera.center
        core.changeAuthorization(status: .authorized, accuracy: .reduced, atNanoseconds: t)
        #expect(drain(&core) == [.didChangeAuthorization(.authorized, .reduced), .didChangeAuthorization(.authorized, .full)])
        #expect(core.authorization.accuracy == .full)
        // The grant is decided at once: the positions never go coarse, so neither the puck nor the camera
        // heads for the grid cell.
        core.tick(atNanoseconds: t + ms(500))
        #expect(!core.camera.isAnimating && core.camera.center == center && core.puck.style == .dot)
        // Not tracking: no automatic request.
        var idle = makeCore()
        idle.changeAuthorization(status: .authorized, accuracy: .reduced, atNanoseconds: 0)
        #expect(idle.authorization.accuracy == .reduced)
        // Without the key configured: no grant.
        var (noKey, t2) = followingCore { $0.temporaryFullAccuracyPurposeKeys = [] }
        noKey.changeAuthorization(status: .authorized, accuracy: .reduced, atNanoseconds: t2)
        #expect(noKey.authorization.accuracy == .reduced)
    }

    @Test func temporaryFullAccuracyNeedsAConfiguredKeyAndExpires() {
        var core = makeCore { $0.temporaryFullAccuracyPurposeKeys = ["Navigation"]; $0.temporaryFullAccuracyDurationSeconds = 60 }
        core.setShowsUserLocation(true, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin), atNanoseconds: 0)
        core.changeAuthorization(status: .authorized, accuracy: .reduced, atNanoseconds: second)
        _ = drain(&core)
        let refused = core.requestTemporaryFullAccuracy(purposeKey: "Other", atNanoseconds: 2 * second)
        #expect(!refused)
        #expect(drain(&core).isEmpty)
        let granted = core.requestTemporaryFullAccuracy(purposeKey: "Navigation", atNanoseconds: 2 * second)
        #expect(granted)
        #expect(drain(&core) == [.didChangeAuthorization(.authorized, .full)])
        core.tick(atNanoseconds: 3 * second)
        #expect(near(core.puck.coordinate.latitudeDegrees, berlin.latitudeDegrees, 1e-12) && core.puck.style == .dot)
        core.tick(atNanoseconds: 62 * second - 1)
        #expect(core.authorization.accuracy == .full)
        core.tick(atNanoseconds: 62 * second)
        #expect(drain(&core) == [.didChangeAuthorization(.authorized, .reduced)])
        #expect(core.puck.style == .approximate)
        #expect(WebMercator.distanceMeters(core.puck.coordinate, berlin) > 1)
    }

    @Test func reducedAccuracySnapsToAGridCellCentre() {
        let grid = 3000.0
        let a = ReducedAccuracy.coarsen(berlin, gridMeters: grid)
        // Every point of the cell maps to the same centre; the centre is within half a diagonal.
        let latStep = grid / (Double.pi * WebMercator.earthRadiusMeters / 180)
        #expect(near(fmod(a.latitudeDegrees / latStep - 0.5, 1), 0, 1e-9) || near(fmod(a.latitudeDegrees / latStep - 0.5, 1), 1, 1e-9))
        #expect(WebMercator.distanceMeters(a, berlin) <= grid / 2.0.squareRoot() + 1)
        let lonStep = grid / (Double.pi * WebMercator.earthRadiusMeters / 180 * cos(a.latitudeDegrees * Double.pi / 180))
        let lowerLeft = GeoCoordinate(latitudeDegrees: a.latitudeDegrees - latStep / 2 + 1e-9,
                                      longitudeDegrees: a.longitudeDegrees - lonStep / 2 + 1e-9)
        let upperRight = GeoCoordinate(latitudeDegrees: a.latitudeDegrees + latStep / 2 - 1e-9,
                                       longitudeDegrees: a.longitudeDegrees + lonStep / 2 - 1e-9)
        #expect(ReducedAccuracy.coarsen(lowerLeft, gridMeters: grid) == a)
        #expect(ReducedAccuracy.coarsen(upperRight, gridMeters: grid) == a)
        let outside = GeoCoordinate(latitudeDegrees: a.latitudeDegrees + latStep / 2 + 1e-9, longitudeDegrees: a.longitudeDegrees)
        #expect(ReducedAccuracy.coarsen(outside, gridMeters: grid) != a)
        #expect(ReducedAccuracy.coarsenedAccuracyMeters(5, gridMeters: grid) == 5 + grid / 2.0.squareRoot())
    }

    @Test func reducedAccuracyCoarsensEveryOutput() {
        var core = makeCore { $0.requestsTemporaryFullAccuracyWhileTracking = false }
        core.changeAuthorization(status: .authorized, accuracy: .reduced, atNanoseconds: 0)
        core.setCamera(CameraOptions(center: offset(berlin, northMeters: 0, eastMeters: 40_000), zoom: 12),
                       durationSeconds: 0, atNanoseconds: 0)
        core.updateLocation(makeFix(berlin, accuracy: 4, course: 90, speed: 10), atNanoseconds: 0)
        core.setTrackingMode(.follow, animated: true, atNanoseconds: ms(1))
        run(&core, from: ms(1), to: 10 * second)
        let cell = ReducedAccuracy.coarsen(berlin, gridMeters: 3000)
        #expect(near(core.puck.coordinate.latitudeDegrees, cell.latitudeDegrees, 1e-12))
        #expect(near(core.puck.coordinate.longitudeDegrees, cell.longitudeDegrees, 1e-12))
        #expect(near(core.camera.center.latitudeDegrees, cell.latitudeDegrees, 1e-9))
        #expect(near(core.camera.center.longitudeDegrees, cell.longitudeDegrees, 1e-9))
        #expect(core.puck.horizontalAccuracyMeters == 4 + 3000 / 2.0.squareRoot())
        #expect(core.puck.bearingSource == .none && core.puck.bearingDegrees == nil)   // course withheld
        // A move inside the cell changes nothing anyone can see.
        let before = (core.puck, core.camera)
        core.updateLocation(makeFix(offset(berlin, northMeters: 200, eastMeters: 100), accuracy: 4, course: 90, speed: 10),
                            atNanoseconds: 10 * second)
        core.tick(atNanoseconds: 10 * second)
        #expect(core.puck.coordinate == before.0.coordinate && core.camera.center == before.1.center)
        #expect(core.track.count <= 1)
    }
}
