/// The `puckd` executable built next to these tests (`swift build --build-tests` builds it too).
public let puckdExecutable: String = {
    var path = #filePath                                   // …/Tests/TestSupport/PuckdExecutable.swift
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    #if DEBUG
    return path + "/.build/debug/puckd"
    #else
    return path + "/.build/release/puckd"
    #endif
}()

/// `arguments` for the `puckd` executable in a test: a `run` gets `--set server.listen=127.0.0.1:0`
/// (a free port) unless it sets `[server]` itself, so no test binds gpsd's port 2947, which another
/// test run or a real gpsd on the machine may hold (docs/gpsd-protocol.md §4).
public func puckdTestArguments(_ arguments: [String]) -> [String] {
    guard arguments.first == "run", !arguments.contains(where: { $0.hasPrefix("server.") }) else { return arguments }
    return arguments + ["--set", "server.listen=127.0.0.1:0"]
}
