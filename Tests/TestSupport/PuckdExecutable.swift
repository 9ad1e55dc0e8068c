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
