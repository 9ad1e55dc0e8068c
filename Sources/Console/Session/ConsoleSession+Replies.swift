/// Replies: the device's `reply(to:state:)` / `replyFailure`, and the session's own (help, json,
/// errors). Each reply is rendered whole into the reply buffer, then committed to the output.
extension ConsoleSession {
    /// Replies to `command` (as returned by `feed`) after the device applied it: a view renders the
    /// state; a change is acknowledged with the state read back (mode, camera, authorization …).
    public mutating func reply(to command: ConsoleCommand, state: borrowing ConsoleState) {
        awaitingReply = false
        if case .config(.show(let key)) = command, state.device.config.index(of: key) == nil {
            counters.errors += 1
            message.removeAll()
            ConfigView.appendUnknownKey(state.device.config, key, to: &message)
            replyMessage(command: .config)
            return
        }
        reply.removeAll()
        switch command {
        case .view(let view):
            render(view, state: state)
        case .help(let topic):
            renderHelp(topic)
        case .config(.list):
            if jsonMode { ConfigView.appendJSON(state.device, key: nil, to: &reply) } else {
                ConfigView.appendText(state.device, key: nil, to: &reply)
            }
        case .config(.show(let key)):
            if jsonMode { ConfigView.appendJSON(state.device, key: key, to: &reply) } else {
                ConfigView.appendText(state.device, key: key, to: &reply)
            }
        default:
            if jsonMode {
                RenderAcknowledgement.appendJSON(command, state: state, jsonMode: jsonMode, to: &reply)
            } else {
                RenderAcknowledgement.appendText(command, state: state, jsonMode: jsonMode, to: &reply)
            }
        }
        if jsonMode { reply.append(UInt8(ascii: "\n")) }
        commitReply()
        if case .quit = command { return }   // the session is over: no prompt after "bye"
        prompt()
    }

    /// Replies that the device could not do `command`: `message` is one sentence saying why and what
    /// to do (printed as `CMD: message`; in JSON `{"reply":"error","command":…,"message":…}`).
    public mutating func replyFailure(to command: ConsoleCommand, message text: StaticString) {
        awaitingReply = false
        counters.errors += 1
        message.removeAll()
        message.append(command.name.word); message.append(": "); message.append(text)
        replyMessage(command: command.name)
    }

    /// As `replyFailure(to:message:)` with a message built by the device (e.g. a config validation error).
    public mutating func replyFailure(to command: ConsoleCommand, text: borrowing ConsoleText) {
        awaitingReply = false
        counters.errors += 1
        message.removeAll()
        message.append(command.name.word); message.append(": "); message.append(text: text)
        replyMessage(command: command.name)
    }

    /// Renders a view into the reply buffer (text or JSON object, no trailing newline for JSON).
    mutating func render(_ view: ConsoleView, state: borrowing ConsoleState) {
        let json = jsonMode
        switch view {
        case .status:
            if json { StatusView.appendJSON(state, to: &reply) } else { StatusView.appendText(state, to: &reply) }
        case .gps:
            if json {
                GPSView.appendJSON(state.fix, receivedNanoseconds: state.device.fixReceivedNanoseconds,
                                   nowNanoseconds: state.device.nowNanoseconds, to: &reply)
            } else {
                GPSView.appendText(state.fix, receivedNanoseconds: state.device.fixReceivedNanoseconds,
                                   nowNanoseconds: state.device.nowNanoseconds, to: &reply)
            }
        case .sats:
            if json { SatellitesView.appendJSON(state.skyView, to: &reply) } else { SatellitesView.appendText(state.skyView, to: &reply) }
        case .heading:
            if json {
                HeadingView.appendJSON(state.heading, calibration: state.magnetometerCalibration,
                                       bearing: state.tracking?.bearing, device: state.device, to: &reply)
            } else {
                HeadingView.appendText(state.heading, calibration: state.magnetometerCalibration,
                                       bearing: state.tracking?.bearing, device: state.device, to: &reply)
            }
        case .puck:
            if json { PuckView.appendJSON(state.tracking, to: &reply) } else { PuckView.appendText(state.tracking, to: &reply) }
        case .camera:
            if json { CameraView.appendJSON(state.tracking, to: &reply) } else { CameraView.appendText(state.tracking, to: &reply) }
        case .leds:
            if json { LEDsView.appendJSON(state.device, to: &reply) } else { LEDsView.appendText(state.device, to: &reply) }
        case .track:
            if json { TrackView.appendJSON(state.device, to: &reply) } else { TrackView.appendText(state.device, to: &reply) }
        case .uplink:
            if json { UplinkView.appendJSON(state.device, to: &reply) } else { UplinkView.appendText(state.device, to: &reply) }
        case .server:
            if json { ServerView.appendJSON(state.device, to: &reply) } else { ServerView.appendText(state.device, to: &reply) }
        case .stats:
            if json { StatsView.appendJSON(state, console: counters, to: &reply) } else {
                StatsView.appendText(state, console: counters, to: &reply)
            }
        case .events(let count):
            if json { EventsView.appendJSON(state.events, count: count, to: &reply) } else {
                EventsView.appendText(state.events, count: count, to: &reply)
            }
        case .nmea(let count):
            if json { NMEAView.appendJSON(state.nmea, count: count, to: &reply) } else {
                NMEAView.appendText(state.nmea, count: count,
                                    startNanoseconds: state.device.nowNanoseconds &- state.device.uptimeNanoseconds, to: &reply)
            }
        }
    }

