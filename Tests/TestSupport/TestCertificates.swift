#if canImport(Glibc)
import Glibc
#endif

/// A scratch public-key infrastructure made by the `openssl` command line for one test: a CA, a server
/// certificate for `localhost` and 127.0.0.1 signed by it, a client certificate (`puck1`), and a
/// second CA with its own `localhost` server certificate (one the first CA's users must not trust).
/// EC P-256 keys, valid two days. Files under `directory`, keys mode 0600.
public struct TestCertificates {
    public let directory: String
    public var caFile: String { directory + "/ca.crt" }
    public var serverCertificate: String { directory + "/server.crt" }
    public var serverKey: String { directory + "/server.key" }
    public var clientCertificate: String { directory + "/client.crt" }
    public var clientKey: String { directory + "/client.key" }
    public var otherCAFile: String { directory + "/other-ca.crt" }
    public var otherServerCertificate: String { directory + "/other-server.crt" }
    public var otherServerKey: String { directory + "/other-server.key" }

    /// nil when `openssl` is missing or fails (make test installs it with libssl-dev's openssl).
    public init?(directory: String) {
        self.directory = directory
        let d = directory
        let key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        let script = """
            set -e
            cd '\(d)'
            openssl req -x509 \(key) -keyout ca.key -out ca.crt -days 2 -subj /CN=puckd-test-ca \
                -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
            openssl req -x509 \(key) -keyout other-ca.key -out other-ca.crt -days 2 -subj /CN=puckd-other-ca \
                -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\nextendedKeyUsage=serverAuth\\n' > server.ext
            printf 'extendedKeyUsage=clientAuth\\n' > client.ext
            openssl req \(key) -keyout server.key -out server.csr -subj /CN=localhost
            openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile server.ext
            openssl req \(key) -keyout other-server.key -out other-server.csr -subj /CN=localhost
            openssl x509 -req -in other-server.csr -CA other-ca.crt -CAkey other-ca.key -CAcreateserial -out other-server.crt \
                -days 2 -extfile server.ext
            openssl req \(key) -keyout client.key -out client.csr -subj /CN=puck1
            openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out client.crt -days 2 -extfile client.ext
            chmod 0600 *.key
            """
        guard let result = runProcess(["sh", "-c", script]), result.status == 0 else { return nil }
    }
}
