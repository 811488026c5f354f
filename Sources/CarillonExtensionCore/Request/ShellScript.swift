/// A shell script as the POSIX shell (and bash) splits it into commands and words, read from a stranger's
/// file and never run: quoting (`'…'`, `"…"`, `$'…'`), backslashes, `\`-newlines, comments, the
/// control operators that end a command (`;`, `&`, `|`, `&&`, `||`, parentheses, newlines), redirections
/// and here-documents (skipped). Expansions are kept as ``Segment``s for ``ShellExpansion``: a
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
    }

    /// One word as written: its pieces, and whether any of it was quoted (a quoted empty string is a
    /// word; an unquoted expansion to nothing is not).
    package struct Word: Sendable, Equatable {
        package var segments: [Segment]
        package var quoted: Bool

        /// The word's bytes when it is all literal (no expansion at all); nil otherwise.
        package var literal: [UInt8]? {
            var bytes: [UInt8] = []
            for segment in segments {
                guard case .literal(let piece, _) = segment else { return nil }
                bytes += piece
            }
            return bytes
        }
    }

    /// A piece of a word.
    package enum Segment: Sendable, Equatable {
        /// Bytes after quote removal; `quoted` when they were inside quotes (an `=` that makes an
        /// assignment must not be).
        case literal([UInt8], quoted: Bool)
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
    package static func isCurl(_ bytes: [UInt8]) -> Bool {
        let name = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last.map(Array.init) ?? bytes
        return name == Array("curl".utf8) || name == Array("curl.exe".utf8)
    }

    /// Words that may come before a command's name without being it.
    static let prefixWords: Set<[UInt8]> = Set(
        ["then", "do", "else", "elif", "if", "while", "until", "!", "time", "exec", "command", "nohup", "{", "sudo", "env"].map {
            Array($0.utf8)
        })
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
