import COpenSSL

/// Why a TLS connection failed, in the words a user can act on: the server's certificate is not
/// trusted, names another host, is outside its validity dates; the handshake was refused or too slow.
/// `message` says what went wrong; the caller adds which of its keys to change (docs/uplink.md §10).
public enum TLSFailure: Equatable, Sendable {
    /// The chain does not lead to a trusted CA (X509_V_ERR_* code).
    case notTrusted(verifyCode: Int32)
    /// The certificate is valid but for another host name (X509_V_ERR_HOSTNAME_MISMATCH / IP mismatch).
    case hostNameMismatch
    /// Expired or not yet valid (check the clock too: a board without RTC starts in 1970).
    case outsideValidity(verifyCode: Int32)
    /// The server asked for a client certificate and none (or one it does not trust) was sent.
    case clientCertificateRefused(reason: Int32)
    /// Another OpenSSL error in the handshake or on an open connection (library, reason codes).
    case protocolError(library: Int32, reason: Int32)
    /// The handshake did not finish within the connect timeout.
    case handshakeTimedOut
    /// The server closed the TCP connection during the handshake (often: not a TLS port).
    case closedDuringHandshake

    /// One sentence (start-up/fault path: allocates).
    public var message: String {
        switch self {
        case .notTrusted(let code):
            return "the server's certificate is not trusted (" + Self.verifyText(code) + ")"
        case .hostNameMismatch:
            return "the server's certificate is for another host name than the one in the URL"
        case .outsideValidity(let code):
            return "the server's certificate is outside its validity dates (" + Self.verifyText(code)
                + "); check the certificate and this board's clock"
        case .clientCertificateRefused(let reason):
            return "the server refused the client certificate or wants one (" + Self.reasonText(reason) + ")"
        case .protocolError(_, let reason):
            return "TLS error: " + Self.reasonText(reason)
        case .handshakeTimedOut:
            return "the TLS handshake did not finish in time"
        case .closedDuringHandshake:
            return "the server closed the connection during the TLS handshake (is the port a TLS port?)"
        }
    }

    static func verifyText(_ code: Int32) -> String {
        guard let text = X509_verify_cert_error_string(Int(code)) else { return "X509 error \(code)" }
        return String(cString: text)
    }

    static func reasonText(_ reason: Int32) -> String {
        let packed = (UInt(ERR_LIB_SSL) << 23) | UInt(reason)
        guard let text = ERR_reason_error_string(packed) else { return "OpenSSL reason \(reason)" }
        return String(cString: text)
    }

    /// The failure OpenSSL reports for `ssl` after SSL_ERROR_SSL (verify result first, then the
    /// oldest queued error). Allocates nothing; clears the error queue.
    static func current(_ ssl: OpaquePointer) -> TLSFailure {
        let verify = Int32(SSL_get_verify_result(ssl))
        let packed = ERR_get_error()
        ERR_clear_error()
        switch verify {
        case X509_V_OK: break
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH: return .hostNameMismatch
        case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID: return .outsideValidity(verifyCode: verify)
        default: return .notTrusted(verifyCode: verify)
        }
        let library = puckd_tls_error_library(packed), reason = puckd_tls_error_reason(packed)
        if library == ERR_LIB_SSL && (reason == SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED || reason == SSL_R_SSLV3_ALERT_BAD_CERTIFICATE
            || reason == SSL_R_TLSV1_ALERT_UNKNOWN_CA || reason == SSL_R_TLSV1_ALERT_ACCESS_DENIED
            || reason == SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN) {
            return .clientCertificateRefused(reason: reason)
        }
        return .protocolError(library: library, reason: reason)
    }
}
