import Glibc
import Testing
import TestSupport

/// The shipped device binary (the static executable of `make build`; `make test` passes its path in
/// PUCKD_DEVICE_BINARY, and the libgpiod version it must link in PUCKD_EXPECT_LIBGPIOD): which libgpiod
/// it carries, and that it resolves host names the way README promises on any distribution: /etc/hosts
/// and DNS through glibc's built-in NSS services, never a module /etc/nsswitch.conf names (those belong
/// to the system's glibc, not the one linked in). The second test builds such a module, a trap that
/// answers every name with 10.66.66.66 and leaves a mark, and puts it first in a private
/// /etc/nsswitch.conf (a mount namespace, `unshare`), next to a private /etc/hosts.
@Suite struct StaticBinaryTests {
    static let binary: String? = getenv("PUCKD_DEVICE_BINARY").map { String(cString: $0) }
    static let expectedLibgpiod: String? = getenv("PUCKD_EXPECT_LIBGPIOD").map { String(cString: $0) }

    /// True when this machine lets the tests make a private mount namespace (user namespaces enabled).
    static let namespacesWork: Bool = runProcess(["unshare", "--user", "--map-root-user", "--mount", "true"])?.status == 0

    @Test(.enabled(if: binary != nil, "PUCKD_DEVICE_BINARY is not set (make test sets it)"))
    func versionNamesTheLinkedLibraries() throws {
        let result = try #require(runProcess([Self.binary!, "--version"]))
        #expect(result.status == 0)
        #expect(result.output.contains("static executable: host names from /etc/hosts and DNS only"), "\(result.output)")
        if let expected = Self.expectedLibgpiod {
            #expect(result.output.contains("libgpiod \(expected) (GPIO uAPI v\(expected.prefix(1)))"), "\(result.output)")
        }
        // OpenSSL (the uplink's TLS) is linked in: the version of this machine's libssl.a (docs/uplink.md §10).
        let openssl = runProcess(["pkg-config", "--modversion", "openssl"])?.output.split(separator: "\n").first.map(String.init) ?? "?"
        #expect(result.output.contains("OpenSSL " + openssl + " "), "\(result.output)")
        // One file, no shared libraries: the "copy it to any board" claim of README.
        let header = try #require(runProcess(["od", "-An", "-c", "-N", "4", Self.binary!]))
        #expect(header.output.contains("E   L   F"))
        let ldd = runProcess(["ldd", Self.binary!])
        #expect(!(ldd?.output.contains("=>") ?? false), "\(ldd?.output ?? "")")
    }

    @Test(.enabled(if: binary != nil, "PUCKD_DEVICE_BINARY is not set (make test sets it)"),
          .enabled(if: namespacesWork, "unshare --user --mount is not permitted here"))
    func resolvesAHostsNameWithoutSystemNSSModules() throws {
        let dir = try #require(Self.temporaryDirectory())
        defer { _ = runProcess(["rm", "-rf", dir]) }
        let trap = try Self.buildTrapModule(in: dir)
        #expect(Self.write(dir + "/hosts", "127.0.0.1 localhost\n127.0.0.1 gpshost.puckd.test\n"))
        #expect(Self.write(dir + "/nsswitch.conf", "hosts: puckdtrap files dns\n"))

        // Control: the dynamic test build of puckd, linked against this system's glibc, does load the
        // trap in this setting (so the static binary's answer below is not luck).
        let listener = try #require(TCPListener())
        let source = "tcp://gpshost.puckd.test:\(listener.port)"
        let control = try #require(Self.start(PuckdProcess.binary, source: source, seconds: 1, dir: dir, trap: trap))
        _ = control.waitForExit(seconds: 30)
        #expect(Self.read(dir + "/mark").contains("loaded"), "the trap NSS module was not loaded by the dynamic build")
        _ = unlink(dir + "/mark")

        // The probe reads for 3 s from its connection; the connection stays open until it has ended.
        let puckd = try #require(Self.start(Self.binary!, source: source, seconds: 3, dir: dir, trap: trap))
        let client = listener.accept(seconds: 20)
        #expect(client != nil, "the static binary did not connect to 127.0.0.1 (gpshost.puckd.test in /etc/hosts)")
        if let client {
            let line = Array("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n".utf8)
            _ = line.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        _ = puckd.waitForExit(seconds: 40)
        if let client { close(client) }
        #expect(puckd.output.contains("bytes from \(source)") && puckd.output.contains("first line: $GPRMC,123519"),
                "\(puckd.output)\n\(puckd.errorOutput)")
        #expect(!Self.read(dir + "/mark").contains("loaded"), "the static binary loaded an NSS module of the system")
    }

