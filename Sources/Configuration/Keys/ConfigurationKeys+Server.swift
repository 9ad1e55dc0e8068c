import GpsdServer

/// The `[server]` keys: puckd's gpsd-compatible server (docs/gpsd-protocol.md §4). Restart-only: the
/// listeners and client slots are opened at start-up.
extension ConfigurationKeys {
    static let server: [ConfigurationKey] = [
        .boolean("server", "enabled", \.server.enabled,
                 doc: "serve gpsd's client protocol (gpspipe, cgps, python3-gps, map renderers) on listen and socket"),
        .text("server", "listen", \.server.listen,
              allowed: "none or a comma-separated list of IPv4:PORT / [IPv6]:PORT",
              doc: "TCP addresses to listen on; loopback only by default, a non-loopback address opens the stream to the network",
              validate: { text in
                  if ConfigurationKey.isNone(text) { return nil }
                  for item in text.split(separator: ",") {
                      let entry = String(item).trimmingWhiteSpace()
                      if entry.hasPrefix("/") { return "'" + entry + "' is a path: Unix sockets go in [server] socket" }
                      if case .failure(let e) = ListenAddress.parse(entry) { return e.message }
                  }
                  return nil
              }),
        .text("server", "socket", \.server.socket, allowed: "none or an absolute path",
              doc: "Unix socket path serving the same protocol (e.g. /run/puckd/gpsd.sock)",
              validate: { $0.isEmpty || ConfigurationKey.isNone($0) || $0.hasPrefix("/") ? nil : "not an absolute path, write /run/puckd/gpsd.sock or none" }),
        .integer("server", "max_clients", \.server.maxClients, 1...256, unit: "clients",
                 doc: "fixed client slots (16 KiB of output buffer each); a client beyond them gets an ERROR and is closed"),
    ]
}

extension ConfigurationKeys {
    /// The `[time]` keys: time for chrony (docs/gpsd-protocol.md §7). Restart-only.
    static let time: [ConfigurationKey] = [
        .text("time", "chrony_socket", \.time.chronySocket, allowed: "none or an absolute path",
              doc: "chrony's refclock SOCK socket (e.g. /run/chrony/puckd.sock): each fix's UTC goes there as a coarse sample",
              validate: { $0.isEmpty || ConfigurationKey.isNone($0) || $0.hasPrefix("/") ? nil : "not an absolute path, write /run/chrony/puckd.sock or none" }),
        .text("time", "chrony_pps_socket", \.time.chronyPPSSocket, allowed: "none or an absolute path",
              doc: "chrony's refclock SOCK socket for the PPS (e.g. /run/chrony/puckd-pps.sock): each pulse paired with its "
                  + "second goes there as a pulse sample (chrony: refclock SOCK … lock on the coarse refclock)",
              validate: { $0.isEmpty || ConfigurationKey.isNone($0) || $0.hasPrefix("/") ? nil : "not an absolute path, write /run/chrony/puckd-pps.sock or none" }),
        .choice("time", "shm", \.time.shmUnit, [("none", nil), ("0", 0), ("1", 1)],
                doc: "NTP shared memory as gpsd writes it (chrony/ntpd refclock SHM): each fix's UTC to unit N (key 0x4E545030 + N), "
                    + "each paired PPS pulse to unit N + 1; units 0 and 1 are created 0600 (root's)"),
    ]
}

/// `[time]`: time for chrony.
public struct TimeSettings: Sendable, Equatable {
    /// chrony's `refclock SOCK` path; empty or none for none.
    public var chronySocket = ""
    /// The socket path, nil for none.
    public var chronySocketPath: String? { chronySocket.isEmpty || ConfigurationKey.isNone(chronySocket) ? nil : chronySocket }
    /// chrony's `refclock SOCK` path for PPS pulse samples; empty or none for none.
    public var chronyPPSSocket = ""
    /// That socket path, nil for none.
    public var chronyPPSSocketPath: String? {
        chronyPPSSocket.isEmpty || ConfigurationKey.isNone(chronyPPSSocket) ? nil : chronyPPSSocket
    }
    /// The NTP shared-memory unit of the coarse time (`[time] shm`), nil for none; the PPS uses the next unit.
    public var shmUnit: Int? = nil
}

extension String {
    /// Without leading and trailing spaces and tabs.
    func trimmingWhiteSpace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

/// `[server]`: the gpsd-compatible server.
public struct ServerSettings: Sendable, Equatable {
    /// Serve at all.
    public var enabled = true
    /// Comma-separated TCP listen addresses, or none.
    public var listen = "127.0.0.1:2947,[::1]:2947"
    /// A Unix socket path; empty or none for no socket.
    public var socket = ""
    /// Client slots.
    public var maxClients = 32

    /// The listen addresses (the key's validation has accepted the text).
    public var listenAddresses: [ListenAddress] {
        if ConfigurationKey.isNone(listen) { return [] }
        return listen.split(separator: ",").compactMap { ListenAddress(String($0).trimmingWhiteSpace()) }
    }

    /// The Unix socket path, nil for none.
    public var socketPath: String? { socket.isEmpty || ConfigurationKey.isNone(socket) ? nil : socket }
}
