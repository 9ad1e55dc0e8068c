import COpenSSL
import CTLSMemory

/// The OpenSSL library linked into puckd: its one-time initialisation (the record pool's allocator
/// functions first, then OpenSSL without openssl.cnf, so the static binary never loads a provider or
/// engine at run time) and its version for `puckd --version` (docs/uplink.md §10).
public enum TLSLibrary {
    /// "OpenSSL 3.0.x 1 Jan 2025": the library actually linked (libssl.a/libcrypto.a in the device binary).
    public static var versionText: String { String(cString: puckd_tls_version_text()) }

    /// True when OpenSSL's small per-record allocations are served from the fixed pool (the allocator
    /// functions were installed before OpenSSL's first allocation).
    public static var recordPoolInstalled: Bool { initialised.pool }

    private static let initialised: (pool: Bool, ssl: Bool) = {
        let pool = puckd_tls_memory_install() == 1
        return (pool, puckd_tls_init() == 1)
    }()

    /// Initialises OpenSSL once (thread-safe); false if it could not.
    @discardableResult
    public static func initialise() -> Bool { initialised.ssl }

    /// The record pool's figures (docs/uplink.md §10).
    public struct RecordPoolStatistics: Equatable, Sendable {
        public var blocksInUse: UInt64
        public var highWaterBlocks: UInt64
        public var served: UInt64
        /// Small allocations inside record I/O that found the pool empty and went to malloc.
        public var fallbacks: UInt64
        public var capacityBlocks: Int
        public var blockBytes: Int
    }

    public static var recordPoolStatistics: RecordPoolStatistics {
        var u: UInt64 = 0, h: UInt64 = 0, s: UInt64 = 0, f: UInt64 = 0
        puckd_tls_memory_statistics(&u, &h, &s, &f)
        return RecordPoolStatistics(blocksInUse: u, highWaterBlocks: h, served: s, fallbacks: f,
                                    capacityBlocks: Int(puckd_tls_memory_blocks()), blockBytes: Int(puckd_tls_memory_block_bytes()))
    }
}
