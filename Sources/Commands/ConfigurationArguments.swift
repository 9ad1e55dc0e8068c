import Configuration
import SystemCalls

/// The `--board`, `--config` and `--set` options `puckd run` takes, parsed the same way by every
/// command that needs the device's configuration (`puckd track`).
struct ConfigurationArguments {
    var board: String?
    var file: String?
    var overrides: [String] = []

    /// Takes one of the three options with its value; false for any other option.
    mutating func take(_ option: String, _ value: String) -> Bool {
        switch option {
        case "--board": board = value
        case "--config": file = value
        case "--set": overrides.append(value)
        default: return false
        }
        return true
    }

    /// The layers to load: without `--board` and `--config`, /etc/puckd.conf when it exists.
    func sources(defaultFile: String = RunCommand.defaultConfigurationPath) -> ConfigurationSources {
        var file = self.file
        if board == nil && file == nil && FileSystem.exists(defaultFile) { file = defaultFile }
        return ConfigurationSources(board: board, file: file, overrides: overrides)
    }
}
