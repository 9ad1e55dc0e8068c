/// A small evaluator for the subset of udev rule syntax `udev/99-puckd.rules` uses, so tests can check
/// what each kind of device gets (symlinks, PUCKD_* properties, group, mode) without real hardware.
/// It follows udev(7): a rule applies when all its match keys (`==`, `!=`, shell-glob patterns with
/// `|` alternatives) match; `GOTO` skips to its `LABEL`; `%n` is the kernel number.
struct UdevRule: Equatable {
    struct Entry: Equatable {
        var key: String          // e.g. "SUBSYSTEM", "ATTRS", "ENV"
        var attribute: String?   // the {…} part
        var op: String           // == != = += -= :=
        var value: String
        var line: Int
    }
    var entries: [Entry]
    var line: Int
}

enum UdevRulesSyntaxError: Error, Equatable, CustomStringConvertible {
    case malformed(line: Int, text: String)
    case unknownKey(line: Int, key: String)
    case badOperator(line: Int, key: String, op: String)
    case missingLabel(line: Int, label: String)

    var description: String {
        switch self {
        case .malformed(let line, let text): return "line \(line): cannot parse '\(text)'"
        case .unknownKey(let line, let key): return "line \(line): unknown key \(key)"
        case .badOperator(let line, let key, let op): return "line \(line): \(key) does not take \(op)"
        case .missingLabel(let line, let label): return "line \(line): GOTO \(label) has no LABEL"
        }
    }
}

/// A device as udev sees it while processing rules.
struct UdevDevice {
    var subsystem: String
    var kernel: String
    var attributes: [String: String] = [:]      // ATTRS{…} of the device or a parent
    var symlinks: [String] = []
    var environment: [String: String] = [:]
    var tags: [String] = []
    var group: String?
    var mode: String?
    /// OPTIONS+="link_priority=N": who gets a symlink several devices claim (the highest; default 0).
    var linkPriority = 0

    var kernelNumber: String { String(kernel.reversed().prefix(while: { $0.isNumber }).reversed()) }
}

enum UdevRules {
    static let matchKeys: Set<String> = ["SUBSYSTEM", "KERNEL", "SYMLINK", "ATTRS", "ENV", "ACTION", "TEST"]
    static let assignKeys: Set<String> = ["SYMLINK", "ENV", "TAG", "GROUP", "MODE", "GOTO", "LABEL", "OWNER", "OPTIONS"]

    static func parse(_ text: String) throws(UdevRulesSyntaxError) -> [UdevRule] {
        var rules: [UdevRule] = []
        var labels: Set<String> = []
        var gotos: [(String, Int)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = raw.trimmingLeadingAndTrailingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            var entries: [UdevRule.Entry] = []
            var rest = Substring(line)
            while !rest.isEmpty {
                // KEY[{attr}]OP"value"
                guard let opStart = rest.firstIndex(where: { "=!+-:".contains($0) }) else {
                    throw .malformed(line: lineNumber, text: String(rest))
                }
                var keyPart = rest[..<opStart]
                var attribute: String?
                if let brace = keyPart.firstIndex(of: "{") {
                    guard keyPart.hasSuffix("}") else { throw .malformed(line: lineNumber, text: String(keyPart)) }
                    attribute = String(keyPart[keyPart.index(after: brace)..<keyPart.index(before: keyPart.endIndex)])
                    keyPart = keyPart[..<brace]
                }
                let key = String(keyPart)
                var afterOp = rest[opStart...]
                let op: String
                if let two = ["==", "!=", "+=", "-=", ":="].first(where: { afterOp.hasPrefix($0) }) {
                    op = two
                } else if afterOp.hasPrefix("=") {
                    op = "="
                } else {
                    throw .malformed(line: lineNumber, text: String(rest))
                }
                afterOp = afterOp.dropFirst(op.count)
                guard afterOp.first == "\"", let close = afterOp.dropFirst().firstIndex(of: "\"") else {
                    throw .malformed(line: lineNumber, text: String(rest))
                }
                let value = String(afterOp[afterOp.index(after: afterOp.startIndex)..<close])
                let isMatch = op == "==" || op == "!="
                if !matchKeys.contains(key) && !assignKeys.contains(key) { throw .unknownKey(line: lineNumber, key: key) }
                if isMatch && !matchKeys.contains(key) { throw .badOperator(line: lineNumber, key: key, op: op) }
                if !isMatch && !assignKeys.contains(key) { throw .badOperator(line: lineNumber, key: key, op: op) }
                if key == "LABEL" { labels.insert(value) }
                if key == "GOTO" { gotos.append((value, lineNumber)) }
                entries.append(.init(key: key, attribute: attribute, op: op, value: value, line: lineNumber))
                rest = afterOp[afterOp.index(after: close)...].drop(while: { $0 == "," || $0 == " " })
            }
            rules.append(UdevRule(entries: entries, line: lineNumber))
        }
        for (label, line) in gotos where !labels.contains(label) { throw .missingLabel(line: line, label: label) }
        return rules
    }

