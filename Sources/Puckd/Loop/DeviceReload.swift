import Configuration
import Controls

/// SIGHUP: read the configuration again. A bad file is rejected with its error and the running
/// configuration stays; a good one is applied as far as the running device can (keys marked live),
/// and the log says what changed and what waits for a restart. A storm of SIGHUPs is coalesced: at
/// most one reload per `reloadIntervalNanoseconds` (the first at once), serving every request since
/// the last, and the log line says how many were merged.
extension Device {
    /// A SIGHUP arrived: the next step reloads (at once, or when the interval since the last reload ends).
    func requestReload() {
        pendingReloadRequests += 1
        routerCounters.reloadRequests &+= 1
    }

    func reload(nowNanoseconds now: Int64, requests: Int = 1) {
        routerCounters.reloads &+= 1
        let merged = requests > 1 ? " (" + String(requests) + " SIGHUPs merged into this reload)" : ""
        let loaded: LoadedConfiguration
        do throws(ConfigurationError) {
            loaded = try sources.load()
        } catch {
            output.text("config: reload rejected, the running configuration stays: " + error.description + merged, priority: .error)
            return
        }
        // The password file is read again too; an unusable one rejects the reload (the old one stays).
        let previousPassword = consolePassword
        if let problem = loadConsolePassword(loaded.configuration.console.passwordFile) {
            consolePassword = previousPassword
            consolePasswordProblem = previousPassword == nil ? problem : nil
            output.text("config: reload rejected, the running configuration stays: [console] password_file = "
                + problem + merged, priority: .error)
            return
        }
        if !consoleChanges.isEmpty {
            output.text("config: the reload drops " + String(consoleChanges.count) + " unsaved console change"
                + (consoleChanges.count == 1 ? "" : "s") + " (" + consoleChanges.map(\.key).joined(separator: ", ")
                + "); config save writes changes to the file", priority: .warning)
            consoleChanges = []
        }
        self.loaded = loaded
        let changes = ConfigurationChanges(from: configuration, to: loaded.configuration)
        var running = configuration
        for change in changes.live {
            if let key = ConfigurationKeys.all.first(where: { $0.qualifiedName == change.key }) {
                _ = key.write(change.newValue, into: &running)
            }
        }
        apply(running, nowNanoseconds: now)
        output.text("config: reloaded " + sources.summary + ": " + changes.summary + merged)
        fillConfigTable()
    }

    /// Applies the live settings of `new` to the running device.
    func apply(_ new: PuckdConfiguration, nowNanoseconds now: Int64) {
        let old = configuration
        configuration = new
        if new.heading != old.heading { imuLink.setHeadingConfiguration(new.heading) }
        if new.heading.headingFilterDegrees != old.heading.headingFilterDegrees {
            core.setHeadingFilterDegrees(new.heading.headingFilterDegrees)
        }
        gpsLink.pipeline.assembler.configuration.quietCloseFraction = new.gps.quietCloseFraction
        if new.gpio.modeCycle != old.gpio.modeCycle, let cycle = try? ButtonModeCycle(new.gpio.modeCycle) {
            controls.modeCycle = cycle
        }
        if new.loop.tickHertz != old.loop.tickHertz {
            scheduler.setTickHertz(new.loop.tickHertz, imuPeriodNanoseconds: !imuLink.isPresent ? nil : imuPeriodNanoseconds,
                                   nowNanoseconds: now)
            scheduler.arm(imuNextNanoseconds: imuLatestReadNanoseconds, deadline: WakeDeadline(gpsLink.deadlineNanoseconds, reason: .epoch), fired: true)
        }
        if new.tracking.followZoom != old.tracking.followZoom || new.tracking.followPitchDegrees != old.tracking.followPitchDegrees {
            followViewport = nil   // the configured follow-puck options apply again
        }
        if new.console.startCommand != old.console.startCommand {
            console?.startCommand = new.console.startCommand.isEmpty ? [] : Array(new.console.startCommand.utf8) + [0x0D]
        }
        if new.console.statusIntervalSeconds != old.console.statusIntervalSeconds {
            nextStatusNanoseconds = now + Int64(new.console.statusIntervalSeconds * 1e9)
        }
    }
}
