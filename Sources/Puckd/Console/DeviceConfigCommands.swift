import Configuration
import Console

/// `config KEY VALUE` and `config save` on the console. A value is checked with the key table (and the
/// checks across keys) exactly as a file's would be; a key marked live applies at once, the others say
/// they need a restart. `config save` writes the changes made on the console into the configuration
/// file with `ConfigurationDocument.setValue` (comments, order and every other line kept) and
/// `ConfigurationFileWriter` (atomic). These parse and build text: they allocate (user actions, not
/// the loop's wake-ups).
extension Device {
    /// The file `config save` writes: `--config FILE`, else a `--board` profile given as a file; nil
    /// when the configuration comes from a built-in profile (and the defaults) only.
    var configurationSaveTarget: String? {
        if let file = sources.file { return file }
        if let board = sources.board, board.contains("/") || board.hasSuffix(".conf") { return board }
        return nil
    }

    /// The configuration the files say (and `--set`), with the console's unsaved changes on top.
    func desiredConfiguration() -> PuckdConfiguration {
        var desired = loaded.configuration
        for change in consoleChanges {
            if let key = ConfigurationKeys.all.first(where: { $0.qualifiedName == change.key }) {
                _ = key.write(change.value, into: &desired)
            }
        }
        return desired
    }

    /// Handles the `config` requests that change something; true when the usual reply follows, false
    /// when a failure was replied already.
    func configCommand(_ request: ConsoleConfigRequest, nowNanoseconds now: Int64) -> Bool {
        switch request {
        case .list, .show: return true
        case .set(let key, let value): return setConfiguration(key.string, value.string, nowNanoseconds: now)
        case .save: return saveConfiguration()
        }
    }

    func setConfiguration(_ name: String, _ value: String, nowNanoseconds now: Int64) -> Bool {
        let command = ConsoleCommand.config(.set(key: ConsoleText(string: name), value: ConsoleText(string: value)))
        guard let key = ConfigurationKeys.all.first(where: { $0.qualifiedName == name }) else {
            return fail(command, "unknown key '" + ConfigurationError.excerpt(name) + "'" + Self.suggestion(for: name)
                + " (config lists the keys)")
        }
        if let refusal = accessRefusal(setting: key) {
            if let console { logConsole(console) { $0.append("refused to set a device-shaping key: "); $0.append(string: name) } }
            return fail(command, refusal)
        }
        var desired = desiredConfiguration()
        if let problem = key.write(value, into: &desired) {
            return fail(command, ConfigurationError.subject(key.section, key.name, value) + ": " + problem.message(allowed: key.allowed))
        }
        var origins = loaded.origins
        for change in consoleChanges { origins[change.key] = .console }
        origins[name] = .console
        do throws(ConfigurationError) {
            try ConfigurationLoader.validate(LoadedConfiguration(configuration: desired, documents: [], origins: origins))
        } catch {
            return fail(command, error.description)
        }
        let canonical = key.read(desired)
        consoleChanges.removeAll { $0.key == name }
        if canonical != key.read(loaded.configuration) { consoleChanges.append((name, canonical)) }
        let applied = key.live || canonical == key.read(configuration)
        if key.live {
            var running = configuration
            _ = key.write(canonical, into: &running)
            apply(running, nowNanoseconds: now)
        }
        output.text("config: " + name + " = " + ConfigurationError.excerpt(canonical) + " set on the console "
            + consoleName + " (" + (applied ? "applied" : "needs a restart to apply") + "; not saved yet)")
        fillConfigTable()
        return true
    }

    func saveConfiguration() -> Bool {
        let command = ConsoleCommand.config(.save)
        guard let path = configurationSaveTarget else {
            let board = sources.board ?? "sim"
            return fail(command, "running from the built-in board profile " + board + " with no configuration file, so "
                + "there is no file to write back to; copy the profile (board/" + board + ".conf in the source tree) "
                + "to a file you may write, start puckd with --config FILE, and save again")
        }
        if consoleChanges.isEmpty {
            return fail(command, "nothing to save: no value was changed on the console since the start or the last "
                + "save (" + path + " is as it was)")
        }
        var document = loaded.documents.first { $0.name == path } ?? ConfigurationDocument(name: path, text: "")
        for change in consoleChanges {
            guard let dot = change.key.firstIndex(of: ".") else { continue }
            document.setValue(change.value, section: String(change.key[..<dot]),
                              key: String(change.key[change.key.index(after: dot)...]))
        }
        let text = document.text
        if let problem = readBackProblem(text, path: path) {
            return fail(command, "refused to save: the new " + path + " would not load again (" + problem
                + "); nothing was written, the file is as it was")
        }
        do throws(ConfigurationFileWriter.Failure) {
            try ConfigurationFileWriter.write(text, to: path)
        } catch {
            return fail(command, error.message)
        }
        let count = consoleChanges.count
        do throws(ConfigurationError) {
            loaded = try sources.load()
        } catch {
            output.text("config: saved " + path + ", but reading it back failed: " + error.description, priority: .error)
        }
        consoleChanges = []
        output.text("config: saved " + String(count) + " change" + (count == 1 ? "" : "s") + " to " + path
            + " (comments and order kept), from the console " + consoleName)
        fillConfigTable()
        return true
    }

    /// Parses `text` as the next start would read `path` (with the other layers and the `--set`s):
    /// nil when it loads and every console change reads back as itself, else what went wrong.
    func readBackProblem(_ text: String, path: String) -> String? {
        let reread = ConfigurationDocument(name: path, text: text)
        for change in consoleChanges {
            guard let dot = change.key.firstIndex(of: ".") else { continue }
            let value = reread.value(section: String(change.key[..<dot]), key: String(change.key[change.key.index(after: dot)...]))
            if value != change.value {
                return change.key + " would read back as " + (value.map { "'" + ConfigurationError.excerpt($0) + "'" } ?? "nothing")
                    + " instead of '" + ConfigurationError.excerpt(change.value) + "'"
            }
        }
        var documents = loaded.documents.map { $0.name == path ? reread : $0 }
        if !documents.contains(where: { $0.name == path }) { documents.append(reread) }
        do throws(ConfigurationError) {
            _ = try ConfigurationLoader.load(documents: documents, overrides: sources.overrides)
        } catch {
            return error.description
        }
        return nil
    }

    /// The console's name for log lines ("/dev/ttyGS0", "standard input/output").
    var consoleName: String { console.map { $0.name.withBytes { String(decoding: $0, as: UTF8.self) } } ?? "?" }

    /// Replies with a failure built from `text`; returns false (the reply is done).
    func fail(_ command: ConsoleCommand, _ text: String) -> Bool {
        guard let console else { return false }
        var copy = text
        copy.withUTF8 { console.session.replyFailure(to: command, bytes: UnsafeRawBufferPointer($0)) }
        return false
    }

    /// "; did you mean 'tracking.follow_zoom'?" for the nearest key (edit distance ≤ 3), or "".
    static func suggestion(for name: String) -> String {
        var best: (String, Int)?
        for key in ConfigurationKeys.all {
            let d = ConfigurationError.editDistance(name, key.qualifiedName)
            if d <= 3 && (best == nil || d < best!.1) { best = (key.qualifiedName, d) }
        }
        return best.map { "; did you mean '" + $0.0 + "'?" } ?? ""
    }
}
