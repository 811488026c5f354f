/// The one pass behind ``ShellScript/parse(_:)``: bytes in, commands of words out.
struct ShellLexer {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    var commands: [ShellScript.Command] = []
    private(set) var namesCurl = false

    var words: [ShellScript.Word] = []
    private var commandLine = 1
    var segments: [ShellScript.Segment] = []
    var wordStarted = false
    var wordQuoted = false
    /// Here-documents whose bodies start after the current line: delimiter, and whether `<<-` strips tabs.
    /// `command`: the index the command that opened it takes; `quoted`: the delimiter was quoted (the
    /// body is literal).
    var pendingHereDocuments: [(delimiter: [UInt8], stripsTabs: Bool, command: Int, quoted: Bool)] = []
    /// While a redirection's target is read: it is neither an argument nor a command's name.
    var readingTarget = false

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func byte(at index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func problem(_ message: String, line: Int? = nil) -> ShellProblem {
        ShellProblem(message: message, line: line ?? self.line, namesCurl: namesCurl)
    }

    mutating func run() throws(ShellProblem) {
        while position < bytes.count {
            let current = bytes[position]
            switch current {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                endWord()
                position += 1
            case UInt8(ascii: "\n"):
                endWord()
                endCommand()
                position += 1
                line += 1
                skipHereDocuments()
            case UInt8(ascii: "#") where !wordStarted:
                while position < bytes.count && bytes[position] != UInt8(ascii: "\n") { position += 1 }
            case UInt8(ascii: "\\"):
                backslash()
            case UInt8(ascii: "'"):
                try singleQuoted()
            case UInt8(ascii: "\""):
                try doubleQuoted()
            case UInt8(ascii: "$"):
                try dollar(quoted: false)
            case UInt8(ascii: "`"):
                try backquoted(quoted: false)
            case UInt8(ascii: ";"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "("), UInt8(ascii: ")"):
                endWord()
                endCommand()
                position += 1
            case UInt8(ascii: "<"), UInt8(ascii: ">"):
                try redirection()
            default:
                // A run of ordinary bytes at once: a long word costs one copy, not one call a byte.
                let end = runEnd(from: position + 1, stoppingAt: Self.special)
                appendLiteral(bytes[position..<end], quoted: false)
                position = end
            }
        }
        endWord()
        endCommand()
    }

    /// The bytes the main loop treats specially; every other byte is part of a word.
    private static let special = ByteClass(" \t\r\n#\\'\"$`;&|()<>")

    /// The end of the run from `start` up to the first byte of `stops` (or the end): one load a byte, not a
    /// comparison with each byte that stops it.
    private func runEnd(from start: Int, stoppingAt stops: ByteClass) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return start }
            var end = start
            while end < buffer.count && !stops.contains(base[end]) { end += 1 }
            return end
        }
    }

    // MARK: - Words and commands

    /// Literal bytes not yet made a segment: a slice of the script while they are one run of it (no copy),
    /// copied only when a second run joins them.
    private var literal: ArraySlice<UInt8> = []
    private var literalIsSource = false
    private var literalQuoted = false

    /// Appends a piece of the script itself (a slice of ``bytes``).
    mutating func appendLiteral(_ piece: ArraySlice<UInt8>, quoted: Bool) {
        appendLiteral(piece, quoted: quoted, fromSource: true)
    }

    /// Appends bytes that are not a run of the script (an escape decoded).
    mutating func appendLiteral(_ piece: [UInt8], quoted: Bool) {
        appendLiteral(piece[...], quoted: quoted, fromSource: false)
    }

    mutating func appendLiteral(_ piece: ArraySlice<UInt8>, quoted: Bool, fromSource: Bool) {
        startWord()
        if !literal.isEmpty && literalQuoted != quoted { flushLiteral() }
        literalQuoted = quoted
        if literal.isEmpty {
            literal = piece
            literalIsSource = fromSource
        } else if literalIsSource && fromSource && literal.endIndex == piece.startIndex {
            literal = bytes[literal.startIndex..<piece.endIndex]
        } else {
            var owned = Array(literal)
            owned += piece
            literal = owned[...]
            literalIsSource = false
        }
    }

    private mutating func appendSegment(_ segment: ShellScript.Segment) {
        startWord()
        flushLiteral()
        segments.append(segment)
    }

    mutating func flushLiteral() {
        guard !literal.isEmpty else { return }
        segments.append(.literal(literal, quoted: literalQuoted))
        literal = []
    }

    private mutating func startWord() {
        if !wordStarted && words.isEmpty && !readingTarget { commandLine = line }
        wordStarted = true
    }

    mutating func endWord() {
        guard wordStarted else { return }
        flushLiteral()
        // One piece (most words) needs no array of its own.
        let word = ShellScript.Word(head: segments.first, tail: segments.count > 1 ? Array(segments.dropFirst()) : [], quoted: wordQuoted)
        // Only a word that ends in "curl" or "curl.exe" is looked at further.
        if !namesCurl, !readingTarget, let bytes = word.singleLiteral, bytes.last == UInt8(ascii: "l") || bytes.last == UInt8(ascii: "e"),
            ShellScript.isCurl(bytes), isCommandName(position: words.count)
        {
            namesCurl = true
        }
        words.append(word)
        segments.removeAll(keepingCapacity: true)
        wordStarted = false
        wordQuoted = false
    }

    /// Whether a word at `position` would be the command's name: every word before it is an assignment or
    /// a prefix word (`then`, `sudo`…).
    private func isCommandName(position: Int) -> Bool {
        words[..<position].allSatisfy { word in
            (word.singleLiteral.map(ShellScript.isPrefixWord) ?? false) || ShellExpansion.assignmentName(word) != nil
        }
    }

    private mutating func endCommand() {
        endWord()
        if !words.isEmpty { commands.append(ShellScript.Command(words: words, line: commandLine)) }
        words = []
    }

    // MARK: - Quoting

    mutating func backslash() {
        switch byte(at: position + 1) {
        case UInt8(ascii: "\n")?:
            position += 2
            line += 1
        case UInt8(ascii: "\r")? where byte(at: position + 2) == UInt8(ascii: "\n"):
            // A file with CRLF line ends (pasted from Windows) continues its lines as the LF file does:
            // CR is already white space between words, and `\` CR LF is what its author wrote as `\`-newline.
            position += 3
            line += 1
        case .some:
            appendLiteral(bytes[(position + 1)..<(position + 2)], quoted: true)
            position += 2
        case nil:
            appendLiteral(bytes[position..<(position + 1)], quoted: false)
            position += 1
        }
    }

    private static let singleQuote = ByteClass("'")

    mutating func singleQuoted() throws(ShellProblem) {
        let opened = line
        startWord()
        wordQuoted = true
        let end = runEnd(from: position + 1, stoppingAt: Self.singleQuote)
        guard end < bytes.count else { throw problem("a single quote (') is never closed", line: opened) }
        let piece = bytes[(position + 1)..<end]
        line += piece.count { $0 == UInt8(ascii: "\n") }
        appendLiteral(piece, quoted: true)
        position = end + 1
    }

    mutating func doubleQuoted() throws(ShellProblem) {
        let opened = line
        startWord()
        wordQuoted = true
        position += 1
        while true {
            guard let current = byte(at: position) else { throw problem("a double quote (\") is never closed", line: opened) }
            switch current {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                switch byte(at: position + 1) {
                case UInt8(ascii: "\n")?:
                    line += 1
                    position += 2
                case let next?
                where next == UInt8(ascii: "$") || next == UInt8(ascii: "`") || next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\"):
                    appendLiteral(bytes[(position + 1)..<(position + 2)], quoted: true)
                    position += 2
                default:
                    appendLiteral(bytes[position..<(position + 1)], quoted: true)
                    position += 1
                }
            case UInt8(ascii: "$"):
                try dollar(quoted: true)
            case UInt8(ascii: "`"):
                try backquoted(quoted: true)
            default:
                // A run up to the next byte that matters; a newline ends a run only to be counted.
                if current == UInt8(ascii: "\n") { line += 1 }
                var end = position + 1
                end = runEnd(from: end, stoppingAt: Self.specialInDoubleQuotes)
                appendLiteral(bytes[position..<end], quoted: true)
                position = end
            }
        }
    }

    /// The bytes a double-quoted run stops at (a newline only to be counted).
    private static let specialInDoubleQuotes = ByteClass("\"\\$`\n")

    // MARK: - Expansions

    mutating func dollar(quoted: Bool) throws(ShellProblem) {
        startWord()
        switch byte(at: position + 1) {
        case UInt8(ascii: "'")? where !quoted:
            wordQuoted = true
            try ansiCQuoted()
        case UInt8(ascii: "\"")? where !quoted:
            position += 1  // $"…" is "…" translated for the locale: the same text here.
            try doubleQuoted()
        case UInt8(ascii: "(")?:
            // `$(…)` and `$((…))` alike: what runs or computes is never evaluated.
            let end = try closingParenthesis(from: position + 2)
            appendSegment(.opaque(source: source(position, end), quoted: quoted))
            position = end
        case UInt8(ascii: "{")?:
            try braced(quoted: quoted)
        case let next? where Self.isNameStart(next):
            var end = position + 1
            while end < bytes.count && Self.isNameByte(bytes[end]) { end += 1 }
            let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
            appendSegment(.variable(name: name, quoted: quoted, source: source(position, end)))
            position = end
        case let next? where Self.isSpecialParameter(next):
            appendSegment(.opaque(source: source(position, position + 2), quoted: quoted))
            position += 2
        default:
            appendLiteral(bytes[position..<(position + 1)], quoted: quoted)
            position += 1
        }
    }

    /// `${…}`: a plain name is a variable; anything else (`${X:-y}`, `${#X}`, `${X/a/b}`) is opaque.
    private mutating func braced(quoted: Bool) throws(ShellProblem) {
        let opened = line
        var depth = 0
        var end = position + 1
        while end < bytes.count {
            if bytes[end] == UInt8(ascii: "{") { depth += 1 }
            if bytes[end] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { break }
            }
            if bytes[end] == UInt8(ascii: "\n") { line += 1 }
            end += 1
        }
        guard end < bytes.count else { throw problem("a ${ is never closed by }", line: opened) }
        let inner = bytes[(position + 2)..<end]
        let text = source(position, end + 1)
        if let first = inner.first, Self.isNameStart(first), inner.allSatisfy(Self.isNameByte) {
            appendSegment(.variable(name: String(decoding: inner, as: UTF8.self), quoted: quoted, source: text))
        } else {
            appendSegment(.opaque(source: text, quoted: quoted))
        }
        position = end + 1
    }

    private mutating func backquoted(quoted: Bool) throws(ShellProblem) {
        let opened = line
        var end = position + 1
        while end < bytes.count && bytes[end] != UInt8(ascii: "`") {
            if bytes[end] == UInt8(ascii: "\\") { end += 1 }
            if end < bytes.count && bytes[end] == UInt8(ascii: "\n") { line += 1 }
            end += 1
        }
        guard end < bytes.count else { throw problem("a backquote (`) is never closed", line: opened) }
        startWord()
        appendSegment(.opaque(source: source(position, end + 1), quoted: quoted))
        position = end + 1
    }

    /// The index just past the `)` that closes the `(` before `start`, skipping quoted text and nested
    /// parentheses: one pass, whatever the nesting.
    private mutating func closingParenthesis(from start: Int) throws(ShellProblem) -> Int {
        let opened = line
        var depth = 1
        var index = start
        var quote: UInt8?
        while index < bytes.count {
            let current = bytes[index]
            if current == UInt8(ascii: "\n") { line += 1 }
            if let open = quote {
                if current == UInt8(ascii: "\\") && open == UInt8(ascii: "\"") {
                    index += 1
                } else if current == open {
                    quote = nil
                }
            } else if current == UInt8(ascii: "\\") {
                index += 1
            } else if current == UInt8(ascii: "'") || current == UInt8(ascii: "\"") || current == UInt8(ascii: "`") {
                quote = current
            } else if current == UInt8(ascii: "(") {
                depth += 1
            } else if current == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        throw problem("a $( is never closed by )", line: opened)
    }

    private func source(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
    }

    static func isNameByte(_ byte: UInt8) -> Bool { isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) }

    private static func isSpecialParameter(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || "@*#?$!-".utf8.contains(byte)
    }

    // MARK: - ANSI-C quoting

    /// `$'…'`: backslash escapes as bash decodes them (`\n`, `\t`, `\xHH`, `\uHHHH`, `\0NNN`…).
    private mutating func ansiCQuoted() throws(ShellProblem) {
        let opened = line
        var index = position + 2
        var piece: [UInt8] = []
        while true {
            guard index < bytes.count else { throw problem("a $' quote is never closed", line: opened) }
            let current = bytes[index]
            if current == UInt8(ascii: "'") { break }
            if current == UInt8(ascii: "\n") { line += 1 }
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                piece.append(current)
                index += 1
                continue
            }
            let (decoded, used) = ShellEscapes.decode(bytes, at: index + 1)
            piece += decoded
            index += 1 + used
        }
        appendLiteral(piece, quoted: true)
        position = index + 1
    }
}
