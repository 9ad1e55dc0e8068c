/// One step of a chip's initialization program: register writes, waits and identity checks, in the
/// exact order the chip needs. Drivers list their program as data (`[IMURegisterStep]`), so tests can
/// compare it with the bus write log and the device loop can run it without ever sleeping.
public enum IMURegisterStep: Sendable, Equatable {
    /// Write `value` to `register` of `die`.
    case write(IMUDie, register: UInt8, value: UInt8)
    /// Wait at least this long before the next step (reset and mode-switch times).
    case delay(milliseconds: Int)
    /// Read `register` of `die`; anything but `value` fails the initialization with `IMUFault.wrongChip`.
    case expect(IMUDie, register: UInt8, value: UInt8)
    /// Poll `register` of `die` every 10 ms until it reads `value`; I/O errors count as "not yet"
    /// (a chip booting after a reset may NACK). Fails with `IMUFault.resetTimeout` after the timeout.
    case awaitValue(IMUDie, register: UInt8, value: UInt8, timeoutMilliseconds: Int)
    /// Read `register` of `die` into capture slot `slot` (0…3) for the driver (AK8963 fuse ROM).
    case capture(IMUDie, register: UInt8, slot: Int)
}

/// Where an initialization program stands after `IMUInitRunner.run`.
public enum IMUInitProgress: Sendable, Equatable {
    /// A delay is pending: call `run` again at (or after) this monotonic time, nanoseconds.
    case waitUntil(nanoseconds: Int64)
    /// Every step ran.
    case finished
}

/// Runs an `[IMURegisterStep]` program against a bus without blocking: it executes steps until a
/// delay is pending and reports when to come back. Allocation-free.
public struct IMUInitRunner: Sendable {
    /// Index of the next step to run.
    public private(set) var stepIndex = 0
    /// Bytes stored by `.capture` steps.
    public private(set) var captured: InlineArray<4, UInt8> = .init(repeating: 0)
    private var resumeAtNanoseconds: Int64?
    private var awaitDeadlineNanoseconds: Int64?

    /// Poll interval of `.awaitValue` steps, nanoseconds.
    public static let awaitPollNanoseconds: Int64 = 10_000_000

    public init() {}

    /// Starts the program over (before a re-initialization).
    public mutating func reset() {
        stepIndex = 0
        captured = .init(repeating: 0)
        resumeAtNanoseconds = nil
        awaitDeadlineNanoseconds = nil
    }

    /// Runs steps of `program` for the chip at `addresses` until a delay is pending or the program ends.
    public mutating func run<Bus: I2CBus>(_ program: [IMURegisterStep], addresses: IMUChipInstance,
                                          bus: inout Bus, nowNanoseconds now: Int64) throws(IMUFault) -> IMUInitProgress {
        while stepIndex < program.count {
            switch program[stepIndex] {
            case .write(let die, let register, let value):
                do throws(I2CError) {
                    try bus.writeByte(address: addresses.address(of: die), register: register, value: value)
                } catch { throw .bus(error) }
            case .delay(let milliseconds):
                if let resume = resumeAtNanoseconds {
                    if now < resume { return .waitUntil(nanoseconds: resume) }
                    resumeAtNanoseconds = nil
                } else {
                    let resume = now + Int64(milliseconds) * 1_000_000
                    resumeAtNanoseconds = resume
                    return .waitUntil(nanoseconds: resume)
                }
            case .expect(let die, let register, let value):
                let address = addresses.address(of: die)
                let found: UInt8
                do throws(I2CError) {
                    found = try bus.readByte(address: address, register: register)
                } catch { throw .bus(error) }
                if found != value {
                    throw .wrongChip(address: address, register: register, expected: value, found: found)
                }
            case .awaitValue(let die, let register, let value, let timeoutMilliseconds):
                let address = addresses.address(of: die)
                let deadline = awaitDeadlineNanoseconds ?? now + Int64(timeoutMilliseconds) * 1_000_000
                awaitDeadlineNanoseconds = deadline
                var reached = false
                do throws(I2CError) {
                    reached = try bus.readByte(address: address, register: register) == value
                } catch {
                    reached = false      // still booting: NACK or EIO is expected here
                }
                if !reached {
                    if now >= deadline {
                        awaitDeadlineNanoseconds = nil
                        throw .resetTimeout(address: address, register: register, expected: value)
                    }
                    return .waitUntil(nanoseconds: min(deadline, now + IMUInitRunner.awaitPollNanoseconds))
                }
                awaitDeadlineNanoseconds = nil
            case .capture(let die, let register, let slot):
                do throws(I2CError) {
                    captured[slot] = try bus.readByte(address: addresses.address(of: die), register: register)
                } catch { throw .bus(error) }
            }
            stepIndex += 1
        }
        return .finished
    }
}
