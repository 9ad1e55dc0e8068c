import Hardware
@testable import Simulation
import Testing

/// An input requested with `risingEdgesOnly` (an IMU's interrupt line): the twin, like the kernel
/// (GPIOD_LINE_EDGE_RISING, GPIOD_LINE_REQUEST_EVENT_RISING_EDGE), queues only its rising edges.
@Suite struct GPIORisingEdgeTests {
    @Test func aRisingOnlyRequestQueuesNoFallingEdges() throws {
        let gpio = SimulatedGPIO(label: "t", lineCount: 8)
        let line = try gpio.requestInput(GPIOInputConfiguration(offset: 3, bias: .asIs, activeLow: false, risingEdgesOnly: true))
        let both = try gpio.requestInput(GPIOInputConfiguration(offset: 4, bias: .asIs, activeLow: false))
        for k in 0..<3 {
            gpio.drive(3, high: true, atNanoseconds: Int64(10 * k + 1))
            gpio.drive(3, high: false, atNanoseconds: Int64(10 * k + 5))
            gpio.drive(4, high: true, atNanoseconds: Int64(10 * k + 1))
            gpio.drive(4, high: false, atNanoseconds: Int64(10 * k + 5))
        }
        var batch = GPIOEventBatch()
        #expect(try gpio.readEvents(line, into: &batch) == 3)
        #expect((0..<3).allSatisfy { batch[$0].edge == .rising && batch[$0].timestampNanoseconds == Int64(10 * $0 + 1) })
        batch.removeAll()
        #expect(try gpio.readEvents(both, into: &batch) == 6, "both edges without the option")
    }
}
