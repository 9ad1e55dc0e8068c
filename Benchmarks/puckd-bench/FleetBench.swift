import Glibc
import Puckd
import SystemCalls
import Uplink

/// `puckd-bench fleet [TRACKERS [RATE_SECONDS [FLAT_OUT_PER_TRACKER]]]` (docs/benchmarks.md, "fleet"):
/// TRACKERS (default 1000) simulated trackers, each an `MQTTUplinkClient` with its own TCP connection and
/// its own record source, publish into one real mosquitto this bench starts on a free loopback port
/// (its own configuration and scratch directory), with `mosquitto_sub` as the consumer:
/// 1. connect: time until every session is up, memory per connection (harness RSS, buffers counted from
///    the code, mosquitto's RSS, the kernel's TCP memory);
/// 2. a tracker's rate: one position a second each for RATE_SECONDS (default 10);
/// 3. flat out: FLAT_OUT_PER_TRACKER (default 100) records each at once, sent as fast as PUBACKs come;
/// 4. the peer: `mosquitto_pub -q 1 -l` publishing the same number of messages (same payloads) on one
///    connection; then ratios. Every message is checked at the consumer: per tracker no gap, no duplicate.
func runFleetBench(_ arguments: [String]) -> Int32 {
    let trackers = arguments.count > 0 ? Int(arguments[0]) ?? 1000 : 1000
    let rateSeconds = arguments.count > 1 ? Int(arguments[1]) ?? 10 : 10
    let flatOut = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100
    guard trackers >= 1, trackers <= 60_000, rateSeconds >= 1, flatOut >= 1 else {
        StandardStreams.err("puckd-bench fleet: TRACKERS 1…60000, RATE_SECONDS ≥ 1, FLAT_OUT_PER_TRACKER ≥ 1\n")
        return 64
    }
    let limit = raiseDescriptorLimit(to: trackers + 256)
    guard limit >= trackers + 64 else {
        StandardStreams.err("puckd-bench fleet: only \(limit) open descriptors allowed (ulimit -Hn); \(trackers) trackers need \(trackers + 64)\n")
        return 71
    }
    guard let broker = FleetBroker(trackers: trackers) else { return 69 }
    defer { broker.remove() }
    StandardStreams.out("\(trackers) trackers, each an MQTTUplinkClient (QoS 1, window 16) on its own TCP connection, into one "
        + "\(broker.version) on 127.0.0.1:\(broker.port) (max_connections \(trackers + 16), no persistence); consumer: "
        + "mosquitto_sub -q 1; open-descriptor limit \(limit)\n")
    do throws(Errno) {
        let residentBefore = procMemoryKiB("/proc/self/status").resident
        let fleet = try FleetTrackers(count: trackers, port: broker.port)
        var run = FleetRun(fleet: fleet, broker: broker, residentBeforeKiB: residentBefore)
        guard run.connect() else { return 1 }
        run.atRate(seconds: rateSeconds)
        let flat = run.flatOut(perTracker: flatOut)
        let peer = run.peer(messages: trackers * flatOut)
        run.ratios(flat, peer)
        return run.clean ? 0 : 1
    } catch {
        StandardStreams.err("puckd-bench fleet: epoll: \(error)\n")
        return 71
    }
}

/// The broker and the consumer of one fleet run: mosquitto with its own configuration in a scratch
/// directory, `mosquitto_sub -v` on `puckd/+/position` writing into a file the harness reads.
final class FleetBroker {
    let directory: String
    let port: UInt16
    let version: String
    let process: FleetProcess
    let subscriber: FleetProcess
    let count: FleetSubscriberCount

    init?(trackers: Int) {
        var template = Array(((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/puckd-bench-fleet-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { StandardStreams.err("puckd-bench fleet: mkdtemp failed\n"); return nil }
        directory = String(cString: made)
        port = freeLoopbackPort()
        // As root, mosquitto switches to the `mosquitto` user, who could not write this directory.
        let user = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "mosquitto"
        let configuration = """
            listener \(port) 127.0.0.1
            allow_anonymous true
            max_connections \(trackers + 16)
            persistence false
            persistence_location \(directory)/
            max_queued_messages 0
            max_inflight_messages 0
            connection_messages false
            log_dest stdout
            log_type error
            log_type warning
            user \(user)

            """
        guard let f = fopen(directory + "/mosquitto.conf", "w") else { return nil }
        _ = configuration.withCString { fputs($0, f) }
        fclose(f)
        version = Self.versionLine()
        guard let broker = FleetProcess(["mosquitto", "-c", directory + "/mosquitto.conf"], outputPath: directory + "/mosquitto.log") else {
            StandardStreams.err("puckd-bench fleet: cannot start mosquitto: apt-get install mosquitto (make deps-bench)\n")
            return nil
        }
        process = broker
        guard waitForListener(port: port, seconds: 10) else {
            StandardStreams.err("puckd-bench fleet: mosquitto did not listen on \(port) in 10 s (\(directory)/mosquitto.log)\n")
            return nil
        }
        let output = directory + "/sub.out"
        guard let sub = FleetProcess(["stdbuf", "-oL", "mosquitto_sub", "-h", "127.0.0.1", "-p", String(port), "-q", "1", "-v",
                                      "-i", "fleet-consumer", "-t", "puckd/+/position"], outputPath: output),
              let count = FleetSubscriberCount(path: output, trackers: trackers) else {
            StandardStreams.err("puckd-bench fleet: cannot start mosquitto_sub: apt-get install mosquitto-clients (make deps-bench)\n")
            return nil
        }
        subscriber = sub
        self.count = count
        guard subscribed() else {
            StandardStreams.err("puckd-bench fleet: mosquitto_sub did not receive a probe message in 10 s\n")
            return nil
        }
    }

    deinit {
        subscriber.stop()
        process.stop()
    }

    /// Publishes a probe until the consumer prints it: its SUBSCRIBE is in place.
    private func subscribed() -> Bool {
        let end = monotonicNanoseconds() + 10_000_000_000
        while monotonicNanoseconds() < end {
            _ = FleetProcess(["mosquitto_pub", "-h", "127.0.0.1", "-p", String(port), "-t", "puckd/probe/position", "-m", "{\"seq\":0}"],
                             outputPath: directory + "/probe.out")?.wait()
            usleep(100_000)
            count.drain()
            if count.otherLines > 0 { return true }
        }
        return false
    }

    private static func versionLine() -> String {
        let path = "/tmp/puckd-bench-fleet-version-\(getpid()).txt"
        _ = FleetProcess(["mosquitto", "-h"], outputPath: path)?.wait()
        defer { unlink(path) }
        return procFileText(path).split(separator: "\n").first.map(String.init) ?? "mosquitto"
    }

    /// Deletes the scratch directory (after the processes stopped).
    func remove() {
        subscriber.stop()
        process.stop()
        _ = FleetProcess(["rm", "-rf", directory], outputPath: "/dev/null")?.wait()
    }
}