    /// A parse or line error.
    mutating func replyError(_ error: CommandError) {
        counters.errors += 1
        message.removeAll()
        error.appendMessage(to: &message)
        replyMessage(command: error.command)
    }

    /// Replies with the text in `message`: as a line, or as a JSON error object.
    mutating func replyMessage(command: ConsoleCommandName?) {
        reply.removeAll()
        if jsonMode {
            var o = JSONWriter.begin(&reply)
            o.string("reply", "error", &reply)
            o.string("command", command?.word, &reply)
            o.key("message", &reply)
            message.withBytes { JSONWriter.string($0, &reply) }
            o.end(&reply)
        } else {
            reply.append(contentsOf: message)
        }
        reply.append(UInt8(ascii: "\n"))
        commitReply()
        prompt()
    }

    /// `help` / `help CMD`.
    mutating func replyHelp(_ topic: ConsoleCommandName?) {
        reply.removeAll()
        renderHelp(topic)
        if jsonMode { reply.append(UInt8(ascii: "\n")) }
        commitReply()
        prompt()
    }

    mutating func renderHelp(_ topic: ConsoleCommandName?) {
        if !jsonMode {
            if let topic { HelpText.appendCommand(topic, to: &reply) } else { HelpText.appendList(to: &reply) }
            return
        }
        var o = JSONWriter.begin(&reply)
        o.string("reply", "help", &reply)
        if let topic {
            o.string("command", topic.word, &reply)
            o.string("usage", HelpText.usage(topic), &reply)
            o.string("summary", HelpText.summary(topic), &reply)
            o.string("details", HelpText.details(topic), &reply)
        } else {
            o.key("commands", &reply)
            reply.append(UInt8(ascii: "["))
            var i = 0
            while i < ConsoleCommandName.count {
                let name = ConsoleCommandName.at(i)
                if i > 0 { reply.append(UInt8(ascii: ",")) }
                var g = JSONWriter.begin(&reply)
                g.string("command", name.word, &reply)
                g.string("usage", HelpText.usage(name), &reply)
                g.string("summary", HelpText.summary(name), &reply)
                g.end(&reply)
                i += 1
            }
            reply.append(UInt8(ascii: "]"))
        }
        o.end(&reply)
    }

    /// `json`, `json on`, `json off`: the setting after the change.
    mutating func replyJSONSetting() {
        reply.removeAll()
        if jsonMode {
            var o = JSONWriter.begin(&reply)
            o.string("reply", "json", &reply)
            o.bool("json", true, &reply)
            o.end(&reply)
            reply.append(UInt8(ascii: "\n"))
        } else {
            reply.append("json off\n")
        }
        commitReply()
        prompt()
    }
}