    // MARK: helpers

    /// `BINARY ports --probe SOURCE` in a private mount namespace with DIR/hosts and DIR/nsswitch.conf
    /// over the system's, the trap module findable through LD_LIBRARY_PATH.
    static func start(_ binary: String, source: String, seconds: Int, dir: String, trap: String) -> PuckdProcess? {
        let script = "mount --bind \"$1/hosts\" /etc/hosts && mount --bind \"$1/nsswitch.conf\" /etc/nsswitch.conf "
            + "&& exec \"$2\" ports --probe \"$3\" --seconds \"$4\""
        return PuckdProcess(["--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", dir, binary, source, String(seconds)],
                            executable: "/usr/bin/unshare",
                            environment: ["LD_LIBRARY_PATH=" + trap, "PUCKD_NSS_TRAP_MARK=" + dir + "/mark"])
    }

    /// Compiles libnss_puckdtrap.so.2 into DIR/trap and returns that directory.
    static func buildTrapModule(in dir: String) throws -> String {
        let source = """
            #include <nss.h>
            #include <netdb.h>
            #include <errno.h>
            #include <fcntl.h>
            #include <stdlib.h>
            #include <string.h>
            #include <unistd.h>
            #include <arpa/inet.h>
            enum nss_status _nss_puckdtrap_gethostbyname4_r(const char *name, struct gaih_addrtuple **result,
                    char *buffer, size_t length, int *errnop, int *herrnop, int32_t *ttlp) {
                (void)name; (void)ttlp;
                const char *mark = getenv("PUCKD_NSS_TRAP_MARK");
                int fd = mark ? open(mark, O_WRONLY | O_CREAT | O_APPEND, 0644) : -1;
                if (fd >= 0) { (void)!write(fd, "loaded\\n", 7); close(fd); }
                if (length < sizeof(struct gaih_addrtuple)) { *errnop = ERANGE; *herrnop = NETDB_INTERNAL; return NSS_STATUS_TRYAGAIN; }
                struct gaih_addrtuple *tuple = (struct gaih_addrtuple *)buffer;
                memset(tuple, 0, sizeof *tuple);
                tuple->family = AF_INET;
                inet_pton(AF_INET, "10.66.66.66", tuple->addr);
                *result = tuple;
                return NSS_STATUS_SUCCESS;
            }
            """
        #expect(write(dir + "/trap.c", source))
        _ = mkdir(dir + "/trap", 0o755)
        let cc = try #require(runProcess(["cc", "-shared", "-fPIC", "-o", dir + "/trap/libnss_puckdtrap.so.2", dir + "/trap.c"]),
                              "no C compiler (cc) to build the trap NSS module")
        #expect(cc.status == 0, "\(cc.errorOutput)")
        return dir + "/trap"
    }

    static func temporaryDirectory() -> String? {
        var template = Array("/tmp/puckd-static-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
    }

    static func write(_ path: String, _ text: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    static func read(_ path: String) -> String {
        runProcess(["cat", path])?.output ?? ""
    }
}

/// A listening TCP socket on 127.0.0.1 at a free port.
final class TCPListener {
    let fd: Int32
    let port: UInt16

    init?() {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, ok else {
            if fd >= 0 { close(fd) }
            return nil
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }

    /// The next connection within `seconds`, or nil.
    func accept(seconds: Int32) -> Int32? {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, seconds * 1000) == 1 else { return nil }
        let client = Glibc.accept(fd, nil, nil)
        return client >= 0 ? client : nil
    }
}
