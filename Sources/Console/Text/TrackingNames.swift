import Tracking

/// The names the console and the JSON lines use for the tracking enums (as in the Swift types).
public enum TrackingNames {
    public static func name(_ v: PuckStyle) -> StaticString {
        switch v {
        case .dot: return "dot"
        case .course: return "course"
        case .approximate: return "approximate"
        }
    }

    public static func name(_ v: HeadingIndicator) -> StaticString {
        switch v {
        case .none: return "none"
        case .fan: return "fan"
        case .arrow: return "arrow"
        }
    }

    public static func name(_ v: BearingSource) -> StaticString {
        switch v {
        case .none: return "none"
        case .imuHeading: return "imuHeading"
        case .gpsTrueHeading: return "gpsTrueHeading"
        case .gpsCourse: return "gpsCourse"
        }
    }

    public static func name(_ v: CameraBearingSource) -> StaticString {
        switch v {
        case .none: return "none"
        case .imuHeading: return "imuHeading"
        case .gpsTrueHeading: return "gpsTrueHeading"
        case .gpsCourse: return "gpsCourse"
        case .targetAzimuth: return "targetAzimuth"
        case .command: return "command"
        case .gesture: return "gesture"
        case .north: return "north"
        }
    }

    public static func name(_ v: TrackingState) -> StaticString {
        switch v {
        case .possible: return "possible"
        case .began: return "began"
        case .beginSignificantTransition: return "beginSignificantTransition"
        case .changed: return "changed"
        }
    }

    public static func name(_ v: ViewportStateKind) -> StaticString { v.name }

    public static func name(_ v: ViewportTransitionKind) -> StaticString {
        switch v {
        case .default: return "default"
        case .immediate: return "immediate"
        }
    }

    public static func name(_ v: ViewportChangeReason) -> StaticString {
        switch v {
        case .idleRequested: return "idleRequested"
        case .transitionStarted: return "transitionStarted"
        case .transitionSucceeded: return "transitionSucceeded"
        case .transitionFailed: return "transitionFailed"
        case .userInteraction: return "userInteraction"
        }
    }

    public static func name(_ v: AuthorizationStatus) -> StaticString {
        switch v {
        case .notDetermined: return "notDetermined"
        case .denied: return "denied"
        case .authorized: return "authorized"
        }
    }

    public static func name(_ v: AccuracyAuthorization) -> StaticString {
        switch v {
        case .full: return "full"
        case .reduced: return "reduced"
        }
    }

    public static func name(_ v: LocationFailureReason) -> StaticString {
        switch v {
        case .authorizationDenied: return "authorizationDenied"
        case .locationUnknown: return "locationUnknown"
        }
    }
}
