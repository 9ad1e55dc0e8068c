import COpenSSL
import SystemCalls

/// The TLS settings of one client, built once at start-up (OpenSSL's SSL_CTX): TLS 1.2 minimum, the
/// server checked against a CA file or the system store, an optional client certificate and key, and
/// the modes that keep a connected session from allocating per record (docs/uplink.md §10).
/// Immutable after `init`; each connection makes its own `SSL` from it.
public final class TLSClientContext: @unchecked Sendable {
    let context: OpaquePointer
    /// Where trust comes from, for the start-up report: the CA file's path, or "the system store".
    public let trustDescription: String
    public let hasClientCertificate: Bool

    /// Why the context could not be built: one sentence naming the file.
    public struct SetupError: Error, Equatable {
        public var message: String
    }

    /// `caFile`: PEM certificates to trust (nil: the system store, /etc/ssl/certs); `certificateFile`:
    /// the client's PEM chain; `keyPEM`: its private key's bytes (read by the caller, who checks the
    /// file's permissions). Allocates; throws with the file and OpenSSL's reason.
    public init(caFile: String?, certificateFile: String? = nil, keyPEM: [UInt8]? = nil, keyName: String = "the key") throws(SetupError) {
        TLSLibrary.initialise()
        // OpenSSL's socket BIO writes with write(2): a server gone away must be EPIPE, not SIGPIPE (the
        // device loop ignores it already; this covers every other user of the context).
        ProcessSignals.ignoreBrokenPipe()
        guard let ctx = SSL_CTX_new(TLS_client_method()) else { throw SetupError(message: "OpenSSL could not make a TLS context") }
        context = ctx
        trustDescription = caFile ?? "the system store"
        hasClientCertificate = certificateFile != nil
        // Every property is set: from here a throw runs deinit, which frees the context.
        puckd_tls_set_modes(ctx)
        guard puckd_tls_set_minimum_tls12(ctx) == 1 else { throw SetupError(message: "OpenSSL refused TLS 1.2 as the minimum") }
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        ERR_clear_error()
        if let caFile {
            guard SSL_CTX_load_verify_locations(ctx, caFile, nil) == 1 else {
                throw SetupError(message: "cannot load the CA certificates in " + caFile + " (" + Self.lastError() + ")")
            }
        } else if SSL_CTX_set_default_verify_paths(ctx) != 1 {
            throw SetupError(message: "cannot use the system's CA store (" + Self.lastError() + "); install ca-certificates")
        }
        if let certificateFile {
            guard SSL_CTX_use_certificate_chain_file(ctx, certificateFile) == 1 else {
                throw SetupError(message: "cannot load the client certificate " + certificateFile + " (" + Self.lastError() + ")")
            }
            guard let keyPEM, Self.useKey(keyPEM, ctx) else {
                throw SetupError(message: keyPEM == nil ? "a client certificate needs its key" :
                    "cannot use " + keyName + " (" + Self.lastError() + ")")
            }
            guard SSL_CTX_check_private_key(ctx) == 1 else {
                throw SetupError(message: keyName + " does not belong to the certificate " + certificateFile)
            }
        }
    }

    deinit { SSL_CTX_free(context) }

    private static func useKey(_ pem: [UInt8], _ ctx: OpaquePointer) -> Bool {
        pem.withUnsafeBytes { bytes -> Bool in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return false }
            defer { BIO_free(bio) }
            guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else { return false }
            defer { EVP_PKEY_free(key) }
            return SSL_CTX_use_PrivateKey(ctx, key) == 1
        }
    }

    static func lastError() -> String {
        let e = ERR_get_error()
        ERR_clear_error()
        guard e != 0, let text = ERR_reason_error_string(e) else { return "no OpenSSL reason" }
        return String(cString: text)
    }
}
