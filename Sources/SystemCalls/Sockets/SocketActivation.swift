import CLinux
import Glibc

/// A socket the service manager passed to this process at start (systemd socket activation,
/// sd_listen_fds(3)'s protocol, read without libsystemd): its descriptor, the name the socket unit
/// gave it (`FileDescriptorName=`, from LISTEN_FDNAMES) and what the kernel says it is.
public struct ActivatedSocket: Sendable, Equatable {
    public let descriptor: FileDescriptor
    /// The unit's name for it ("" when LISTEN_FDNAMES names none; systemd's default is the unit's name).
    public let name: String
    /// Where it is bound (getsockname(2)): IPv4, IPv6 or a Unix path; nil for another family.
    public let address: SocketAddress?
    /// A listening stream socket (SO_TYPE SOCK_STREAM with SO_ACCEPTCONN): what a server can accept on.
    public let isListeningStream: Bool
}

/// Takes the sockets systemd passed: `LISTEN_PID` must be this process, `LISTEN_FDS` says how many
/// descriptors from 3 on, `LISTEN_FDNAMES` (colon-separated) names them. The variables are removed
/// (as sd_listen_fds(1) does), so a child process does not take the sockets for its own; each
/// descriptor is made close-on-exec and non-blocking. Start-up only (allocates).
public enum SocketActivation {
    /// The first passed descriptor (SD_LISTEN_FDS_START).
    public static let firstDescriptor: CInt = 3

    /// The passed sockets, none when this process was not socket-activated (or the variables were
    /// for another process: LISTEN_PID differs).
    public static func takePassedSockets() -> [ActivatedSocket] {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pidText = ProcessIdentity.environment("LISTEN_PID"), let pid = Int32(pidText), pid == getpid(),
              let countText = ProcessIdentity.environment("LISTEN_FDS"), let count = Int32(countText), count > 0, count < 1024
        else { return [] }
        let names = (ProcessIdentity.environment("LISTEN_FDNAMES") ?? "").split(separator: ":", omittingEmptySubsequences: false)
        var passed: [ActivatedSocket] = []
        for i in 0..<count {
            let raw = firstDescriptor + i
            guard fcntl(raw, F_GETFD) >= 0 else { continue }
            _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
            let flags = fcntl(raw, F_GETFL)
            if flags >= 0 { _ = fcntl(raw, F_SETFL, flags | O_NONBLOCK) }
            let fd = FileDescriptor(known: raw)
            let name = Int(i) < names.count ? String(names[Int(i)]) : ""
            passed.append(ActivatedSocket(descriptor: fd, name: name, address: Socket.localAddress(fd),
                                          isListeningStream: option(fd, SO_TYPE) == CInt(SOCK_STREAM.rawValue) && option(fd, SO_ACCEPTCONN) == 1))
        }
        return passed
    }

    /// An integer socket option at SOL_SOCKET, nil when the descriptor is not a socket.
    static func option(_ fd: FileDescriptor, _ name: CInt) -> CInt? {
        var value: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        return getsockopt(fd.rawValue, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
    }
}
