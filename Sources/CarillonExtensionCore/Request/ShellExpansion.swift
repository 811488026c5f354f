/// A script's words as the shell would hand them to a command, as far as that is knowable without running
/// anything: variables the script itself assigns once (`TOPIC=com.example.app`, `export HOST=…`) are
/// substituted, with the field splitting of an unquoted expansion; what the script does not say — an
/// argument (`$1`), a variable set outside it, one assigned more than once (which value holds depends
/// on how it runs), a command substitution — stays as written and is named as unresolved.
package enum ShellExpansion {
    /// A word as the command receives it.
    package struct Word: Sendable, Equatable {
        package var bytes: [UInt8]
        /// The parts of the word the script does not determine, as written (`$DEVICE_TOKEN`,
        /// `$(date +%s)`), with why.
        package var unresolved: [Unresolved]

        package init(bytes: [UInt8], unresolved: [Unresolved] = []) {
            self.bytes = bytes
            self.unresolved = unresolved
        }

        package var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// A part of a word the script does not determine.
    package struct Unresolved: Sendable, Equatable {
        /// The text as written, which stands in its place in the word.
        package var source: String
        package var why: String
    }

    /// A command's words, expanded, and the line it starts on.
    package struct Command: Sendable, Equatable {
        package var words: [Word]
        package var line: Int
        /// The here-document it reads as standard input (curl's `@-`).
        package var standardInput: ShellScript.HereDocument? = nil
    }

    /// The most bytes one script's expansions may produce in all (what variables add; the script's own
    /// text is bounded by its size): `A=xx; B=$A$A; C=$B$B…` doubles at each step, and a stranger's file
    /// must not turn that into memory.
    package static let maximumExpandedBytes = 4 * 1_048_576

    /// The bound for one script: 64 KiB and sixteen times its size, at most ``maximumExpandedBytes`` (a
    /// real script's variables hold a payload or two; only a doubling chain goes further).
    package static func limit(_ script: ShellScript) -> Int {
        min(maximumExpandedBytes, 65_536 + 16 * script.size)
    }

    /// The script's curl commands, expanded with the variables its assignments set before each.
    ///
    /// - Throws: ``ShellProblem`` when the expansions would pass ``maximumExpandedBytes``.
    package static func curlCommands(_ script: ShellScript) throws(ShellProblem) -> [Command] {
        var counts: [String: Int] = [:]
        for command in script.commands {
            for word in leading(command).assignments {
                if let name = assignmentName(word) { counts[name, default: 0] += 1 }
            }
        }
        var state = State(counts: counts, limit: limit(script))
        var curls: [Command] = []
        for command in script.commands {
            let (assignments, words) = leading(command)
            guard let name = words.first else {
                // Only assignments: they set the script's variables from here on.
                for assignment in assignments { try state.assign(assignment) }
                continue
            }
            guard let literal = name.singleLiteral, ShellScript.isCurl(literal) else { continue }
            var expanded: [Word] = []
            for word in words.dropFirst() { expanded += try state.expand(word, line: command.line) }
            curls.append(Command(words: expanded, line: command.line, standardInput: command.standardInput))
        }
        return curls
    }

    /// A command's assignments (after any `then`, `export`…), and the words from its name on.
    private static func leading(_ command: ShellScript.Command) -> (assignments: [ShellScript.Word], words: ArraySlice<ShellScript.Word>) {
        var words = command.words[...]
        while let first = words.first, isDeclaration(first) || isPrefixWord(first) {
            words = words.dropFirst()
        }
        var assignments: [ShellScript.Word] = []
        while let first = words.first, assignmentName(first) != nil {
            assignments.append(first)
            words = words.dropFirst()
        }
        return (assignments, words)
    }

    private static func isPrefixWord(_ word: ShellScript.Word) -> Bool {
        word.singleLiteral.map(ShellScript.isPrefixWord) ?? false
    }

    /// The name a word assigns (`NAME=value`, the `=` unquoted), or nil.
    package static func assignmentName(_ word: ShellScript.Word) -> String? {
        guard case .literal(let bytes, false)? = word.head, let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
            equals > bytes.startIndex, ShellLexer.isNameStart(bytes[bytes.startIndex]), bytes[..<equals].allSatisfy(ShellLexer.isNameByte)
        else { return nil }
        return String(decoding: bytes[..<equals], as: UTF8.self)
    }

    /// `export`, `readonly`, `local`, `declare` and their options: they do not change an assignment.
    private static func isDeclaration(_ word: ShellScript.Word) -> Bool {
        guard let bytes = word.singleLiteral else { return false }
        return declarations.contains { $0.elementsEqual(bytes) } || (bytes.first == UInt8(ascii: "-") && bytes.count <= 4)
    }

    private static let declarations: [[UInt8]] = ["export", "readonly", "local", "declare", "typeset"].map { Array($0.utf8) }

    /// What the expansion knows of the script's variables as it goes.
    private struct State {
        enum Value {
            case known([UInt8])
            case unknown(String)
        }

        let counts: [String: Int]
        let limit: Int
        var variables: [String: Value] = [:]
        var produced = 0

        init(counts: [String: Int], limit: Int) {
            self.counts = counts
            self.limit = limit
        }

        mutating func assign(_ word: ShellScript.Word) throws(ShellProblem) {
            guard let name = assignmentName(word) else { return }
            if let count = counts[name], count > 1 {
                variables[name] = .unknown("is assigned \(count) times in the file: which value holds depends on how it runs")
                return
            }
            var segments = word.segments
            if case .literal(let bytes, let quoted) = segments[0] {
                segments[0] = .literal(bytes[(bytes.firstIndex(of: UInt8(ascii: "="))! + 1)...], quoted: quoted)
            }
            // An assignment's value is never split into fields.
            var bytes: [UInt8] = []
            var unresolved: [Unresolved] = []
            for segment in segments {
                let (piece, missing) = value(of: segment)
                bytes += piece
                unresolved += missing
            }
            try count(
                bytes.count
                    - word.segments.reduce(0) { total, segment in
                        if case .literal(let piece, _) = segment { return total + piece.count }
                        return total
                    })
            variables[name] = unresolved.isEmpty ? .known(bytes) : .unknown(unresolved.map(\.why).first ?? "is not known")
        }

        /// A segment's bytes, and what in it is unresolved.
        private func value(of segment: ShellScript.Segment) -> ([UInt8], [Unresolved]) {
            switch segment {
            case .literal(let bytes, _):
                return (Array(bytes), [])
            case .variable(let name, _, let source):
                switch variables[name] {
                case .known(let bytes)?: return (bytes, [])
                case .unknown(let why)?: return (Array(source.utf8), [Unresolved(source: source, why: why)])
                case nil: return (Array(source.utf8), [Unresolved(source: source, why: "is not set in the file")])
                }
            case .opaque(let source, _):
                let why =
                    source.hasPrefix("$(") || source.hasPrefix("`")
                    ? "runs a command, which the tool never does" : "is the script's argument or a shell parameter"
                return (Array(source.utf8), [Unresolved(source: source, why: why)])
            }
        }

        private mutating func count(_ bytes: Int) throws(ShellProblem) {
            produced += bytes
            if produced > limit {
                throw ShellProblem(message: "its variables expand to more than \(limit) bytes", line: 0, namesCurl: true)
            }
        }

        /// The fields a word becomes: an unquoted variable's known value is split at blanks (IFS).
        mutating func expand(_ word: ShellScript.Word, line: Int) throws(ShellProblem) -> [Word] {
            var fields: [Word] = []
            var current = Word(bytes: [])
            // Whether the current field exists even if empty: quotes make one (`""` is an argument).
            var started = word.quoted
            // A word of one literal piece (most of them) is its bytes: no expansion to do.
            if let literal = word.singleLiteral {
                return [Word(bytes: Array(literal))]
            }
            for segment in word.segments {
                if case .literal(let piece, let quoted) = segment {
                    current.bytes += piece
                    started = started || !piece.isEmpty || quoted
                    continue
                }
                let (bytes, missing) = value(of: segment)
                try count(bytes.count)
                current.unresolved += missing
                guard case .variable(_, false, _) = segment, missing.isEmpty else {
                    current.bytes += bytes
                    started = started || !bytes.isEmpty || isQuoted(segment)
                    continue
                }
                for (index, piece) in Self.split(bytes).enumerated() {
                    if index > 0 && started {
                        fields.append(current)
                        current = Word(bytes: [])
                        started = false
                    }
                    current.bytes += piece
                    started = started || !piece.isEmpty
                }
            }
            if started { fields.append(current) }
            return fields
        }

        private func isQuoted(_ segment: ShellScript.Segment) -> Bool {
            switch segment {
            case .literal(_, let quoted), .variable(_, let quoted, _), .opaque(_, let quoted): quoted
            }
        }

        /// `bytes` split at runs of space, tab and newline; a leading or trailing run gives an empty piece
        /// there, so that a field boundary falls where the blank was.
        static func split(_ bytes: [UInt8]) -> [[UInt8]] {
            var pieces: [[UInt8]] = [[]]
            var inBlank = false
            for byte in bytes {
                if byte == 0x20 || byte == 0x09 || byte == 0x0A {
                    if !inBlank { pieces.append([]) }
                    inBlank = true
                } else {
                    pieces[pieces.count - 1].append(byte)
                    inBlank = false
                }
            }
            return pieces
        }
    }
}
