// libFuzzer target: a scenario file (docs/scenarios.md) through ScenarioParser and, when it parses,
// a bounded run of the tracking core (≤ 2000 ticks, twice): ScenarioFuzzHarness's invariants on the
// errors, the parsed scenario, every step's output and the camera and puck, and equal bytes twice.
// fuzz-max-len: 4096
import FuzzSupport
import TrackingScenario

@_cdecl("LLVMFuzzerTestOneInput")
public func scenarioFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let report = ScenarioFuzzHarness.run(UnsafeRawBufferPointer(start: data, count: size))
    if let violation = report.violation { fatalError("scenario invariant broken: \(violation)") }
    return 0
}
