/// A shell script as the POSIX shell (and bash) splits it into commands and words, read from a stranger's
/// file and never run: quoting (`'…'`, `"…"`, `$'…'`), backslashes, `\`-newlines, comments, the
/// control operators that end a command (`;`, `&`, `|`, `&&`, `||`, parentheses, newlines), redirections
/// and here-documents (kept as the command's standard input, never expanded). Expansions are kept as ``Segment``s for ``ShellExpansion``: a
/// variable by name, and anything that would run something (`$(…)`, `` `…` ``, `$((…))`, `$1`,
/// `${X:-y}`) as opaque source text that is never evaluated.
///
/// Linear in the input and bounded by it: each byte is looked at a bounded number of times, whatever the
/// nesting. An unbalanced quote or substitution is a ``ShellProblem`` naming the line it opened on.
package struct ShellScript: Sendable, Equatable {
    /// One simple command: its words in order, and the line it starts on (1-based).
    package struct Command: Sendable, Equatable {
        package var words: [Word]
        package var line: Int
        /// The here-document the command reads as its standard input, if any.
        package var standardInput: HereDocument? = nil
    }

    /// A here-document's body as written (a slice of the script), up to its delimiter line.
    package struct HereDocument: Sendable, Equatable {
        package var body: ArraySlice<UInt8>
        /// `<<-`: each line's leading tabs are removed.
        var stripsTabs: Bool
        /// The delimiter was quoted (`<<'EOF'`): the body is taken as written, with no expansion.
        package var literal: Bool

        /// The bytes the command reads: the body, with `<<-`'s leading tabs removed.
        package var bytes: [UInt8] {
            guard stripsTabs else { return Array(body) }
            var result: [UInt8] = []
            result.reserveCapacity(body.count)
            var atLineStart = true
            for byte in body {
                if atLineStart && byte == UInt8(ascii: "\t") { continue }
                atLineStart = byte == UInt8(ascii: "\n")
                result.append(byte)
            }
            return result
        }
    }

    /// One word as written: its pieces, and whether any of it was quoted (a quoted empty string is a
    /// word; an unquoted expansion to nothing is not). Most words are one piece, kept without an array;
    /// a literal piece is a slice of the script where it can be, so reading a script allocates little.
    package struct Word: Sendable, Equatable {
        /// The first piece, or nil for an empty quoted word.
        package var head: Segment?
        /// The pieces after the first.
        package var tail: [Segment]
        package var quoted: Bool

        package init(segments: [Segment], quoted: Bool) {
            head = segments.first
            tail = Array(segments.dropFirst())
            self.quoted = quoted
        }

        init(head: Segment?, tail: [Segment], quoted: Bool) {
            self.head = head
            self.tail = tail
            self.quoted = quoted
        }

        /// Every piece, in order.
        package var segments: [Segment] { head.map { [$0] + tail } ?? [] }

        /// The word's bytes when it is all literal (no expansion at all); nil otherwise.
        package var literal: ArraySlice<UInt8>? {
            guard let head else { return [] }
            guard case .literal(let first, _) = head else { return nil }
            if tail.isEmpty { return first }
            var bytes = Array(first)
            for segment in tail {
                guard case .literal(let piece, _) = segment else { return nil }
                bytes += piece
            }
            return bytes[...]
        }

        /// The one literal piece of a word that is nothing else (no expansion, no second piece).
        package var singleLiteral: ArraySlice<UInt8>? {
            guard tail.isEmpty, case .literal(let bytes, _)? = head else { return nil }
            return bytes
        }
    }

    /// A piece of a word.
    package enum Segment: Sendable, Equatable {
        /// Bytes after quote removal; `quoted` when they were inside quotes (an `=` that makes an
        /// assignment must not be).
        case literal(ArraySlice<UInt8>, quoted: Bool)
        /// `$NAME` or `${NAME}`: `source` is the text as written.
        case variable(name: String, quoted: Bool, source: String)
        /// What would run a command or read the script's arguments: never evaluated.
        case opaque(source: String, quoted: Bool)
    }

    package var commands: [Command]

    /// Whether the script has a command named `curl` (`curl`, `/usr/bin/curl`, `curl.exe`), as far as it
    /// was read: a file that stops on a quoting error after one is still a curl command with that error.
    package var namesCurl: Bool

    /// How many bytes the script is: what its expansions are bounded by (``ShellExpansion``).
    package var size = 0

    /// Splits `bytes` into commands and words.
    ///
    /// - Throws: ``ShellProblem`` for an unbalanced quote, substitution or `${`.
    package static func parse(_ bytes: [UInt8]) throws(ShellProblem) -> ShellScript {
        var lexer = ShellLexer(bytes)
        try lexer.run()
        return ShellScript(commands: lexer.commands, namesCurl: lexer.namesCurl, size: bytes.count)
    }

    /// Whether `word` names curl: its last path component is `curl` or `curl.exe`.
    package static func isCurl(_ bytes: ArraySlice<UInt8>) -> Bool {
        let start = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? bytes.startIndex
        let name = bytes[start...]
        return name.elementsEqual("curl".utf8) || name.elementsEqual("curl.exe".utf8)
    }

    /// Words that may come before a command's name without being it.
    static let prefixWords: [[UInt8]] = [
        "then", "do", "else", "elif", "if", "while", "until", "!", "time", "exec", "command", "nohup", "{", "sudo", "env",
    ]
    .map { Array($0.utf8) }

    static func isPrefixWord(_ bytes: ArraySlice<UInt8>) -> Bool {
        prefixWords.contains { $0.elementsEqual(bytes) }
    }
}

/// Why a script could not be split into words: the problem and the line (1-based) it is on; and whether a
/// curl command was seen before it.
package struct ShellProblem: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var line: Int
    package var namesCurl: Bool

    /// How many bytes the script is: what its expansions are bounded by (``ShellExpansion``).
    package var size = 0

    package var description: String { "line \(line): \(message)" }
}
