import Tracking

/// The reply to a command that changed something (or asked for one setting), read back from the
/// device state *after* the device applied it — so the reply shows what actually happened (e.g. the
/// mode the core chose, the zoom after clamping). Allocation-free.
public enum RenderAcknowledgement {
    /// Text, one line (newline included).
    public static func appendText(_ command: ConsoleCommand, state: borrowing ConsoleState, jsonMode: Bool,
                                  to out: inout OutputBuffer) {
        switch command {
        case .mode:
            guard let t = state.tracking else { out.append("mode: the tracking core is not running yet\n"); return }
            out.append("mode "); out.append(t.camera.trackingMode.name)
            out.append(" (tracking state "); out.append(TrackingNames.name(t.camera.trackingState)); out.append(")\n")
        case .viewport:
            guard let t = state.tracking else { out.append("viewport: the tracking core is not running yet\n"); return }
            out.append("viewport "); CameraView.appendViewport(t.camera, to: &out); out.append(UInt8(ascii: "\n"))
        case .showUserLocation:
            guard let t = state.tracking else { out.append("show: the tracking core is not running yet\n"); return }
            out.append("showsUserLocation "); RenderFormat.onOff(t.showsUserLocation, to: &out); out.append(UInt8(ascii: "\n"))
        case .accuracy, .precise:
            guard let t = state.tracking else { out.append("accuracy: the tracking core is not running yet\n"); return }
            out.append("authorization "); out.append(TrackingNames.name(t.authorizationStatus))
            out.append(", accuracy "); out.append(TrackingNames.name(t.accuracy))
            if case .precise(let key) = command { out.append(" (purpose key "); out.append(text: key); out.append(")") }
            out.append(UInt8(ascii: "\n"))
        case .pan, .rotate, .zoom, .pitch:
            guard let t = state.tracking else { out.append("camera: the tracking core is not running yet\n"); return }
            let c = t.camera
            out.append("camera ")
            RenderFormat.position(latitude: c.center.latitudeDegrees, longitude: c.center.longitudeDegrees, to: &out)
            out.append(", zoom "); out.append(c.zoom, decimals: 2)
            out.append(", bearing "); RenderFormat.degrees(c.bearingDegrees, to: &out)
            out.append(", pitch "); RenderFormat.degrees(c.pitchDegrees, to: &out)
            out.append(", mode "); out.append(c.trackingMode.name); out.append(UInt8(ascii: "\n"))
        case .calibrate(let request):
            switch request {
            case .magnetometer:
                out.append("calibrate: magnetometer run started: turn the board slowly through every orientation, ")
                out.append("then type calibrate stop (")
                HeadingView.appendActivity(state.device.calibration, to: &out)
                out.append(")\n")
            case .gyroscope:
                out.append("calibrate: gyroscope bias measurement started: keep the board still (")
                HeadingView.appendActivity(state.device.calibration, to: &out)
                out.append(")\n")
            case .stop:
                out.append("calibrate: stopped; ")
                if state.device.lastCalibrationResult.isEmpty { out.append("no result") } else {
                    out.append(text: state.device.lastCalibrationResult)
                }
                out.append(UInt8(ascii: "\n"))
            }
        case .config(let request):
            switch request {
            case .set(let key, _):
                if let i = state.device.config.index(of: key) {
                    ConfigView.appendEntry(state.device.config[i], to: &out)
                    out.removeLast(1)
                    out.append("  (not saved yet: config save writes it)\n")
                } else {
                    out.append("config: "); out.append(text: key); out.append(" set\n")
                }
            case .save:
                out.append("config saved to "); out.append(text: state.device.configPath); out.append(UInt8(ascii: "\n"))
            case .list, .show:
                ConfigView.appendText(state.device, key: nil, to: &out)
            }
        case .press(let button, let long):
            out.append("press: button "); out.append(int: button); out.append(long ? " long press\n" : " short press\n")
        case .quit:
            out.append("bye\n")
        case .login:
            out.append("logged in: type help for the commands\n")
        case .version:
            out.append("puckd "); out.append(state.device.version); out.append(UInt8(ascii: "\n"))
        case .json:
            out.append("json "); RenderFormat.onOff(jsonMode, to: &out); out.append(UInt8(ascii: "\n"))
        case .help, .view, .watch:
            break   // rendered by their views
        }
    }

    /// One JSON object (no newline) `{"reply":"<command>",…}`.
    public static func appendJSON(_ command: ConsoleCommand, state: borrowing ConsoleState, jsonMode: Bool,
                                  to out: inout OutputBuffer) {
        var o = JSONWriter.begin(&out)
        o.string("reply", command.name.word, &out)
        switch command {
        case .mode:
            o.string("trackingMode", state.tracking?.camera.trackingMode.name, &out)
            o.string("trackingState", state.tracking.map { TrackingNames.name($0.camera.trackingState) }, &out)
        case .viewport:
            if let t = state.tracking {
                out.append(UInt8(ascii: ","))
                TrackingJSON.appendViewportStatus(t.camera.viewportStatus, to: &out)
                o.number("viewportTransitionProgress", t.camera.viewportTransitionProgress, decimals: 4, &out)
            } else {
                o.null("viewportStatus", &out)
            }
        case .showUserLocation:
            o.key("showsUserLocation", &out)
            if let t = state.tracking { out.append(t.showsUserLocation ? "true" : "false") } else { out.append("null") }
        case .accuracy, .precise:
            if case .precise(let key) = command { o.text("purposeKey", key, &out) }
            o.string("authorization", state.tracking.map { TrackingNames.name($0.authorizationStatus) }, &out)
            o.string("accuracy", state.tracking.map { TrackingNames.name($0.accuracy) }, &out)
        case .pan, .rotate, .zoom, .pitch:
            let c = state.tracking?.camera
            o.number("centerLatitudeDegrees", c?.center.latitudeDegrees, decimals: 9, &out)
            o.number("centerLongitudeDegrees", c?.center.longitudeDegrees, decimals: 9, &out)
            o.number("zoom", c?.zoom, decimals: 4, &out)
            o.number("bearingDegrees", c?.bearingDegrees, decimals: 3, &out)
            o.number("pitchDegrees", c?.pitchDegrees, decimals: 3, &out)
            o.string("trackingMode", c?.trackingMode.name, &out)
        case .calibrate(let request):
            o.string("request", request == .magnetometer ? "mag" : request == .gyroscope ? "gyro" : "stop", &out)
            o.key("calibrationActivity", &out)
            HeadingView.appendActivityJSON(state.device.calibration, to: &out)
            o.text("lastCalibrationResult", state.device.lastCalibrationResult, &out)
        case .config(let request):
            switch request {
            case .set(let key, _):
                if let i = state.device.config.index(of: key) {
                    ConfigView.entryFields(state.device.config[i], &o, &out)
                } else {
                    o.text("key", key, &out)
                }
                o.bool("saved", false, &out)
            case .save:
                o.bool("saved", true, &out)
                o.text("path", state.device.configPath, &out)
            case .list, .show:
                break
            }
        case .press(let button, let long):
            o.integer("button", button, &out)
            o.bool("long", long, &out)
        case .quit(let reason):
            o.string("reason", reason == .command ? "command" : "endOfTransmission", &out)
        case .login:
            o.bool("loggedIn", true, &out)
        case .version:
            o.string("version", state.device.version, &out)
        case .json:
            o.bool("json", jsonMode, &out)
        case .help, .view, .watch:
            break
        }
        o.end(&out)
    }
}
