/// How the camera follows the user location.
///
/// The first four are MapLibre's `MLNUserTrackingMode` (tracking.md 2.1–2.2; default `none`). The last four
/// are ArcGIS `LocationDisplayAutoPanMode` names (tracking.md 11.1). Each ArcGIS name behaves like its
/// MapLibre counterpart (`behavior`) **plus its own rules** when chosen by that name:
/// - `off` = `none`.
/// - `recenter` = `follow`, but the camera re-centres only when the puck leaves the *wander extent*
///   (`TrackingConfiguration.wanderExtentFactor`, tracking.md 11.3) instead of MapLibre's ±1 pt rule.
/// - `navigation` = `followWithCourse` with the puck pinned `navigationPointHeightFactor` (0.125)
///   of the view height above the bottom (tracking.md 11.4), course-up.
/// - `compassNavigation` = `followWithHeading`, puck centred, heading-up (tracking.md 11.1, Q11).
/// ArcGIS names also take ArcGIS's first zoom (`initialZoomScale`, tracking.md 11.5) and gesture rule:
/// any gesture that changes the viewpoint sets the mode to `off` (tracking.md 11.2).
public enum TrackingMode: UInt8, Sendable, Equatable, CaseIterable {
    case none
    case follow
    case followWithCourse
    case followWithHeading
    case off
    case recenter
    case navigation
    case compassNavigation

    /// MapLibre's four modes in `MLNUserTrackingMode` order: the cycle a mode button steps through by
    /// default (the device's `[gpio] mode_cycle`, a scenario's `mode next`).
    public static let defaultButtonCycle: [TrackingMode] = [.none, .follow, .followWithCourse, .followWithHeading]

    /// The MapLibre behaviour family of the mode.
    public var behavior: TrackingBehavior {
        switch self {
        case .none, .off: return .none
        case .follow, .recenter: return .follow
        case .followWithCourse, .navigation: return .course
        case .followWithHeading, .compassNavigation: return .heading
        }
    }

    /// True for the ArcGIS names (their own rules apply).
    public var isArcGIS: Bool { rawValue >= TrackingMode.off.rawValue }

    /// True when the camera follows the location (every mode but `none` / `off`).
    public var isTracking: Bool { behavior != .none }

    /// The mode's name as written in commands, JSON and the console.
    public var name: StaticString {
        switch self {
        case .none: return "none"
        case .follow: return "follow"
        case .followWithCourse: return "followWithCourse"
        case .followWithHeading: return "followWithHeading"
        case .off: return "off"
        case .recenter: return "recenter"
        case .navigation: return "navigation"
        case .compassNavigation: return "compassNavigation"
        }
    }

    /// The mode named `name` (as `name` spells it), or nil.
    public init?(name: String) {
        var index = 0
        let all = TrackingMode.allCases
        while index < all.count {
            let mode = all[index]
            if mode.name.withUTF8Buffer({ String(decoding: $0, as: UTF8.self) }) == name { self = mode; return }
            index += 1
        }
        return nil
    }
}

/// The MapLibre behaviour family a `TrackingMode` belongs to.
public enum TrackingBehavior: UInt8, Sendable, Equatable {
    /// The camera does not follow.
    case none
    /// The camera centre tracks the location; bearing kept.
    case follow
    /// As follow, bearing = course (course-up).
    case course
    /// As follow, bearing = heading (heading-up).
    case heading
}

/// MapLibre's internal tracking sub-state (tracking.md 2.5): Possible → (first fly) → Changed.
public enum TrackingState: UInt8, Sendable, Equatable {
    /// Not yet tracking: the next location update flies to the user.
    case possible
    /// First fly running to a fix < 500 m from the previous one; fixes are not stored.
    case began
    /// First fly running to a fix ≥ 500 m from the previous one; no incremental moves.
    case beginSignificantTransition
    /// Following: each fix eases the camera (1.0 s linear).
    case changed
}

/// Where the puck sits vertically while tracking (MapLibre `userLocationVerticalAlignment`, tracking.md 5.1).
public enum VerticalAlignment: UInt8, Sendable, Equatable {
    case center
    case top
    case bottom
}
