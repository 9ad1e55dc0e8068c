import Configuration
import Console
import Hardware

/// Who may do what on the console: `[console] access` (read-only, operate, full) decides which
/// commands run and whether device-shaping keys may be set; `[console] password_file` locks every
/// serial session until its password is typed, with a timed refusal after wrong ones (a state of
/// `ConsoleLoginGate`, never a pause of the loop); every change made on a serial console and every
/// login is logged with the console's name.
extension Device {
    /// True when a new serial session must log in first (a password file is configured: with an
    /// unusable one the console stays locked and says why, it never opens without its password).
    var consoleRequiresLogin: Bool {
        guard let console, console.isSerial else { return false }
        return !configuration.console.passwordFile.isEmpty
    }

    /// Reads `[console] password_file` (start-up and reload); a problem is kept and reported.
    /// Returns the problem, nil when the file is fine or none is set.
    @discardableResult
    func loadConsolePassword(_ path: String) -> String? {
        guard !path.isEmpty else {
            consolePassword = nil
            consolePasswordProblem = nil
            return nil
        }
        do throws(ConsolePassword.Failure) {
            consolePassword = try ConsolePassword.load(path: path)
            consolePasswordProblem = nil
            return nil
        } catch {
            consolePassword = nil
            consolePasswordProblem = error.message
            return error.message
        }
    }

    /// The line typed at `password:`: refused while the gate says wait, else checked with crypt(3).
    func login(_ typed: ConsoleText, nowNanoseconds now: Int64) {
        guard let console else { return }
        var password = typed
        defer { password.wipe() }
        let command = ConsoleCommand.login(password: ConsoleText())
        if let wait = console.loginGate.wait(atNanoseconds: now) {
            resultScratch.removeAll()
            resultScratch.append("too many wrong passwords: wait ")
            resultScratch.append(Double(wait) / 1e9, decimals: 1)
            resultScratch.append(" s before the next attempt (this one was not checked)")
            replyFailure(command, resultScratch)
            return
        }
        guard let hash = consolePassword else {
            resultScratch.removeAll()
            resultScratch.append("the console's password file cannot be used (")
            resultScratch.append(string: consolePasswordProblem ?? "not loaded")
            resultScratch.append("): fix it and reload (systemctl reload puckd); the console stays locked")
            replyFailure(command, resultScratch)
            return
        }
        let right = !password.isTruncated && password.withBytes { hash.matches($0) }
        if right {
            console.loginGate.recordSuccess()
            console.session.unlock()
            logConsole(console) { $0.append("logged in") }
            console.session.reply(to: command, state: console.state)
            if let start = console.typeStartCommand() { perform(start, nowNanoseconds: now) }
            return
        }
        let base = Int64(configuration.console.loginDelaySeconds * 1e9)      // 0.5…60 s (key table)
        let delay = console.loginGate.recordFailure(atNanoseconds: now, baseDelayNanoseconds: base)
        let failures = console.loginGate.consecutiveFailures
        logConsole(console) { out in
            out.append("wrong password (")
            out.append(int: failures)
            out.append(failures == 1 ? " failure" : " failures in a row")
            out.append("); refusing attempts for ")
            out.append(Double(delay) / 1e9, decimals: 1)
            out.append(" s")
        }
        resultScratch.removeAll()
        resultScratch.append("wrong password; the next attempt is checked in ")
        resultScratch.append(Double(delay) / 1e9, decimals: 1)
        resultScratch.append(" s")
        replyFailure(command, resultScratch)
    }

    /// nil when the console's access allows setting `key`, else the refusal.
    func accessRefusal(setting key: ConfigurationKey) -> String? {
        guard key.shapesDevice, configuration.console.access != .full else { return nil }
        let file = configurationSaveTarget ?? "the configuration file"
        return "[" + key.section + "] " + key.name + " shapes the device (a path, bus, GPIO line, the console itself, the "
            + "state directory or the simulated board), so the console may not change it ([console] access = "
            + configuration.console.access.name.description + "); change it in " + file
            + " and restart puckd, or set [console] access = full there"
    }

    /// Logs a command that changed something, with the console it came from (serial consoles: the
    /// person at standard input/output is the one who started puckd). Allocation-free.
    func logConsoleChange(_ command: ConsoleCommand) {
        guard let console, console.isSerial, command.changesSomething else { return }
        if case .config = command { return }              // config set/save log their own line with the console
        resultScratch.removeAll()
        RenderAcknowledgement.appendText(command, state: console.state, jsonMode: false, to: &resultScratch)
        if resultScratch.count > 0 && resultScratch[resultScratch.count - 1] == 0x0A { resultScratch.removeLast(1) }
        logConsole(console) { out in
            out.append(command.name.word)
            out.append(": ")
            out.append(contentsOf: resultScratch)
        }
    }

    /// One log line `console NAME: …`.
    func logConsole(_ console: DeviceConsole, _ build: (inout OutputBuffer) -> Void) {
        output.line { out in
            out.append("console ")
            out.append(text: console.name)
            out.append(": ")
            build(&out)
        }
    }

    /// Replies with the failure text in `buffer`.
    func replyFailure(_ command: ConsoleCommand, _ buffer: borrowing OutputBuffer) {
        guard let console else { return }
        buffer.withBytes { console.session.replyFailure(to: command, bytes: $0) }
    }
}
