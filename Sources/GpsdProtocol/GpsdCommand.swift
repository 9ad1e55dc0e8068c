/// One request read from a gpsd-protocol client (gpsd_json(5) §"Commands").
public enum GpsdCommand: Sendable, Equatable {
    /// `?VERSION;`
    case version
    /// `?DEVICES;`
    case devices
    /// `?DEVICE;` without a body: describes the device (a body would change it: refused, read-only).
    case device
    /// `?WATCH;` (nil: report the current flags) or `?WATCH={…};`.
    case watch(GpsdWatchRequest?)
    /// `?POLL;`
    case poll
    /// Anything else: answered with gpsd's `ERROR` object.
    case invalid(GpsdRequestError)
}

/// Why a request was refused; `message` is the text of the `ERROR` object.
public struct GpsdRequestError: Sendable, Equatable, Error {
    /// What was wrong.
    public enum Kind: UInt8, Sendable, Equatable {
        /// Not a command puckd knows (gpsd: "Unrecognized request").
        case unrecognized
        /// `?WATCH=` with a body that is not a valid WATCH object.
        case invalidWatch
        /// A request that would change the device (`?DEVICE={…}`): this socket is read-only.
        case readOnly
        /// Longer than `GpsdCommandReader.capacity` bytes before its `;` or newline.
        case tooLong
    }
    public var kind: Kind
    /// Detail: for `invalidWatch` the JSON problem, else empty.
    public var detail: StaticString
    /// The start of the offending request (up to 20 bytes, as gpsd quotes it).
    public var excerpt: GpsdShortText

    public init(_ kind: Kind, detail: StaticString = "", excerpt: GpsdShortText = GpsdShortText()) {
        self.kind = kind
        self.detail = detail
        self.excerpt = excerpt
    }

    public static func == (a: GpsdRequestError, b: GpsdRequestError) -> Bool {
        a.kind == b.kind && a.excerpt == b.excerpt
            && a.detail.utf8CodeUnitCount == b.detail.utf8CodeUnitCount
            && (a.detail.utf8CodeUnitCount == 0 || a.detail.utf8Start == b.detail.utf8Start
                || memcmpStatic(a.detail, b.detail))
    }

    private static func memcmpStatic(_ a: StaticString, _ b: StaticString) -> Bool {
        var i = 0
        while i < a.utf8CodeUnitCount { if a.utf8Start[i] != b.utf8Start[i] { return false }; i += 1 }
        return true
    }
}
