import Configuration
import Console
import GpsdProtocol
import GpsdServer
import IMU
import NMEA
import SystemCalls

/// The gpsd-compatible server as a part of the loop (docs/gpsd-protocol.md): opened by `puckd run`
/// from `[server]`, polled through its one epoll descriptor, fed from the loop's own values (the
/// receiver's bytes, each fix with the sky view and the attitude, the puck and camera after each tick,
/// the core's events). This file is the whole of its wiring; the server itself is module GpsdServer.
extension Device {
    /// Opens the server `[server]` asks for; nil when it is off. `lines` are for the start-up report:
    /// what listens where, and each listener that could not be opened (the rest still serve).
    /// `devicePath` is the receiver as `DEVICE` names it (default `[gps] source`). `activated`: the
    /// sockets systemd passed (`SocketActivation.takePassedSockets()`, board/puckd.socket); when there
    /// are any, the server listens on those instead of `[server] listen` and `socket`.
    public static func openGpsdServer(_ c: PuckdConfiguration, devicePath: String? = nil,
                                      activated: [ActivatedSocket] = []) -> (server: GpsdServer?, lines: [String]) {
        var opened = openServer(c, devicePath: devicePath, activated: activated)
        if let path = c.time.chronySocketPath {
            opened.lines.append("time: chrony refclock SOCK " + path + ": each fix's UTC as a coarse sample")
        }
        if let path = c.time.chronyPPSSocketPath {
            opened.lines.append("time: chrony refclock SOCK " + path + ": each PPS pulse paired with its second as a pulse sample"
                                + (c.pps.line == nil && (c.pps.device.isEmpty || c.pps.device == "none") ? " (but [pps] has no line or device)" : ""))
        }
        return opened
    }

    static func openServer(_ c: PuckdConfiguration, devicePath: String?, activated: [ActivatedSocket]) -> (server: GpsdServer?, lines: [String]) {
        guard c.server.enabled else {
            for socket in activated { Socket.close(socket.descriptor) }
            return (nil, ["server: off ([server] enabled = false)" + (activated.isEmpty ? "" : "; the sockets systemd passed are closed")])
        }
        var settings = GpsdServerConfiguration()
        settings.listen = c.server.listenAddresses
        settings.socketPath = c.server.socketPath
        settings.maxClients = c.server.maxClients
        settings.release = PuckdVersion.release
        var path = GpsdShortText()
        for b in (devicePath ?? (c.gps.source.isEmpty ? "puckd" : c.gps.source)).utf8 { path.append(b) }
        var bps: Int?
        if case .fixed(let rate) = c.gps.baud, c.gps.source.hasPrefix("/dev/") { bps = rate }
        let device = GpsdDeviceInfo(path: path, bitsPerSecond: bps, cycleSeconds: 1)
        do throws(Errno) {
            let server = try GpsdServer(configuration: settings, device: device, activated: activated)
            var lines: [String] = []
            let where_ = listenerNames(server)
            if !where_.isEmpty {
                let exposed = server.listeners.contains { !$0.address.isLocalOnly }
                lines.append("server: gpsd protocol 3.14 on " + where_.joined(separator: ", ") + ", "
                             + String(settings.maxClients) + " client slots of "
                             + String(settings.clientBufferBytes / 1024) + " KiB"
                             + (exposed ? "; a non-loopback address: any host that reaches it reads the position" : "")
                             + (server.isSocketActivated ? " (socket activation: the socket unit's listeners, [server] listen and socket unused)" : ""))
            }
            for p in server.problems where server.isSocketActivated {
                lines.append("server: passed socket left out: " + p)
            }
            for p in server.problems where !server.isSocketActivated {
                lines.append("server: cannot listen on " + p + " (another gpsd or puckd there? change [server] listen or socket)")
            }
            return (server, lines)
        } catch {
            return (nil, ["server: not started: " + error.description])
        }
    }

    /// The listening addresses as the `server` view shows them (start-up: allocates).
    static func listeningText(_ server: GpsdServer?) -> ConsoleText {
        guard let server else { return ConsoleText() }
        return ConsoleText(string: listenerNames(server).joined(separator: ", "))
    }

    /// Each listener's address, a TCP port 0 replaced by the port bound.
    static func listenerNames(_ server: GpsdServer) -> [String] {
        server.listeners.map { l in
            if case .unix(let p) = l.address { return p }
            var text = l.address.description
            if let port = l.port, text.hasSuffix(":0") { text = String(text.dropLast(2)) + ":" + String(port) }
            return text
        }
    }

    /// The console's `server` view: listeners, clients, totals (copied in place, no allocation).
    func fillServerView(_ v: inout ConsoleServerState, nowNanoseconds now: Int64) {
        guard let server = gpsdServer else { v.isEnabled = false; return }
        v.isEnabled = true
        v.listening = serverListening
        v.maxClients = server.configuration.maxClients
        v.clientCount = server.clientCount
        var row = 0
        var slot = 0
        while slot < server.configuration.maxClients && row < ConsoleServerState.clientCapacity {
            if let c = server.client(at: slot) {
                v.clients[row].slot = slot
                v.clients[row].peer = c.peer.withBytes { ConsoleText(bytes: $0) }
                Self.watchWords(c.watch, into: &v.clients[row].watch)
                v.clients[row].puckdHertz = c.watch.puckd ? Int(c.watch.puckdHertz) : 0
                v.clients[row].connectedNanoseconds = now &- c.connectedAtNanoseconds
                v.clients[row].queuedBytes = c.queuedBytes
                v.clients[row].counters = c.counters
                row += 1
            }
            slot += 1
        }
        v.totals = server.counters
    }

