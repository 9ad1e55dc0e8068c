import Testing
import NMEA
@testable import Tracking

/// `TrackingConfiguration` validation, the event ring, fix filtering (tracking.md 1.4) and time handling.
struct ConfigurationAndEventTests {
    @Test func defaultsAreValidAndMatchTheSpec() {
        let c = TrackingConfiguration()
        #expect(c.validationError() == nil)
        #expect(c.viewportWidthPoints == 800 && c.viewportHeightPoints == 480)
        #expect(c.userLocationAnimationDurationSeconds == 1.0 && c.headingAnimationDurationSeconds == 0.3)
        #expect(c.trackingMinimumZoom == 10.5 && c.trackingDefaultZoom == 14)
        #expect(c.snapToNorthToleranceDegrees == 7 && c.headingFilterDegrees == 1)
        #expect(c.staleTimeoutSeconds == 30 && c.staleStateEnabled)
        #expect(c.navigationPointHeightFactor == 0.125 && c.initialZoomScale == 10_000)
        #expect(c.defaultTransitionMaxDurationSeconds == 3.5 && c.transitionsToIdleUponUserInteraction)
        #expect(c.maximumPitchDegrees == 60 && c.maximumZoom == 22)
        #expect(!c.dynamicCameraAnimationDuration && c.snapDistancePoints == 50_000)
    }

    @Test func validationNamesTheFieldAndTheRange() {
        var c = TrackingConfiguration()
        c.wanderExtentFactor = 1.5
        let error = c.validationError()
        #expect(error?.field == "wanderExtentFactor" && error?.minimum == 0 && error?.maximum == 1)
        #expect(error?.description == "tracking.wanderExtentFactor = 1.5 is outside the allowed range 0.0...1.0; set it to a value in that range")
        #expect(throws: TrackingConfigurationError.self) { try TrackingCore(configuration: c) }
        var d = TrackingConfiguration()
        d.style.tintColor = RGBAColor(red: 2, green: 0, blue: 0)
        #expect(d.validationError()?.field == "style.tintColor.red")
        var e = TrackingConfiguration()
        e.staleTimeoutSeconds = .nan
        #expect(e.validationError()?.field == "staleTimeoutSeconds")
        var f = TrackingConfiguration()
        f.initialZoom = 23
        #expect(f.validationError()?.note == "between minimumZoom and maximumZoom")
    }

    @Test func eventRingDropsTheOldestAndCountsOverflow() {
        var ring = EventRing()
        for i in 0..<(EventRing.capacity + 3) { ring.push(.didUpdateUserLocation, at: Int64(i)) }
        #expect(ring.count == EventRing.capacity && ring.overflowCount == 3)
        #expect(ring.peek(0)?.timeNanoseconds == 3)
        #expect(ring.pop()?.timeNanoseconds == 3)
        var n = 0
        while ring.pop() != nil { n += 1 }
        #expect(n == EventRing.capacity - 1 && ring.pop() == nil)
    }

    @Test func rule_1_4_invalidZeroAndRepeatedFixesAreIgnored() {
        var core = makeCore()
        core.setShowsUserLocation(true, atNanoseconds: 0)
        _ = drain(&core)
        core.updateLocation(makeFix(GeoCoordinate(latitudeDegrees: 0, longitudeDegrees: 0)), atNanoseconds: 1)
        core.updateLocation(makeFix(GeoCoordinate(latitudeDegrees: 91, longitudeDegrees: 0)), atNanoseconds: 2)
        var noFix = makeFix(berlin)
        noFix.mode = .noFix
        core.updateLocation(noFix, atNanoseconds: 3)
        #expect(core.rejectedFixCount == 3 && drain(&core).isEmpty)
        core.updateLocation(makeFix(berlin), atNanoseconds: 4)
        #expect(drain(&core) == [.didUpdateUserLocation])
        core.updateLocation(makeFix(berlin), atNanoseconds: 5)
        #expect(drain(&core).isEmpty)
        // Losing the position after having one: didFailToLocateUser(locationUnknown), once.
        core.updateLocation(noFix, atNanoseconds: 6)
        core.updateLocation(noFix, atNanoseconds: 7)
        #expect(drain(&core) == [.didFailToLocateUser(.locationUnknown)])
    }

    @Test func inputsBackInTimeAreAppliedAtTheLatestTime() {
        var core = makeCore()
        core.tick(atNanoseconds: 10 * second)
        core.updateLocation(makeFix(berlin), atNanoseconds: 5 * second)
        core.tick(atNanoseconds: 6 * second)
        #expect(core.timeRegressionCount == 2)
        #expect(core.camera.timeNanoseconds == 10 * second)
    }
}
