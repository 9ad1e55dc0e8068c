import Console
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
        case .help, .view, .version, .calibrate, .config, .watch, .json, .quit:
            return .failure(LineProblem("'\(command.name.word)' is a console command that does not change the "
                + "tracking; a scenario takes \(accepted)"))
        }
    }

    /// The mode `mode next` selects after `mode`: the device's default button cycle
    /// (`TrackingMode.defaultButtonCycle`), from its first mode when `mode` is not in it.
    static func nextMode(after mode: TrackingMode) -> TrackingMode {
        let cycle = TrackingMode.defaultButtonCycle
        var i = 0
        while i < cycle.count {
            if cycle[i] == mode { return cycle[(i + 1) % cycle.count] }
            i += 1
        }
        return cycle[0]
    }
}
