/// The shell lexer's redirections: an operator and its target word (never an argument), and the
/// here-documents a line opens, whose bodies follow it (a command's standard input).
extension ShellLexer {
    /// `<`, `>`, `>>`, `2>&1`, `<<EOF`, `<<<word`…: the operator and its target are not arguments. A
    /// word of digits just before it is the descriptor, not an argument either.
    mutating func redirection() throws(ShellProblem) {
        flushLiteral()
        if wordStarted, !wordQuoted, segments.count == 1, case .literal(let digits, _) = segments[0], !digits.isEmpty,
            digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        {
            segments.removeAll(keepingCapacity: true)
            wordStarted = false
        }
        endWord()
        let isHereDocument =
            byte(at: position) == UInt8(ascii: "<") && byte(at: position + 1) == UInt8(ascii: "<")
            && byte(at: position + 2) != UInt8(ascii: "<")
        while let current = byte(at: position), "<>&|-".utf8.contains(current) { position += 1 }
        let stripsTabs = isHereDocument && position > 0 && bytes[position - 1] == UInt8(ascii: "-")
        while byte(at: position) == UInt8(ascii: " ") || byte(at: position) == UInt8(ascii: "\t") { position += 1 }
        // The target: one word, read as any word is, then dropped.
        let savedWords = words
        words = []
        readingTarget = true
        defer { readingTarget = false }
        try readOneWord()
        let target = words.first
        words = savedWords
        if isHereDocument, let target {
            pendingHereDocuments.append(
                (delimiter: Self.plainText(target), stripsTabs: stripsTabs, command: commands.count, quoted: target.quoted))
        }
    }

    /// Reads the next word only (stopping at a blank or an operator).
    private mutating func readOneWord() throws(ShellProblem) {
        while let current = byte(at: position) {
            switch current {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: ";"), UInt8(ascii: "&"), UInt8(ascii: "|"),
                UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("), UInt8(ascii: ")"):
                endWord()
                return
            case UInt8(ascii: "'"): try singleQuoted()
            case UInt8(ascii: "\""): try doubleQuoted()
            case UInt8(ascii: "\\"): backslash()
            case UInt8(ascii: "$"): try dollar(quoted: false)
            default:
                appendLiteral(bytes[position..<(position + 1)], quoted: false)
                position += 1
            }
        }
        endWord()
    }

    /// A word's text with expansions as written: a here-document's delimiter.
    private static func plainText(_ word: ShellScript.Word) -> [UInt8] {
        word.segments.flatMap { segment -> [UInt8] in
            switch segment {
            case .literal(let bytes, _): Array(bytes)
            case .variable(_, _, let source), .opaque(let source, _): Array(source.utf8)
            }
        }
    }

    /// After a line that opened here-documents: their bodies, each up to its delimiter line (or the end).
    /// The last one a command opened is its standard input (``ShellScript/Command/standardInput``).
    mutating func skipHereDocuments() {
        for document in pendingHereDocuments {
            let start = position
            var bodyEnd = bytes.count
            while position < bytes.count {
                var end = position
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                var text = bytes[position..<end]
                if document.stripsTabs { text = text.drop { $0 == UInt8(ascii: "\t") } }
                let lineStart = position
                position = min(end + 1, bytes.count)
                line += 1
                if text.elementsEqual(document.delimiter) {
                    bodyEnd = lineStart
                    break
                }
            }
            if document.command < commands.count {
                commands[document.command].standardInput = ShellScript.HereDocument(
                    body: bytes[start..<max(start, bodyEnd)], stripsTabs: document.stripsTabs, literal: document.quoted)
            }
        }
        pendingHereDocuments = []
    }
}
