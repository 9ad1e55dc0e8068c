import Console
import Hardware
import Heading
import State
import Tracking

/// Console commands applied to the running device, then answered with the state read back (so the
/// reply shows what actually happened). Everything but `config KEY VALUE` and `config save` (which
/// parse and write configuration text) and `quit` on a serial console (a fresh session) is
/// allocation-free.
extension Device {
    /// Applies `command` (as the session returned it) and replies.
    func perform(_ command: ConsoleCommand, nowNanoseconds now: Int64) {
        guard let console else { return }
        routerCounters.commands &+= 1
        if case .login(let password) = command {
            login(password, nowNanoseconds: now)
            return
        }
        if let refusal = configuration.console.access.refusal(of: command) {
            console.session.replyFailure(to: command, message: refusal)
            return
        }
        if let failure = apply(command, nowNanoseconds: now) {
            drainCoreEvents()
            console.session.replyFailure(to: command, message: failure)
            return
        }
        if case .config(let request) = command, !configCommand(request, nowNanoseconds: now) { return }
        // The core computes the puck and camera at its scheduled ticks only: the reply waits for the
        // next one (at most a tick period), so it shows what the command changed.
        console.awaitingTick = command
    }

    /// After a scheduled tick: answers the command that waited for it.
    func answerAwaitingCommand(nowNanoseconds now: Int64) {
        guard let console, let command = console.awaitingTick else { return }
        console.awaitingTick = nil
        refreshConsoleState(nowNanoseconds: now)
        console.session.reply(to: command, state: console.state)
        logConsoleChange(command)
        if case .quit = command { quit() }
        if console.inputEndedWhileAwaiting {
            console.inputEndedWhileAwaiting = false
            inputEndedAfterLastReply()
        }
    }

    /// The follow-puck options in use: set on the console (and saved), else the configured ones.
    var followOptions: FollowPuckOptions { followViewport?.options ?? configuration.tracking.followOptions }

    /// Changes what `command` asks for; returns why it could not (one sentence), or nil.
    func apply(_ command: ConsoleCommand, nowNanoseconds now: Int64) -> StaticString? {
        switch command {
        case .help, .view, .version, .json, .watch, .config, .quit, .login:
            return nil
        case .mode(let request):
            switch request {
            case .show: break
            case .set(let mode, let animated): core.setTrackingMode(mode, animated: animated, atNanoseconds: now)
            case .next(let animated):
                switch controls.modeCycle.next(after: currentCycleEntry) {
                case .mode(let mode): core.setTrackingMode(mode, animated: animated, atNanoseconds: now)
                case .overview:
                    core.transitionViewport(to: .overview(OverviewOptions()), transition: animated ? .default : .immediate,
                                            atNanoseconds: now)
                }
            }
            return nil
        case .viewport(let request):
            return applyViewport(request, nowNanoseconds: now)
        case .showUserLocation(let shows):
            if let shows { core.setShowsUserLocation(shows, atNanoseconds: now) }
            return nil
        case .accuracy(let accuracy):
            if let accuracy {
                accuracySetting = accuracy
                core.changeAuthorization(status: core.authorization.status, accuracy: accuracy, atNanoseconds: now)
                persistence.dirty = true
            }
            return nil
        case .precise(let key):
            if core.authorization.status != .authorized {
                return "location is not authorized, so there is no accuracy to raise"
            }
            // The configured key with these bytes (no String made from the typed text).
            let keys = core.configuration.temporaryFullAccuracyPurposeKeys
            var i = 0
            while i < keys.count {
                var candidate = keys[i]
                let same = candidate.withUTF8 { known in key.withBytes { typed in Self.sameBytes(UnsafeRawBufferPointer(known), typed) } }
                if same {
                    _ = core.requestTemporaryFullAccuracy(purposeKey: keys[i], atNanoseconds: now)
                    return nil
                }
                i += 1
            }
            return "the tracking core knows no such purpose key (MapLibre's is MLNAccuracyAuthorizationDescription)"
        case .pan, .rotate, .zoom, .pitch:
            guard let gestures = CommandGestures.gestures(for: command, camera: core.camera) else { return nil }
            var i = 0
            while i < gestures.count {
                core.handleGesture(gestures[i], atNanoseconds: now)
                i += 1
            }
            return nil
        case .calibrate(let request):
            return applyCalibration(request, nowNanoseconds: now)
        case .press(let button, let long):
            return board.press(button == 2 ? .secondary : .primary, long: long,
                               longPressNanoseconds: Int64(configuration.gpio.longPressMilliseconds) * 1_000_000, nowNanoseconds: now)
        }
    }

    func applyViewport(_ request: ConsoleViewportRequest, nowNanoseconds now: Int64) -> StaticString? {
        switch request {
        case .show:
            break
        case .follow(let zoom, let pitch, let bearing, let immediate):
            var options = followOptions
            if zoom != nil || pitch != nil || bearing != nil {
                let saved = SavedFollowViewport(zoom: zoom ?? options.zoom ?? configuration.tracking.followZoom,
                                                pitchDegrees: pitch ?? options.pitchDegrees ?? configuration.tracking.followPitchDegrees,
                                                bearing: bearing?.followPuckBearing ?? options.bearing ?? .heading)
                followViewport = saved
                options = saved.options
                persistence.dirty = true
            }
            core.transitionViewport(to: .followPuck(options), transition: immediate ? .immediate : .default, atNanoseconds: now)
        case .overview(let immediate):
            core.transitionViewport(to: .overview(OverviewOptions()), transition: immediate ? .immediate : .default,
                                    atNanoseconds: now)
        case .idle:
            core.idleViewport(atNanoseconds: now)
        }
        return nil
    }

    func applyCalibration(_ request: ConsoleCalibrationRequest, nowNanoseconds now: Int64) -> StaticString? {
        switch request {
        case .magnetometer:
            guard imuLink.isPresent else { return "no IMU, nothing to calibrate (status says why)" }
            startMagnetometerCalibration(nowNanoseconds: now)
        case .gyroscope:
            guard imuLink.isPresent else { return "no IMU, nothing to calibrate (status says why)" }
            startGyroscopeCalibration(nowNanoseconds: now)
        case .stop:
            guard let stateChanged = imuLink.stopCalibration(nowNanoseconds: now) else {
                return "no calibration is running (calibrate mag or calibrate gyro starts one)"
            }
            if stateChanged { persistence.dirty = true }
        }
        return nil
    }

    /// `quit`: on standard streams puckd stops cleanly; a serial console ends this session and starts a
    /// fresh one once "bye" is written.
    func quit() {
        guard let console else { return }
        console.session.endInput()
        if console.isSerial {
            console.replaceSessionWhenFlushed = true
        } else if stopReason == nil {
            stopReason = .consoleQuit
        }
    }

    static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }
}
