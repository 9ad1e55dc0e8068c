/// Tab completion of the word before the cursor (interactive only, cursor at the end of the line):
/// command names as the first word (and after `help`/`watch`), and the keyword lists of each command
/// after it (`mode fol` → `follow…`). One match: the rest of the word and a blank are inserted. Several:
/// their common prefix is inserted, or when there is none to add the candidates are listed on the
/// next line and the prompt and line are redrawn. None: the bell.
extension LineEditor {
    /// Where the candidates for a word come from.
    enum CompletionSource {
        case commands
        case watchable
        case keywords(CommandKeywords)
        case nothing

        var count: Int {
            switch self {
            case .commands, .watchable: ConsoleCommandName.count
            case .keywords(let k): k.count
            case .nothing: 0
            }
        }

        /// The candidate at `index`, or nil when it does not apply (non-watchable commands).
        func word(_ index: Int) -> StaticString? {
            switch self {
            case .commands: return ConsoleCommandName.at(index).word
            case .watchable:
                let name = ConsoleCommandName.at(index)
                return name.isWatchable ? name.word : nil
            case .keywords(let k): return k.word(index)
            case .nothing: return nil
            }
        }
    }

    mutating func complete(_ out: inout OutputBuffer) {
        guard cursor == line.count else { bell(&out); return }
        // The word being completed and the words before it.
        var start = cursor
        while start > 0 && line[start - 1] != 0x20 { start -= 1 }
        let source = line.withBytes { bytes in
            Self.source(for: CommandTokens(UnsafeRawBufferPointer(rebasing: bytes[0..<start])))
        }
        let typed = cursor - start
        var matches = 0
        var first = -1
        var common = 0   // length of the prefix shared by every match
        var i = 0
        while i < source.count {
            if let word = source.word(i), matchesTyped(word, from: start) {
                if matches == 0 {
                    first = i
                    common = word.utf8CodeUnitCount
                } else if let firstWord = source.word(first) {
                    common = min(common, Self.sharedPrefix(firstWord, word))
                }
                matches += 1
            }
            i += 1
        }
        guard matches > 0, let firstWord = source.word(first) else { bell(&out); return }
        if common > typed {
            var k = typed
            while k < common {
                let b = firstWord.utf8Start[k]
                insert(b, &out)
                k += 1
            }
            if matches == 1 && firstWord.utf8Start[common - 1] != UInt8(ascii: "=") { insert(0x20, &out) }
            return
        }
        if matches == 1 {
            if firstWord.utf8Start[common - 1] != UInt8(ascii: "=") { insert(0x20, &out) }
            return
        }
        // Ambiguous with nothing to add: list the candidates.
        out.append("\r\n")
        i = 0
        var listed = 0
        while i < source.count {
            if let word = source.word(i), matchesTyped(word, from: start) {
                if listed > 0 { out.append("  ") }
                out.append(word)
                listed += 1
            }
            i += 1
        }
        out.append("\r\n")
        redraw(&out)
    }

    /// True when `word` starts with the line's bytes from `start` to the cursor (ASCII case ignored).
    func matchesTyped(_ word: StaticString, from start: Int) -> Bool {
        line.withBytes { bytes in
            CommandWords.hasPrefix(word, UnsafeRawBufferPointer(rebasing: bytes[start..<cursor]))
        }
    }

    static func sharedPrefix(_ a: StaticString, _ b: StaticString) -> Int {
        var n = 0
        let limit = min(a.utf8CodeUnitCount, b.utf8CodeUnitCount)
        while n < limit && ConsoleASCII.lowercase(a.utf8Start[n]) == ConsoleASCII.lowercase(b.utf8Start[n]) { n += 1 }
        return n
    }

    /// The candidates for the word after `before`.
    static func source(for before: CommandTokens) -> CompletionSource {
        if before.count == 0 { return .commands }
        guard let command = ConsoleCommandName.lookup(before[0]) else { return .nothing }
        if before.count == 1 {
            switch command {
            case .help: return .commands
            case .watch: return .watchable
            case .mode: return .keywords(.mode)
            case .viewport: return .keywords(.viewport)
            case .show, .json: return .keywords(.onOff)
            case .accuracy: return .keywords(.accuracy)
            case .calibrate: return .keywords(.calibrate)
            case .press: return .keywords(.press)
            case .config: return .keywords(.config)
            default: return .nothing
            }
        }
        switch command {
        case .mode: return before.count == 2 ? .keywords(.immediate) : .nothing
        case .press: return .keywords(.press)
        case .viewport:
            if CommandWords.equal(before[1], "follow") { return .keywords(.followOptions) }
            if CommandWords.equal(before[1], "overview") && before.count == 2 { return .keywords(.immediate) }
            return .nothing
        default: return .nothing
        }
    }
}
