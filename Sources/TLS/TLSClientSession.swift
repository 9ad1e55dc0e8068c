import COpenSSL
import CTLSMemory
import SystemCalls

/// One TLS connection over a connected non-blocking socket (OpenSSL's SSL with a socket BIO): the
/// handshake, reads and writes, each returning at once; WANT_READ/WANT_WRITE become the poll events
/// to wait for. Made at each connect (SSL_new allocates); a connected session's reads and writes take
/// OpenSSL's per-record blocks from the record pool (CTLSMemory), not from malloc.
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
        puckd_tls_memory_in_record_io(1)
        let rc = SSL_read_ex(ssl, buffer.baseAddress, buffer.count, &n)
        puckd_tls_memory_in_record_io(0)
        if rc == 1 { waitsFor = []; return .processed(n) }
        return outcome(SSL_get_error(ssl, 0))
    }

    /// SSL_write_ex of `bytes` (partial writes allowed).
    func send(_ bytes: UnsafeRawBufferPointer) -> SocketOutcome {
        ERR_clear_error()
        var n = 0
        puckd_tls_memory_in_record_io(1)
        let rc = SSL_write_ex(ssl, bytes.baseAddress, bytes.count, &n)
        puckd_tls_memory_in_record_io(0)
        if rc == 1 { waitsFor = []; return .processed(n) }
        let result = outcome(SSL_get_error(ssl, 0))
        if case .closed = result { return alertAfterLostWrite() }
        return result
    }

    /// A write found the connection gone: the server may have said why first (a TLS 1.3 server refuses a
    /// client certificate after the handshake, with an alert, then closes). Reads it, if it is there.
    private func alertAfterLostWrite() -> SocketOutcome {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { scratch in
            ERR_clear_error()
            var n = 0
            puckd_tls_memory_in_record_io(1)
            let rc = SSL_read_ex(ssl, scratch.baseAddress, scratch.count, &n)
            puckd_tls_memory_in_record_io(0)
            if rc != 1 && SSL_get_error(ssl, rc) == SSL_ERROR_SSL, case .failed(let e) = outcome(SSL_ERROR_SSL), failure != nil {
                return .failed(e)
            }
            ERR_clear_error()
            return .closed
        }
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
            let f = TLSFailure.current(ssl)
            // OpenSSL 3 reports a TCP close without close_notify as an error: for MQTT and HTTP (framed by
            // their own lengths) it is a closed connection.
            if case .protocolError(ERR_LIB_SSL, SSL_R_UNEXPECTED_EOF_WHILE_READING) = f { return .closed }
            failure = f
            return .failed(Errno.protocolError)
        default:
            // SSL_ERROR_SYSCALL: errno says it, or 0 for an EOF without close_notify.
            ERR_clear_error()
            let e = Errno.current
            return e.rawValue == 0 || e == .brokenPipe || e == .connectionReset ? .closed : .failed(e)
        }
    }
}
