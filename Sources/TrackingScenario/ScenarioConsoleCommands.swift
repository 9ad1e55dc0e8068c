import Console
import Controls
import Tracking

/// Which console commands a scenario takes: those that change the tracking (a mode, a viewport, the
/// puck, the accuracy, a gesture). Views, queries and device commands (`calibrate`, `config`, `press`,
/// …) are refused with a message naming the accepted ones.
enum ScenarioConsoleCommands {
    static let accepted = "mode NAME|next [immediate], viewport follow …|overview [immediate]|idle, show on|off, "
        + "accuracy full|reduced, precise KEY, pan DX DY, rotate DEG, zoom Z, pitch DEG"

    static func accept(_ command: ConsoleCommand) -> Result<ScenarioInput, LineProblem> {
        switch command {
        case .mode(.show), .viewport(.show), .showUserLocation(nil), .accuracy(nil):
            return .failure(LineProblem("'\(command.name.word)' without an argument only shows the state; a scenario "
                + "line changes it (\(accepted))"))
        case .mode, .viewport, .showUserLocation, .accuracy, .precise, .pan, .rotate, .zoom, .pitch:
            return .success(.console(command))
        case .press:
            return .failure("'press' presses a board's button; in a scenario write 'mode next' (the default button action)")
        case .help, .view, .version, .calibrate, .config, .watch, .json, .quit, .login:
            return .failure(LineProblem("'\(command.name.word)' is a console command that does not change the "
                + "tracking; a scenario takes \(accepted)"))
        }
    }

    /// The device's default button cycle (`TrackingMode.defaultButtonCycle`), the one `mode next` steps
    /// through: the same `ButtonModeCycle` the button and the console of the device use.
    static let defaultCycle = try! ButtonModeCycle(TrackingMode.defaultButtonCycle)

    /// The mode `mode next` selects after `mode`, from the cycle's first mode when `mode` is not in it.
    static func nextMode(after mode: TrackingMode) -> TrackingMode { defaultCycle.next(after: mode) }
}