    /// The `?WATCH` flags a client has set, as words ("enable json nmea raw=2 pps puckd device=/dev/ttyAMA0").
    static func watchWords(_ w: GpsdWatchFlags, into text: inout ConsoleText) {
        text = ConsoleText()
        func word(_ on: Bool, _ name: StaticString) {
            guard on else { return }
            if !text.isEmpty { text.append(" ") }
            text.append(name)
        }
        word(w.enable, "enable")
        word(w.json, "json")
        word(w.nmea, "nmea")
        if w.raw > 0 { word(true, "raw="); text.append(UInt8(ascii: "0") + min(w.raw, 9)) }
        word(w.scaled, "scaled")
        word(w.timing, "timing")
        word(w.split24, "split24")
        word(w.pps, "pps")
        word(w.puckd, "puckd")
        if w.device.count > 0 { word(true, "device="); w.device.withBytes { text.append($0) } }
    }

    /// After each dated 2D/3D fix: a coarse sample for chrony (and NTP shared memory's coarse unit), the fix's UTC against the system clock
    /// now (the receiver's output delay is in it, as in gpsd's SHM(0); chrony's `offset` corrects it).
    func publishToChrony(fix: borrowing Fix, nowNanoseconds now: Int64) {
        guard chrony != nil || ntpShm != nil, fix.mode != .noFix, let utc = fix.utcNanoseconds else { return }
        let system = Int64(truncatingIfNeeded: SystemClock.realtimeNanoseconds())
        chrony?.send(ChronySample(fixUTCNanoseconds: utc, receivedSystemNanoseconds: system, leap: 0), nowNanoseconds: now)
        publishToSharedMemory(fixUTCNanoseconds: utc, systemNanoseconds: system)
    }

    /// After each wake-up's poll said the server's descriptor is readable.
    func serviceGpsdServer(nowNanoseconds now: Int64) {
        gpsdServer?.service(nowNanoseconds: now)
    }

    /// After each fix: TPV, GST, SKY (a new view), and ATT from the fused IMU.
    func publishToGpsdServer(fix: borrowing Fix, nowNanoseconds now: Int64) {
        guard let server = gpsdServer else { return }
        let skyViews = gpsLink.pipeline.assembler.counters.skyViews
        let sky: SkyView? = skyViews != server.publishedSkyViews ? gpsLink.pipeline.assembler.skyView : nil
        server.publishedSkyViews = skyViews
        if server.device.activatedUTCNanoseconds == nil { server.device.activatedUTCNanoseconds = fix.utcNanoseconds }
        server.device.seenPackets = true
        server.publish(fix: fix, sky: sky, nowNanoseconds: now)
        if imuLink.heading.published != nil {
            server.publish(attitude: imuLink.heading.current, sample: imuLink.lastSample, utcNanoseconds: fix.utcNanoseconds)
        }
    }

    /// After each tick: PUCK and CAMERA to the clients that watch them.
    func publishTickToGpsdServer(nowNanoseconds now: Int64) {
        gpsdServer?.publish(puck: core.puck, camera: core.camera, nowNanoseconds: now)
    }

    /// The server's rows of `stats`.
    func appendGpsdServerCounters(_ t: inout ConsoleCounterTable) {
        if let server = gpsdServer { appendServerRows(server, &t) }
        if let chrony {
            t.append("time.chronySamples", Int64(truncatingIfNeeded: chrony.samplesSent))
            t.append("time.chronySamplesLost", Int64(truncatingIfNeeded: chrony.samplesLost))
        }
        if let chronyPPS {
            t.append("time.chronyPulseSamples", Int64(truncatingIfNeeded: chronyPPS.samplesSent))
            t.append("time.chronyPulseSamplesLost", Int64(truncatingIfNeeded: chronyPPS.samplesLost))
        }
        appendSharedMemoryCounters(&t)
    }

    private func appendServerRows(_ server: GpsdServer, _ t: inout ConsoleCounterTable) {
        let s = server.counters
        t.append("server.clients", Int64(server.clientCount))
        t.append("server.accepted", Int64(truncatingIfNeeded: s.accepted))
        t.append("server.refused", Int64(truncatingIfNeeded: s.refused))
        t.append("server.requests", Int64(truncatingIfNeeded: s.requests))
        t.append("server.errors", Int64(truncatingIfNeeded: s.errors))
        t.append("server.reportsQueued", Int64(truncatingIfNeeded: s.reportsQueued))
        t.append("server.reportsDropped", Int64(truncatingIfNeeded: s.reportsDropped))
        t.append("server.bytesSent", Int64(truncatingIfNeeded: s.bytesSent))
        t.append("server.sentencesForwarded", Int64(truncatingIfNeeded: s.sentencesForwarded))
        t.append("server.socketErrors", Int64(truncatingIfNeeded: s.socketErrors))
    }
}
