import Hardware
import SystemCalls

/// The IMU's interrupt line (`[imu] interrupt_line`): a GPIO input, rising edges only, wired to the
/// chip's INT1, which rises when its FIFO reaches the watermark (docs/hardware.md §1.7.7). Its event
/// descriptor joins the loop's poll() in place of the burst timer; each edge's kernel timestamp
/// (CLOCK_MONOTONIC, taken in the interrupt handler) says when the watermark sample was converted.
struct IMUInterruptLine {
    private let gpio: any GPIOController
    let line: GPIOLineHandle
    /// Its slot in the poll set.
    let slot: Int
    private var events = GPIOEventBatch()
    /// Rising edges read.
    private(set) var edges: UInt64 = 0
    /// Failed event reads (each also said by the controls' GPIO error count).
    private(set) var readErrors: UInt64 = 0

    /// Requests `offset` on `gpio` for rising edges (start-up; allocates).
    init(gpio: any GPIOController, offset: Int, slot: Int) throws(GPIOError) {
        self.gpio = gpio
        self.slot = slot
        line = try gpio.requestInput(GPIOInputConfiguration(offset: UInt32(offset), bias: .asIs, activeLow: false,
                                                            risingEdgesOnly: true))
    }

    /// The line's event descriptor (readable while edges are pending).
    var descriptor: FileDescriptor? { gpio.eventDescriptor(line) }

    /// Reads every pending edge without blocking; returns the newest rising edge's kernel time (nil:
    /// none was pending). Older edges of the same read were watermarks the loop did not serve in time:
    /// the FIFO read that follows takes their samples too.
    mutating func takeNewestRisingEdge() -> Int64? {
        var newest: Int64?
        while true {
            events.removeAll()
            let n: Int
            do throws(GPIOError) { n = try gpio.readEvents(line, into: &events) } catch {
                readErrors &+= 1
                return newest
            }
            var i = 0
            while i < events.count {
                if events[i].edge == .rising {
                    edges &+= 1
                    newest = events[i].timestampNanoseconds
                }
                i += 1
            }
            if n < GPIOEventBatch.capacity { return newest }
        }
    }
}
