import SystemCalls
import CCrypt
import Configuration

/// The serial console's password (`[console] password_file`): a crypt(3) hash, as in /etc/shadow
/// (`$y$…` yescrypt, `$6$…` SHA-512 …), read from a file only root and puckd's user may read
/// (`FileTrust(secret: true)`), checked with libcrypt's `crypt_r` into a scratch area allocated
/// once. `make` creates a hash for `puckd password-hash`.
public final class ConsolePassword {
    /// The file the hash came from.
    public let path: String
    private let hash: [CChar]
    private let scratch: UnsafeMutablePointer<crypt_data>

    private init(path: String, hash: [CChar]) {
        self.path = path
        self.hash = hash
        scratch = .allocate(capacity: 1)
        scratch.initialize(to: crypt_data())
    }

    deinit {
        scratch.initialize(to: crypt_data())        // no phrase or hash left behind
        scratch.deallocate()
    }

    /// Why a password file cannot be used; `message` names the file and the fix.
    public struct Failure: Error, Equatable {
        public var message: String
    }

    /// Reads the hash from `path` (start-up and reload: allocates).
    public static func load(path: String) throws(Failure) -> ConsolePassword {
        let bytes: [UInt8]
        do throws(WholeFile.Failure) {
            bytes = try WholeFile.read(path, limitBytes: 4096, trust: FileTrust(secret: true))
        } catch {
            let reason = switch error {
            case .cannotOpen(let code): "cannot open it (" + code.message + ")"
            case .notRegular: "not a regular file"
            case .cannotRead(let code): "cannot read it (" + code.message + ")"
            case .tooLarge: "larger than 4 KiB: not a password hash file"
            case .untrusted(let why): "refused: " + why
            }
            throw Failure(message: path + ": " + reason)
        }
        // The first line, without spaces and CR (a file written by mkpasswd or `puckd password-hash`).
        var line = bytes.prefix { $0 != 0x0A }
        while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
        while let first = line.first, first == 0x20 || first == 0x09 { line.removeFirst() }
        guard line.count < Int(CRYPT_OUTPUT_SIZE) else {
            throw Failure(message: path + ": the first line is too long for a crypt(3) hash; write one with "
                + "puckd password-hash (or mkpasswd -m yescrypt)")
        }
        let hash = line.map { CChar(bitPattern: $0) } + [0]
        let check = hash.withUnsafeBufferPointer { crypt_checksalt($0.baseAddress) }
        guard line.first == UInt8(ascii: "$"), check == CRYPT_SALT_OK else {
            throw Failure(message: path + ": the first line is not a crypt(3) hash this system supports "
                + (check == CRYPT_SALT_METHOD_DISABLED ? "(its method is disabled)" : check == CRYPT_SALT_METHOD_LEGACY
                    ? "(a legacy method: use yescrypt or SHA-512)" : "")
                + "; write one with puckd password-hash (or mkpasswd -m yescrypt)")
        }
        return ConsolePassword(path: path, hash: hash)
    }

    /// True when `phrase` is the password (crypt_r, then a comparison that takes the same time
    /// wherever the hashes differ). Computing the hash takes a few to tens of milliseconds by design;
    /// the console's timed refusal after a failure bounds how often that can happen.
    public func matches(_ phrase: UnsafeRawBufferPointer) -> Bool {
        guard phrase.count < 512 else { return false }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer -> Bool in
            var i = 0
            while i < phrase.count { buffer[i] = CChar(bitPattern: phrase[i]); i += 1 }
            buffer[phrase.count] = 0
            defer { var k = 0; while k <= phrase.count { buffer[k] = 0; k += 1 } }
            let result = hash.withUnsafeBufferPointer { setting -> Bool in
                guard let computed = crypt_r(buffer.baseAddress, setting.baseAddress, scratch) else { return false }
                var difference: UInt8 = 0
                var k = 0
                while k < setting.count {                      // hash includes its NUL
                    difference |= UInt8(bitPattern: computed[k]) ^ UInt8(bitPattern: setting[k])
                    if setting[k] == 0 { break }
                    k += 1
                }
                return difference == 0 && k == setting.count - 1
            }
            return result
        }
    }

    /// A new yescrypt hash of `phrase` (`puckd password-hash`; tests). nil when libcrypt fails.
    public static func make(_ phrase: String) -> String? {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        let made = setting.withUnsafeMutableBufferPointer {
            crypt_gensalt_rn("$y$", 0, nil, 0, $0.baseAddress, Int32($0.count))
        }
        guard made != nil else { return nil }
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        data.initialize(to: crypt_data())
        defer { data.initialize(to: crypt_data()); data.deallocate() }
        guard let result = crypt_r(phrase, setting, data) else { return nil }
        let text = String(cString: result)
        return text.hasPrefix("$") ? text : nil
    }
}
