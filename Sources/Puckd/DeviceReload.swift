import CLinux
import Glibc

/// SIGHUP: read the configuration again. A bad file is rejected with its error and the running
/// configuration stays; a good one is applied as far as the running device can (keys marked live),
/// and the log says what changed and what waits for a restart.
extension Device {
    func reload(nowNanoseconds now: Int64) {
        let loaded: LoadedConfiguration
        do throws(ConfigurationError) {
            loaded = try sources.load()
        } catch {
            output.text("config: reload rejected, the running configuration stays: " + error.description)
            return
        }
        if !consoleChanges.isEmpty {
            output.text("config: the reload drops " + String(consoleChanges.count) + " unsaved console change"
                + (consoleChanges.count == 1 ? "" : "s") + " (" + consoleChanges.map(\.key).joined(separator: ", ")
                + "); config save writes changes to the file")
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
        output.text("config: reloaded " + sources.summary + ": " + changes.summary)
        fillConfigTable()
    }

    /// Applies the live settings of `new` to the running device.
    func apply(_ new: PuckdConfiguration, nowNanoseconds now: Int64) {
        let old = configuration
        configuration = new
        if new.heading != old.heading { heading.configuration = new.heading }
        pipeline.assembler.configuration.quietCloseFraction = new.gps.quietCloseFraction
        if new.gpio.modeCycle != old.gpio.modeCycle, let cycle = try? ButtonModeCycle(new.gpio.modeCycle) {
            modeCycle = cycle
        }
        if new.loop.tickHertz != old.loop.tickHertz {
            tickPeriodNanoseconds = 1_000_000_000 / Int64(new.loop.tickHertz)
            nextTickNanoseconds = now + tickPeriodNanoseconds
            if imu != nil { coalesceNanoseconds = min(imuPeriodNanoseconds, tickPeriodNanoseconds) / 2 }
            armWakeTimer(fired: true)
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