    /// The device that holds `link` among `devices` (after the rules), as udev decides: the highest
    /// link_priority among those claiming it; nil when none claims it or the top priority is shared (then
    /// udev's choice would depend on event order).
    static func owner(of link: String, among devices: [UdevDevice]) -> UdevDevice? {
        let claims = devices.filter { $0.symlinks.contains(link) }
        guard let top = claims.map(\.linkPriority).max() else { return nil }
        let winners = claims.filter { $0.linkPriority == top }
        return winners.count == 1 ? winners[0] : nil
    }

    /// Runs `rules` over `device` and returns it with the assignments applied.
    static func apply(_ rules: [UdevRule], to device: UdevDevice) -> UdevDevice {
        var d = device
        var index = 0
        var skippingTo: String?
        while index < rules.count {
            let rule = rules[index]
            index += 1
            if let label = skippingTo {
                if rule.entries.contains(where: { $0.key == "LABEL" && $0.value == label }) { skippingTo = nil }
                continue
            }
            guard rule.entries.allSatisfy({ matches($0, d) }) else { continue }
            for e in rule.entries where e.op != "==" && e.op != "!=" {
                let value = e.value.replacingPercentN(with: d.kernelNumber)
                switch e.key {
                case "SYMLINK":
                    if e.op == "-=" { d.symlinks.removeAll { $0 == value } } else { d.symlinks.append(value) }
                case "ENV": d.environment[e.attribute ?? ""] = value
                case "TAG": d.tags.append(value)
                case "GROUP": d.group = value
                case "MODE": d.mode = value
                case "GOTO": skippingTo = value
                case "OPTIONS" where value.hasPrefix("link_priority="):
                    d.linkPriority = Int(value.dropFirst("link_priority=".count)) ?? d.linkPriority
                default: break
                }
            }
        }
        return d
    }

    private static func matches(_ e: UdevRule.Entry, _ d: UdevDevice) -> Bool {
        if e.op != "==" && e.op != "!=" { return true }
        let candidates: [String]
        switch e.key {
        case "SUBSYSTEM": candidates = [d.subsystem]
        case "KERNEL": candidates = [d.kernel]
        case "SYMLINK": candidates = d.symlinks
        case "ATTRS": candidates = d.attributes[e.attribute ?? ""].map { [$0] } ?? []
        case "ENV": candidates = d.environment[e.attribute ?? ""].map { [$0] } ?? []
        default: candidates = []
        }
        let hit = candidates.contains { value in
            e.value.split(separator: "|").contains { glob(String($0), value) }
        }
        return e.op == "==" ? hit : !hit
    }

    /// Shell-style glob with `*`, `?` and `[a-z0-9]` classes.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        func match(_ i: Int, _ j: Int) -> Bool {
            if i == p.count { return j == t.count }
            switch p[i] {
            case "*": return (j...t.count).contains { match(i + 1, $0) }
            case "?": return j < t.count && match(i + 1, j + 1)
            case "[":
                guard let close = p[i...].firstIndex(of: "]"), j < t.count else { return false }
                var k = i + 1, ok = false
                while k < close {
                    if k + 2 < close, p[k + 1] == "-" { ok = ok || (p[k] <= t[j] && t[j] <= p[k + 2]); k += 3 }
                    else { ok = ok || p[k] == t[j]; k += 1 }
                }
                return ok && match(close + 1, j + 1)
            default: return j < t.count && p[i] == t[j] && match(i + 1, j + 1)
            }
        }
        return match(0, 0)
    }
}

private extension Substring {
    var trimmingLeadingAndTrailingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}

private extension String {
    func replacingPercentN(with number: String) -> String {
        var out = ""
        var it = makeIterator()
        while let c = it.next() {
            if c == "%", let n = it.next() { out += n == "n" ? number : "%\(n)" } else { out.append(c) }
        }
        return out
    }
}
