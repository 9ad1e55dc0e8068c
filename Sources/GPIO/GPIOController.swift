import SystemCalls

/// A GPIO chip as the device loop sees it: a few input lines with edge events and a few output lines.
///
/// Two implementations: `LibgpiodGPIOController` (the kernel through libgpiod v1 or v2) and `SimulatedGPIO`
/// (the twin for tests and `--board sim`). Both give every requested input a pollable descriptor, so the
/// loop puts them into its one `poll()` with the other sources.
///
/// Contract for the hot path: `setOutput` and `readEvents` allocate nothing. Requests happen at start-up
/// and may allocate. Values and edges are logical: the active-low inversion is the controller's job.
/// A class-bound protocol so an `any GPIOController` is one reference (no boxing) and tests can keep a
/// reference to the twin while the loop drives it.
public protocol GPIOController: AnyObject {
    /// What was opened, for messages: e.g. `/dev/gpiochip0 (gpiochip0, label pinctrl-bcm2711, 58 lines)`.
    var chipDescription: String { get }

    /// Number of lines on the chip (valid offsets are 0 ..< lineCount).
    var lineCount: Int { get }

    /// The library behind it, e.g. `libgpiod 2.2.1 (GPIO uAPI v2)`; nil for the simulated twin.
    var libraryDescription: String? { get }

    /// Edge events the kernel (or the twin) dropped because a line's queue was full, when it can tell.
    var droppedEventCount: Int { get }

    /// Requests `configuration.offset` as an input with both-edge events (rising only with
    /// `configuration.risingEdgesOnly`; consumer `puckd`) and, when
    /// `configuration.debounceNanoseconds` > 0, kernel debounce where the kernel offers it.
    func requestInput(_ configuration: GPIOInputConfiguration) throws(GPIOError) -> GPIOLineHandle

    /// Whether the kernel debounces input `line` (`.notRequested` for outputs and lines asked without).
    func debounceStatus(_ line: GPIOLineHandle) -> GPIODebounceStatus

    /// Requests `configuration.offset` as an output driven to `configuration.initiallyActive`.
    func requestOutput(_ configuration: GPIOOutputConfiguration) throws(GPIOError) -> GPIOLineHandle

    /// Drives an output line to the logical value `active` (the twin records it at `nowNanoseconds`,
    /// monotonic; the kernel backend ignores the time).
    func setOutput(_ line: GPIOLineHandle, active: Bool, nowNanoseconds: Int64) throws(GPIOError)

    /// The descriptor that polls readable (POLLIN) while `line` has pending edge events; nil for outputs.
    func eventDescriptor(_ line: GPIOLineHandle) -> FileDescriptor?

    /// Moves pending edge events of `line` into `batch` (after its current content) without blocking;
    /// returns how many were added (0 when none were pending). Call again while it returns a full batch.
    func readEvents(_ line: GPIOLineHandle, into batch: inout GPIOEventBatch) throws(GPIOError) -> Int

    /// Drives every output inactive (LEDs off), then releases all lines and the chip. Idempotent; after it
    /// every other call fails with `GPIOError.closed`.
    func close()
}
