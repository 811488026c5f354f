/// A brace-counting scanner for function lengths: each `func`, `init`, `deinit` and `subscript` with a
/// body, from its declaration line to the line of its closing brace. String literals and comments are
/// blanked first, so a brace in either does not count.
enum FunctionLengths {
    static let modifiers: Set<Substring> = [
        "public", "internal", "private", "fileprivate", "open", "static", "class", "final", "override", "mutating",
        "nonmutating", "convenience", "required", "nonisolated", "package",
    ]

    /// `(line, name, length)` of each function longer than `limit` lines in `text`.
    static func over(_ limit: Int, in text: String) -> [(Int, String, Int)] {
        let lines = blanked(text)
        var found: [(Int, String, Int)] = []
        for (index, line) in lines.enumerated() {
            guard let name = declaredFunction(line), let end = bodyEnd(lines, from: index) else { continue }
            let length = end - index + 1
            if length > limit { found.append((index + 1, name, length)) }
        }
        return found
    }

    /// `func name`, `init`, `deinit` or `subscript` when the line declares one.
    static func declaredFunction(_ line: String) -> String? {
        var words = line.split(separator: " ")[...]
        while let word = words.first, word.hasPrefix("@") || modifiers.contains(word) { words = words.dropFirst() }
        guard let word = words.first else { return nil }
        if word == "func", let name = words.dropFirst().first {
            return "func " + name.prefix { $0 != "(" && $0 != "<" }
        }
        for keyword in ["init", "deinit", "subscript"] where word.hasPrefix(keyword) {
            let rest = word.dropFirst(keyword.count)
            if rest.isEmpty || rest.first == "(" || rest.first == "?" || rest.first == "<" || rest.first == "{" { return keyword }
        }
        return nil
    }

    /// The line of the brace that closes the body begun on or after `start` (the first `{` outside
    /// parentheses within 30 lines, before a blank line); nil for a declaration without a body.
    static func bodyEnd(_ lines: [String], from start: Int) -> Int? {
        var parentheses = 0
        var depth = 0
        var opened = false
        for index in start..<lines.count {
            if !opened && index > start && (index - start >= 30 || lines[index].allSatisfy { $0 == " " }) { return nil }
            for character in lines[index] {
                if !opened {
                    if character == "(" || character == "[" { parentheses += 1 }
                    if character == ")" || character == "]" { parentheses -= 1 }
                    if character == "{" && parentheses == 0 {
                        opened = true
                        depth = 1
                    }
                    continue
                }
                if character == "{" { depth += 1 }
                if character == "}" {
                    depth -= 1
                    if depth == 0 { return index }
                }
            }
        }
        return nil
    }

    /// The lines with string literals (multi-line ones too) and `//` comments blanked.
    static func blanked(_ text: String) -> [String] {
        var result: [String] = []
        var inMultiline = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var inString = false
            var previous: Character = " "
            var index = raw.startIndex
            while index < raw.endIndex {
                if raw[index...].hasPrefix("\"\"\"") {
                    inMultiline.toggle()
                    index = raw.index(index, offsetBy: 3)
                    continue
                }
                let character = raw[index]
                if inMultiline {
                    index = raw.index(after: index)
                    continue
                }
                if !inString && raw[index...].hasPrefix("//") { break }
                if character == "\"" && previous != "\\" {
                    inString.toggle()
                } else if !inString {
                    line.append(character)
                }
                previous = inString && character == "\\" && previous == "\\" ? " " : character
                index = raw.index(after: index)
            }
            result.append(line.trimmingPrefixSpaces())
        }
        return result
    }
}

extension String {
    /// The string without its leading spaces.
    fileprivate func trimmingPrefixSpaces() -> String { String(drop { $0 == " " }) }
}
