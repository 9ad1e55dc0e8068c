import Console

/// An `OutputBuffer` for tests (64 KiB).
struct OutputBufferBox: ~Copyable {
    var buffer = OutputBuffer(capacity: 65_536)
}
