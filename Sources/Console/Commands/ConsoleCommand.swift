import Tracking

/// One parsed console command with range-checked arguments (no `String`s: words travel in
/// `ConsoleText`). Angles in degrees, sizes in points, rates in hertz.
///
/// `ConsoleSession` handles `help`, `json` and `watch` itself; every other command is handed to the
/// device, which applies it and then calls `ConsoleSession.reply(to:state:)` (or `replyFailure`).
public enum ConsoleCommand: Sendable, Equatable {
    /// `help` (all commands) or `help CMD`.
    case help(ConsoleCommandName?)
    /// A state view: `status`, `gps`, `sats`, `heading`, `puck`, `camera`, `leds`, `stats`, `events [N]`,
    /// `nmea [N]`, `track`, `uplink`.
    case view(ConsoleView)
    /// `version`.
    case version
    /// `mode`, `mode NAME [immediate]`, `mode next [immediate]`.
    case mode(ConsoleModeRequest)
    /// `viewport`, `viewport follow …`, `viewport overview [immediate]`, `viewport idle`.
    case viewport(ConsoleViewportRequest)
    /// `show` (query) or `show on|off`: showsUserLocation.
    case showUserLocation(Bool?)
    /// `accuracy` (query) or `accuracy full|reduced`: the accuracy authorization.
    case accuracy(AccuracyAuthorization?)
    /// `precise PURPOSEKEY`: request temporary full accuracy with that purpose key.
    case precise(purposeKey: ConsoleText)
    /// `pan DX DY`: a one-finger drag by DX, DY points (x right, y down).
    case pan(dxPoints: Double, dyPoints: Double)
    /// `rotate DEG`: a two-finger rotation by DEG degrees (clockwise on screen).
    case rotate(degrees: Double)
    /// `zoom Z`: pinch to zoom level Z (512-pt tiles).
    case zoom(level: Double)
    /// `pitch P`: tilt the camera to P degrees from straight down.
    case pitch(degrees: Double)
    /// `calibrate mag|gyro|stop`.
    case calibrate(ConsoleCalibrationRequest)
    /// `config`, `config KEY`, `config KEY VALUE`, `config save`.
    case config(ConsoleConfigRequest)
    /// `watch CMD [HZ]`: redraw a view HZ times per second.
    case watch(ConsoleView, hertz: Double)
    /// `json` (query) or `json on|off`.
    case json(Bool?)
    /// `press [long] [1|2]`: press a button of the simulated board.
    case press(button: Int, long: Bool)
    /// `quit`/`exit`, Ctrl-D on an empty line.
    case quit(ConsoleQuitReason)
    /// The line typed at a locked console's `password:` prompt (never echoed, parsed or remembered).
    case login(password: ConsoleText)

    /// The command word the command came from (error messages and JSON `reply` fields).
    public var name: ConsoleCommandName {
        switch self {
        case .help: .help
        case .view(let v): v.name
        case .version: .version
        case .mode: .mode
        case .viewport: .viewport
        case .showUserLocation: .show
        case .accuracy: .accuracy
        case .precise: .precise
        case .pan: .pan
        case .rotate: .rotate
        case .zoom: .zoom
        case .pitch: .pitch
        case .calibrate: .calibrate
        case .config: .config
        case .watch: .watch
        case .json: .json
        case .press: .press
        case .quit: .quit
        case .login: .login
        }
    }
}

/// A view of the device state that can be printed once or watched.
public enum ConsoleView: Sendable, Equatable {
    case status
    case gps
    case sats
    case heading
    case puck
    case camera
    case leds
    case stats
    /// The track journal (`track`).
    case track
    /// The fleet uplinks (`uplink`).
    case uplink
    /// The gpsd-compatible server (`server`).
    case server
    /// The last `count` tracking events (1...ConsoleEventLog.capacity).
    case events(count: Int)
    /// The receiver's last `count` lines (1...NMEASentenceLog.capacity); watched, the new lines stream.
    case nmea(count: Int)

    /// The command word of the view.
    public var name: ConsoleCommandName {
        switch self {
        case .status: .status
        case .gps: .gps
        case .sats: .sats
        case .heading: .heading
        case .puck: .puck
        case .camera: .camera
        case .leds: .leds
        case .stats: .stats
        case .track: .track
        case .uplink: .uplink
        case .server: .server
        case .events: .events
        case .nmea: .nmea
        }
    }
}

/// What `mode` asks for.
public enum ConsoleModeRequest: Sendable, Equatable {
    /// Print the current mode.
    case show
    /// Set this mode (animated unless `immediate`).
    case set(TrackingMode, animated: Bool)
    /// The next mode of the device's button cycle (animated unless `immediate`).
    case next(animated: Bool)
}

/// How `viewport follow` chooses the camera bearing.
public enum ConsoleFollowBearing: Sendable, Equatable {
    case heading
    case course
    /// A constant bearing, degrees clockwise from true north, 0 ..< 360.
    case degrees(Double)

    /// The tracking core's form.
    public var followPuckBearing: FollowPuckBearing {
        switch self {
        case .heading: .heading
        case .course: .course
        case .degrees(let d): .constant(d)
        }
    }
}

/// What `viewport` asks for.
public enum ConsoleViewportRequest: Sendable, Equatable {
    /// Print the viewport status.
    case show
    /// Follow the puck; nil options keep the Mapbox defaults (zoom 16.35, pitch 45°, bearing heading).
    case follow(zoom: Double?, pitchDegrees: Double?, bearing: ConsoleFollowBearing?, immediate: Bool)
    /// Overview of the recent track.
    case overview(immediate: Bool)
    /// Leave the camera where it is (Mapbox `viewport.idle()`).
    case idle

    /// The tracking core's target for `follow`/`overview` (nil for `show`/`idle`): unspecified options
    /// take `FollowPuckOptions`' defaults.
    public var target: ViewportTarget? {
        switch self {
        case .follow(let zoom, let pitch, let bearing, _):
            var options = FollowPuckOptions()
            if let zoom { options.zoom = zoom }
            if let pitch { options.pitchDegrees = pitch }
            if let bearing { options.bearing = bearing.followPuckBearing }
            return .followPuck(options)
        case .overview:
            return .overview(OverviewOptions())
        case .show, .idle:
            return nil
        }
    }

    /// The transition kind asked for (`immediate` or the default one).
    public var transition: ViewportTransitionKind {
        switch self {
        case .follow(_, _, _, let immediate), .overview(let immediate): immediate ? .immediate : .default
        case .show, .idle: .default
        }
    }
}

/// What `calibrate` asks for.
public enum ConsoleCalibrationRequest: Sendable, Equatable {
    /// Start a magnetometer calibration run (turn the board through every orientation).
    case magnetometer
    /// Start a gyroscope bias calibration (keep the board still).
    case gyroscope
    /// Stop the running calibration (a magnetometer run is fitted and applied when good enough).
    case stop
}

/// What `config` asks for.
public enum ConsoleConfigRequest: Sendable, Equatable {
    /// Every key with its value.
    case list
    /// One key.
    case show(key: ConsoleText)
    /// Set a key (the device validates the value).
    case set(key: ConsoleText, value: ConsoleText)
    /// Write the running configuration back to its file.
    case save
}

/// Why the console input ended.
public enum ConsoleQuitReason: UInt8, Sendable, Equatable {
    /// `quit` or `exit` was typed.
    case command
    /// Ctrl-D on an empty line.
    case endOfTransmission
}
