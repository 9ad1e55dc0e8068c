import GPIO

/// Where an LED is wired: the line offset (BCM number) and whether it lights when the pin is low.
public struct LEDLine: Sendable, Equatable {
    /// Line offset on the GPIO chip.
    public var offset: UInt32
    /// True when the LED lights with the pin low (LED from 3.3 V to the pin).
    public var activeLow: Bool

    public init(offset: UInt32, activeLow: Bool = false) {
        self.offset = offset
        self.activeLow = activeLow
    }
}

/// The LEDs a board has; every one is optional.
public struct LEDLineConfiguration: Sendable, Equatable {
    /// Fix LED.
    public var fix: LEDLine?
    /// Single-colour mode LED (blink count).
    public var mode: LEDLine?
    /// RGB mode LED channels (one colour per mode).
    public var modeRed: LEDLine?
    public var modeGreen: LEDLine?
    public var modeBlue: LEDLine?
    /// Fault LED.
    public var fault: LEDLine?
    /// Heartbeat LED.
    public var heartbeat: LEDLine?

    public init(fix: LEDLine? = nil, mode: LEDLine? = nil, modeRed: LEDLine? = nil, modeGreen: LEDLine? = nil,
                modeBlue: LEDLine? = nil, fault: LEDLine? = nil, heartbeat: LEDLine? = nil) {
        self.fix = fix
        self.mode = mode
        self.modeRed = modeRed
        self.modeGreen = modeGreen
        self.modeBlue = modeBlue
        self.fault = fault
        self.heartbeat = heartbeat
    }

    /// The lines in role order: fix, mode, red, green, blue, fault, heartbeat.
    var ordered: [LEDLine?] { [fix, mode, modeRed, modeGreen, modeBlue, fault, heartbeat] }
}

/// Drives the configured LEDs from `LEDFrame`s: requests them as outputs (initially off, active level per
/// line), writes a line only when its value changes (so a 60 Hz tick costs no syscalls while nothing
/// blinks) and turns everything off on `allOff`. Allocation-free after `init`.
public struct LEDOutputs: Sendable {
    private static let roleCount = 7
    private var lines: InlineArray<7, GPIOLineHandle?>
    private var written: InlineArray<7, Int8>      // -1 unknown, 0 off, 1 on
    /// Line writes made since start (for diagnostics and tests).
    public private(set) var writeCount = 0

    /// Requests the configured LED lines on `controller`, all off (start-up).
    public init(configuration: LEDLineConfiguration, controller: any GPIOController) throws(GPIOError) {
        lines = InlineArray(repeating: nil)
        written = InlineArray(repeating: 0)
        let ordered = configuration.ordered
        var role = 0
        while role < Self.roleCount {
            if let line = ordered[role] {
                lines[role] = try controller.requestOutput(
                    GPIOOutputConfiguration(offset: line.offset, activeLow: line.activeLow, initiallyActive: false))
            }
            role += 1
        }
    }

    /// Number of LED lines held.
    public var lineCount: Int {
        var n = 0, role = 0
        while role < Self.roleCount {
            if lines[role] != nil { n += 1 }
            role += 1
        }
        return n
    }

    /// Shows `frame`: writes the lines whose value differs from the last written one; returns how many.
    @discardableResult
    public mutating func show(_ frame: LEDFrame, on controller: any GPIOController,
                              nowNanoseconds: Int64) throws(GPIOError) -> Int {
        var changed = 0
        changed += try set(0, frame.fix, controller, nowNanoseconds)
        changed += try set(1, frame.mode, controller, nowNanoseconds)
        changed += try set(2, frame.modeColor.red, controller, nowNanoseconds)
        changed += try set(3, frame.modeColor.green, controller, nowNanoseconds)
        changed += try set(4, frame.modeColor.blue, controller, nowNanoseconds)
        changed += try set(5, frame.fault, controller, nowNanoseconds)
        changed += try set(6, frame.heartbeat, controller, nowNanoseconds)
        return changed
    }

    /// Turns every LED off (before exit; `GPIOController.close()` does it too). Keeps going past a
    /// failing line and rethrows the first error at the end.
    public mutating func allOff(on controller: any GPIOController, nowNanoseconds: Int64) throws(GPIOError) {
        var firstError: GPIOError?
        var role = 0
        while role < Self.roleCount {
            if let line = lines[role] {
                do {
                    try controller.setOutput(line, active: false, nowNanoseconds: nowNanoseconds)
                    written[role] = 0
                    writeCount += 1
                } catch {
                    if firstError == nil { firstError = error }
                }
            }
            role += 1
        }
        if let firstError { throw firstError }
    }

    private mutating func set(_ role: Int, _ on: Bool, _ controller: any GPIOController,
                              _ nowNanoseconds: Int64) throws(GPIOError) -> Int {
        guard let line = lines[role] else { return 0 }
        let value: Int8 = on ? 1 : 0
        if written[role] == value { return 0 }
        written[role] = -1                      // unknown until the write succeeds
        try controller.setOutput(line, active: on, nowNanoseconds: nowNanoseconds)
        written[role] = value
        writeCount += 1
        return 1
    }
}
