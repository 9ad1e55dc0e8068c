import Console
import Tracking

/// Applies one scenario input to a tracking core at a time: the single place that maps the scenario
/// and replay-script inputs onto `TrackingCore` calls (used by `ScenarioRunner` and by
/// `puckd replay --script`).
public enum ScenarioInputApplier {
    /// Applies `input` at `time` (monotonic nanoseconds). `end` does nothing here (the runner stops).
    public static func apply(_ input: ScenarioInput, to core: inout TrackingCore, at time: Int64) {
        switch input {
        case .camera(let options, let duration):
            core.setCamera(options, durationSeconds: duration, atNanoseconds: time)
        case .fix(let fix):
            core.updateLocation(fix, atNanoseconds: time)
        case .heading(var sample):
            sample.timeNanoseconds = time
            core.updateHeading(sample)
        case .console(let command):
            applyConsole(command, to: &core, at: time)
        case .touch:
            core.handleGesture(.touchDown, atNanoseconds: time)
        case .doubleTap(let point):
            core.handleGesture(.doubleTap(at: point ?? center(of: core)), atNanoseconds: time)
        case .twoFingerTap(let point):
            core.handleGesture(.twoFingerTap(at: point ?? center(of: core)), atNanoseconds: time)
        case .target(let coordinate, let animated):
            core.setTargetCoordinate(coordinate, animated: animated, atNanoseconds: time)
        case .insets(let insets, let animated):
            core.setContentInsets(insets, animated: animated, atNanoseconds: time)
        case .alignment(let alignment, let animated):
            core.setUserLocationVerticalAlignment(alignment, animated: animated, atNanoseconds: time)
        case .anchor(let point):
            core.setUserLocationAnchorPoint(point, atNanoseconds: time)
        case .authorization(let status):
            core.changeAuthorization(status: status, accuracy: core.authorization.accuracy, atNanoseconds: time)
        case .headingIndicator(let shows):
            core.setShowsUserHeadingIndicator(shows, atNanoseconds: time)
        case .viewSize(let size):
            core.setViewportSize(size, atNanoseconds: time)
        case .end:
            break
        }
    }

    /// A console tracking command, as the device applies it (`mode next` steps through the default
    /// button cycle; gestures act on the camera as it is at `time`).
    static func applyConsole(_ command: ConsoleCommand, to core: inout TrackingCore, at time: Int64) {
        switch command {
        case .mode(.set(let mode, let animated)):
            core.setTrackingMode(mode, animated: animated, atNanoseconds: time)
        case .mode(.next(let animated)):
            core.setTrackingMode(ScenarioConsoleCommands.nextMode(after: core.trackingMode), animated: animated,
                                 atNanoseconds: time)
        case .viewport(let request):
            if let target = request.target {
                core.transitionViewport(to: target, transition: request.transition, atNanoseconds: time)
            } else if case .idle = request {
                core.idleViewport(atNanoseconds: time)
            }
        case .showUserLocation(let shows?):
            core.setShowsUserLocation(shows, atNanoseconds: time)
        case .accuracy(let accuracy?):
            core.changeAuthorization(status: core.authorization.status, accuracy: accuracy, atNanoseconds: time)
        case .precise(let key):
            _ = core.requestTemporaryFullAccuracy(purposeKey: key.string, atNanoseconds: time)
        case .pan, .rotate, .zoom, .pitch:
            core.tick(atNanoseconds: time)   // the gestures start from the camera at this instant
            guard let gestures = CommandGestures.gestures(for: command, camera: core.camera) else { return }
            var i = 0
            while i < gestures.count {
                core.handleGesture(gestures[i], atNanoseconds: time)
                i += 1
            }
        default:
            break
        }
    }

    static func center(of core: TrackingCore) -> ScreenPoint {
        ScreenPoint(xPoints: core.viewportSize.widthPoints / 2, yPoints: core.viewportSize.heightPoints / 2)
    }
}
