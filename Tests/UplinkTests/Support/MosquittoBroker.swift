#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A TLS listener of the test broker: its certificate and key, the CA it checks client certificates
/// against, and whether it requires one (mosquitto.conf(5) `require_certificate`).
struct MosquittoTLSListener {
    var certificateFile: String
    var keyFile: String
    var caFile: String
    var requireCertificate = false
}

/// A real mosquitto (Debian's package) for one test: its own directory, configuration, password file
/// and persistence, on a free loopback port (and a TLS listener on another); `mosquitto_sub` as the consumer.
final class MosquittoBroker {
    let directory: String
    let port: UInt16
    /// The TLS listener's port (0: none).
    let tlsPort: UInt16
    private(set) var process: BackgroundProcess?
    private var runs = 0

    /// nil when mosquitto is not installed (make test installs it).
    init?(tls: MosquittoTLSListener? = nil) {
        guard runProcess(["sh", "-c", "command -v mosquitto && command -v mosquitto_sub && command -v mosquitto_passwd"])?.status == 0
        else { return nil }
        directory = Fixtures.temporaryDirectory(prefix: "puckd-mosquitto")
        // Started as root, mosquitto would switch to the `mosquitto` user, who cannot read this directory.
        let userName = runProcess(["id", "-un"])?.output.split(separator: "\n").first.map(String.init) ?? "mosquitto"
        port = freePort()
        tlsPort = tls == nil ? 0 : freePort()
        guard runProcess(["mosquitto_passwd", "-b", "-c", directory + "/passwd", "fleet", "secret"])?.status == 0 else { return nil }
        _ = runProcess(["chmod", "0600", directory + "/passwd"])
        writeFile(directory + "/mosquitto.conf", """
            listener \(port) 127.0.0.1
            allow_anonymous false
            password_file \(directory)/passwd
            persistence true
            persistence_location \(directory)/
            log_dest stdout
            log_type all
            user \(userName)

            """ + (tls.map { t in """
            listener \(tlsPort) 127.0.0.1
            certfile \(t.certificateFile)
            keyfile \(t.keyFile)
            cafile \(t.caFile)
            require_certificate \(t.requireCertificate)
            tls_version tlsv1.2

            """ } ?? ""))
    }

    deinit {
        process?.stop(SIGKILL)
        _ = runProcess(["rm", "-rf", directory])
    }

    /// Starts (or restarts) the broker; true once it listens.
    func start() -> Bool {
        runs += 1
        process = BackgroundProcess(["stdbuf", "-oL", "mosquitto", "-c", directory + "/mosquitto.conf"], outputPath: directory + "/broker-\(runs).log")
        return process?.waitFor("listen socket on port \(tlsPort == 0 ? port : tlsPort).", seconds: 10) ?? false
    }

    /// Stops it (SIGTERM: it saves its persistence, as at a service restart).
    func stop() {
        process?.stop()
        process = nil
    }

    /// `mosquitto_sub -v` with a persistent session (QoS 1, clean session off) so that messages published
    /// while it reconnects after a broker restart wait for it in the broker.
    func subscribe(clientIdentifier: String = "consumer") -> BackgroundProcess? {
        let path = directory + "/sub-\(clientIdentifier).out"
        guard let sub = BackgroundProcess(["stdbuf", "-oL", "mosquitto_sub", "-h", "127.0.0.1", "-p", String(port), "-u", "fleet",
                                           "-P", "secret", "-q", "1", "-c", "-i", clientIdentifier, "-v", "-t", "puckd/puck1/#"],
                                          outputPath: path) else { return nil }
        guard process?.waitFor("as \(clientIdentifier) (", seconds: 10) ?? false else { sub.stop(); return nil }
        sleepMilliseconds(200)   // its SUBSCRIBE follows the CONNECT
        return sub
    }

    /// The `seq` of every position line the subscriber printed, in arrival order.
    static func sequences(_ output: String) -> [UInt64] {
        var result: [UInt64] = []
        let marker = "puckd/puck1/position {\"seq\":"
        for line in output.split(separator: "\n") where line.hasPrefix(marker) {
            if let s = UInt64(String(line.dropFirst(marker.count).prefix { $0.isNumber })) { result.append(s) }
        }
        return result
    }
}
