// libFuzzer target: bytes typed into a console session (interactive or scripted, locked or not, by the
// first byte), every command answered from a fixed state, watches ticked, output drained in pieces.
// Traps on any crash or when the session's byte accounting does not add up.
// fuzz-max-len: 4096
import Console

nonisolated(unsafe) private var state = ConsoleState()

@_cdecl("LLVMFuzzerTestOneInput")
public func consoleFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let mode = data[0]
    var options = ConsoleOptions(interactive: mode & 1 == 1)
    options.outputCapacity = mode & 2 == 0 ? 2048 : 16_384
    options.replyCapacity = mode & 8 == 0 ? 4096 : 32_768
    options.terminalRows = 3 + Int(mode >> 4)
    var session = ConsoleSession(options: options)
    if mode & 4 != 0 { session.lock() }
    session.begin(version: "fuzz")
    let bytes = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    var now: Int64 = 0
    var offset = 0
    var written: Int64 = 0
    while offset < bytes.count {
        while let command = session.feed(bytes, from: &offset) {
            switch command {
            case .login: session.unlock(); session.reply(to: command, state: state)
            case .quit: session.reply(to: command, state: state); session.endInput()
            default:
                if offset & 7 == 0 { session.replyFailure(to: command, message: "refused by the fuzzer") }
                else { session.reply(to: command, state: state) }
            }
            now += 16_666_667
            session.tick(nowNanoseconds: now, state: state)
            let n = min(session.pendingOutputCount, 1 + offset % 977)
            written += Int64(n)
            session.consumeOutput(n)
        }
    }
    _ = session.endOfInput()
    now += 1_000_000_000
    session.tick(nowNanoseconds: now, state: state)
    written += Int64(session.pendingOutputCount)          // what a reader would still take
    let counters = session.counters
    if written > counters.bytesOut || counters.droppedBytes < 0 {
        fatalError("console output accounting: \(counters.bytesOut) bytes out, \(written) taken")
    }
    return 0
}
