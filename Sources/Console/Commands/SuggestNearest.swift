/// "Did you mean …?": the nearest known word to a mistyped one by edit distance (optimal string
/// alignment: insertions, deletions, substitutions and swaps of two neighbours each cost 1; ASCII case
/// ignored). Allocation-free: two fixed rows of `maximumLength + 1` cells.
public enum SuggestNearest {
    /// Words longer than this are compared by their first `maximumLength` bytes.
    public static let maximumLength = 31

    /// The largest distance still suggested for a word of `length` bytes: 1 for words of up to 4
    /// bytes, 2 up to 8, then 3 — so `stauts` → `status` but `xyz` suggests nothing.
    public static func threshold(forLength length: Int) -> Int {
        length <= 4 ? 1 : length <= 8 ? 2 : 3
    }

    /// Edit distance between `a` and `b` (ASCII case ignored).
    public static func distance(_ a: UnsafeRawBufferPointer, _ b: StaticString) -> Int {
        distance(a, UnsafeRawBufferPointer(start: b.utf8Start, count: b.utf8CodeUnitCount))
    }

    /// Edit distance between two byte strings (ASCII case ignored).
    public static func distance(_ a: UnsafeRawBufferPointer, _ bp: UnsafeRawBufferPointer) -> Int {
        let m = min(a.count, maximumLength)
        let n = min(bp.count, maximumLength)
        // Three rows: i-2, i-1, i (for the swap rule).
        var before = InlineArray<32, Int>(repeating: 0)
        var previous = InlineArray<32, Int>(repeating: 0)
        var current = InlineArray<32, Int>(repeating: 0)
        var j = 0
        while j <= n { previous[j] = j; j += 1 }
        var i = 1
        while i <= m {
            current[0] = i
            let ca = ConsoleASCII.lowercase(a[i - 1])
            j = 1
            while j <= n {
                let cb = ConsoleASCII.lowercase(bp[j - 1])
                let cost = ca == cb ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && ca == ConsoleASCII.lowercase(bp[j - 2])
                    && ConsoleASCII.lowercase(a[i - 2]) == cb {
                    best = min(best, before[j - 2] + 1)
                }
                current[j] = best
                j += 1
            }
            before = previous
            previous = current
            i += 1
        }
        return previous[n]
    }

    /// How well `candidate` fits `word`: twice the edit distance, minus one when the word is a prefix of
    /// the candidate (so `of` prefers `off` to `on`, `stat` prefers `stats` to `status`); nil beyond the
    /// threshold.
    public static func score(_ word: UnsafeRawBufferPointer, _ candidate: StaticString) -> Int? {
        let d = distance(word, candidate)
        guard d <= threshold(forLength: word.count) else { return nil }
        return 2 * d - (CommandWords.hasPrefix(candidate, word) ? 1 : 0)
    }

    /// The nearest command word to `word` within the threshold (ties: the earlier command in
    /// `help` order; the alias `exit` suggests `quit`), or nil.
    public static func command(for word: UnsafeRawBufferPointer) -> ConsoleCommandName? {
        var best: ConsoleCommandName?
        var bestScore = Int.max
        var i = 0
        while i < ConsoleCommandName.count {
            let name = ConsoleCommandName.at(i)
            if let s = score(word, name.word), s < bestScore {
                best = name
                bestScore = s
            }
            i += 1
        }
        if let s = score(word, "exit"), s < bestScore { best = .quit }
        return best
    }

    /// The index of the nearest word of `keywords` to `word` within the threshold, or nil.
    public static func keyword(for word: UnsafeRawBufferPointer, in keywords: CommandKeywords) -> Int? {
        var best: Int?
        var bestScore = Int.max
        var i = 0
        while i < keywords.count {
            if let s = score(word, keywords.word(i)), s < bestScore {
                best = i
                bestScore = s
            }
            i += 1
        }
        return best
    }
}
