/// What a console may do (`[console] access`): look only, operate the device (the default), or also
/// change the configuration keys that shape it (paths, buses, GPIO lines, the console itself, the
/// state directory, the simulated board). `ConsoleCommand.changesSomething` says which commands are
/// more than a look; the device checks the configuration keys themselves.
public enum ConsoleAccess: UInt8, Sendable, Equatable {
    /// Views, `config` listings, `help`, `json`, `watch`, `version`, `quit`.
    case readOnly = 0
    /// Also modes, viewports, gestures, calibration, `press`, and `config` of keys that do not shape
    /// the device (and `config save` of them).
    case operate = 1
    /// Everything, device-shaping keys included.
    case full = 2

    /// The spelling in `[console] access`.
    public var name: StaticString {
        switch self {
        case .readOnly: "read-only"
        case .operate: "operate"
        case .full: "full"
        }
    }

    /// nil when `command` is allowed at this level, else the sentence of the refusal.
    public func refusal(of command: ConsoleCommand) -> StaticString? {
        guard self == .readOnly, command.changesSomething else { return nil }
        return "this console is read-only ([console] access = read-only): it shows the device but changes nothing; set access = operate in the configuration file to allow changes"
    }
}

extension ConsoleCommand {
    /// True for commands that change the device (not views, queries, help, json, watch or quit).
    public var changesSomething: Bool {
        switch self {
        case .help, .view, .version, .watch, .json, .quit, .login: false
        case .mode(let request): request != .show
        case .viewport(let request): request != .show
        case .showUserLocation(let shows): shows != nil
        case .accuracy(let accuracy): accuracy != nil
        case .precise, .pan, .rotate, .zoom, .pitch, .calibrate, .press: true
        case .config(let request):
            switch request {
            case .list, .show: false
            case .set, .save: true
            }
        }
    }
}
