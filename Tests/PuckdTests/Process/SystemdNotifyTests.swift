import Glibc
import Testing
@testable import Puckd

/// sd_notify without libsystemd, checked against a real unix datagram socket.
@Suite struct SystemdNotifyTests {
    /// A bound unix datagram socket; `abstract` binds "@name".
    final class Listener {
        let fd: Int32
        let name: String

        init(abstract: Bool) {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            let unique = "puckd-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            name = abstract ? "@" + unique : "/tmp/" + unique
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(name.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { path in
                for (i, b) in bytes.enumerated() { path[i] = b }
                if abstract { path[0] = 0 }
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            precondition(rc == 0, "bind failed")
        }

        deinit {
            close(fd)
            if !name.hasPrefix("@") { unlink(name) }
        }

        /// The datagrams waiting, as text.
        func received() -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n <= 0 { return messages }
                messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
            }
        }
    }

    @Test(arguments: [false, true]) func readyWatchdogStatusStopping(abstract: Bool) {
        let listener = Listener(abstract: abstract)
        let notifier = SystemdNotifier(socketPath: listener.name, watchdogMicroseconds: 2_000_000,
                                       statusIntervalNanoseconds: 5_000_000_000)
        #expect(notifier.isActive)
        #expect(notifier.watchdogIntervalNanoseconds == 1_000_000_000)
        notifier.ready(nowNanoseconds: 10_000_000_000)
        notifier.watchdogIfDue(nowNanoseconds: 10_500_000_000)      // not due yet
        notifier.watchdogIfDue(nowNanoseconds: 11_000_000_000)      // due: half of WATCHDOG_USEC
        notifier.watchdogIfDue(nowNanoseconds: 11_400_000_000)
        notifier.watchdogIfDue(nowNanoseconds: 12_000_000_000)
        let text = Array("fix 3D, heading imuHeading\nsecond line".utf8)
        #expect(notifier.statusDue(nowNanoseconds: 12_000_000_000))
        text.withUnsafeBytes { notifier.status($0, nowNanoseconds: 12_000_000_000) }
        #expect(!notifier.statusDue(nowNanoseconds: 16_000_000_000))
        #expect(notifier.statusDue(nowNanoseconds: 17_000_000_000))
        notifier.stopping()
        #expect(listener.received() == ["READY=1", "WATCHDOG=1", "WATCHDOG=1", "STATUS=fix 3D, heading imuHeading",
                                        "STOPPING=1"])
        #expect(notifier.sentCount == 5 && notifier.failedCount == 0)
    }

    @Test func withoutNotifySocketNothingIsSent() {
        let notifier = SystemdNotifier(socketPath: nil, watchdogMicroseconds: 1_000_000)
        #expect(!notifier.isActive)
        notifier.ready(nowNanoseconds: 0)
        notifier.watchdogIfDue(nowNanoseconds: 10_000_000_000)
        notifier.stopping()
        #expect(notifier.sentCount == 0 && notifier.failedCount == 0)
    }

    @Test func aVanishedSocketCountsFailuresAndNeverBlocks() {
        let notifier = SystemdNotifier(socketPath: "/tmp/puckd-no-such-notify-socket-\(getpid())")
        notifier.ready(nowNanoseconds: 0)
        #expect(notifier.failedCount == 1)
    }
}
