import COpenSSL

/// The OpenSSL library linked into puckd: its one-time initialisation (without openssl.cnf, so the
/// static binary never loads a provider or engine at run time) and its version for `puckd --version`.
public enum TLSLibrary {
    /// "OpenSSL 3.0.x 1 Jan 2025": the library actually linked (libssl.a/libcrypto.a in the device binary).
    public static var versionText: String { String(cString: puckd_tls_version_text()) }

    /// Initialises OpenSSL once (idempotent, thread-safe in OpenSSL); false if it could not.
    @discardableResult
    public static func initialise() -> Bool { puckd_tls_init() == 1 }
}
