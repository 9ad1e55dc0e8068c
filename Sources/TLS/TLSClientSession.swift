import COpenSSL
import Glibc
import SystemCalls

/// One TLS connection over a connected non-blocking socket (OpenSSL's SSL with a socket BIO): the
/// handshake, reads and writes, each returning at once; WANT_READ/WANT_WRITE become the poll events
/// to wait for. Made at each connect (SSL_new allocates); a connected session allocates nothing.
final class TLSClientSession {
    /// What one handshake step did.
    enum HandshakeStep: Equatable { case done, waiting, failed(TLSFailure) }

    private let ssl: OpaquePointer
    /// What the last call that could not go on waits for (WANT_READ: readable, WANT_WRITE: writable).
    private(set) var waitsFor: PollEvents = .writable
    /// Why the last read or write failed (a TLS alert, a bad record), nil when it was the socket.
    private(set) var failure: TLSFailure?

    /// nil when OpenSSL cannot make the SSL object. `serverName`: SNI and the name checked
    /// (SSL_set1_host); an IP literal is checked against the certificate's IP addresses, without SNI.
    init?(context: TLSClientContext, descriptor: FileDescriptor, serverName: String, isAddressLiteral: Bool) {
        guard let ssl = SSL_new(context.context) else { return nil }
        self.ssl = ssl
        guard SSL_set_fd(ssl, descriptor.rawValue) == 1 else { SSL_free(ssl); return nil }
        if isAddressLiteral {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName) == 1 else { SSL_free(ssl); return nil }
        } else {
            guard puckd_tls_set_server_name(ssl, serverName) == 1, SSL_set1_host(ssl, serverName) == 1 else { SSL_free(ssl); return nil }
        }
        SSL_set_connect_state(ssl)
    }

    deinit { SSL_free(ssl) }

    /// One step of SSL_connect.
    func handshake() -> HandshakeStep {
        ERR_clear_error()
        let rc = SSL_connect(ssl)
        if rc == 1 { waitsFor = []; return .done }
        switch SSL_get_error(ssl, rc) {
        case SSL_ERROR_WANT_READ: waitsFor = .readable; return .waiting
        case SSL_ERROR_WANT_WRITE: waitsFor = .writable; return .waiting
        case SSL_ERROR_SSL: return .failed(TLSFailure.current(ssl))
        default:
            ERR_clear_error()
            return .failed(.closedDuringHandshake)
        }
    }

    /// SSL_read_ex into `buffer`.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> SocketOutcome {
        ERR_clear_error()
        var n = 0
        if SSL_read_ex(ssl, buffer.baseAddress, buffer.count, &n) == 1 { waitsFor = []; return .processed(n) }
        return outcome(SSL_get_error(ssl, 0))
    }

    /// SSL_write_ex of `bytes` (partial writes allowed).
    func send(_ bytes: UnsafeRawBufferPointer) -> SocketOutcome {
        ERR_clear_error()
        var n = 0
        if SSL_write_ex(ssl, bytes.baseAddress, bytes.count, &n) == 1 { waitsFor = []; return .processed(n) }
        return outcome(SSL_get_error(ssl, 0))
    }

    /// Decrypted bytes waiting inside OpenSSL, which poll() cannot see.
    var hasBufferedInput: Bool { SSL_pending(ssl) > 0 }

    /// A close_notify, without waiting for the server's (the socket is closed next).
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    private func outcome(_ error: Int32) -> SocketOutcome {
        switch error {
        case SSL_ERROR_WANT_READ: waitsFor = .readable; return .wouldBlock
        case SSL_ERROR_WANT_WRITE: waitsFor = .writable; return .wouldBlock
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SSL:
            failure = TLSFailure.current(ssl)
            return .failed(Errno(rawValue: EPROTO))
        default:
            // SSL_ERROR_SYSCALL: errno says it, or 0 for an EOF without close_notify.
            ERR_clear_error()
            let e = Errno.current
            return e.rawValue == 0 || e.rawValue == EPIPE || e.rawValue == ECONNRESET ? .closed : .failed(e)
        }
    }
}
