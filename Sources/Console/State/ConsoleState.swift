import NMEA
import Heading
import Receiver
import Tracking

/// Everything the console can show, as the module types themselves: the device keeps one
/// `ConsoleState`, updates the parts that changed (a new fix, a sky view, a heading, the tracking
/// snapshot each tick, counters) and lends it to `ConsoleSession.reply(to:state:)` and `tick`.
/// Nothing here is computed by the console; the views only format it.
public struct ConsoleState: Sendable {
    /// The last fix (any mode), nil before the first epoch.
    public var fix: Fix?
    /// The last complete sky view.
    public var skyView = SkyView()
    /// The last heading estimate, nil without an IMU (or before the first one).
    public var heading: HeadingEstimate?
    /// The stored magnetometer calibration in use, if any.
    public var magnetometerCalibration: MagnetometerCalibration?
    /// The tracking core's outputs, nil before the core runs.
    public var tracking: ConsoleTrackingSnapshot?
    /// NMEA framer counters.
    public var framer = FramerCounters()
    /// NMEA epoch assembler counters.
    public var assembler = AssemblerCounters()
    /// The recent tracking events.
    public var events = ConsoleEventLog()
    /// The receiver's recent traffic (`nmea`, `watch nmea`).
    public var nmea = NMEASentenceLog()
    /// The receiver: who it is and how its configuration went; its UBX frame counters.
    public var receiver = ReceiverStatus()
    public var ubxFrames = UBXFrameCounters()
    /// What only the device knows.
    public var device = ConsoleDeviceState()

    public init() {}

    /// Copies the tracking core's puck, camera and flags (a few hundred bytes; no allocation).
    public mutating func update(from core: borrowing TrackingCore) {
        tracking = ConsoleTrackingSnapshot(core)
    }
}

/// The parts of `TrackingCore` the console shows, copied at one tick.
public struct ConsoleTrackingSnapshot: Sendable {
    public var puck: PuckState
    public var camera: CameraState
    /// showsUserLocation.
    public var showsUserLocation: Bool
    /// Authorization as the core applies it (effective accuracy).
    public var authorizationStatus: AuthorizationStatus
    public var accuracy: AccuracyAuthorization
    /// The bearing the fallback rule selects now, nil when none.
    public var bearing: BearingSelection?
    /// True while the core wants heading updates.
    public var wantsHeadingUpdates: Bool
    /// Inputs with a time earlier than the core's clock (ignored).
    public var timeRegressionCount: UInt64
    /// Fixes the core rejected (invalid position).
    public var rejectedFixCount: UInt64
    /// Heading samples the core ignored.
    public var ignoredHeadingCount: UInt64
    /// Events the core's queue dropped because the device did not pop them in time.
    public var eventOverflowCount: UInt64

    /// A snapshot of `core`.
    public init(_ core: borrowing TrackingCore) {
        puck = core.puck
        camera = core.camera
        showsUserLocation = core.isShowingUserLocation
        let a = core.authorization
        authorizationStatus = a.status
        accuracy = a.accuracy
        bearing = core.currentBearingSelection
        wantsHeadingUpdates = core.wantsHeadingUpdates
        timeRegressionCount = core.timeRegressionCount
        rejectedFixCount = core.rejectedFixCount
        ignoredHeadingCount = core.ignoredHeadingCount
        eventOverflowCount = core.events.overflowCount
    }
}
