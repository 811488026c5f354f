/// What an option's value or a positional argument is, as far as a shell can complete it.
enum ValueKind: Sendable, Equatable {
    /// No value: a flag.
    case none
    /// A file (a shell's file completion also offers directories, to walk into).
    case file
    /// A directory.
    case directory
    /// One of these words.
    case choices([String])
    /// Anything: a number, a URL, a name; the shell offers nothing.
    case text

    /// The words of ``choices(_:)``; empty for any other kind.
    var choices: [String] {
        guard case .choices(let words) = self else { return [] }
        return words
    }

    /// A path option's kind from its placeholder: `DIR` is a directory, any other (`PEM`, `FILE.html`) a file.
    static func path(placeholder: String) -> ValueKind {
        placeholder == "DIR" ? .directory : .file
    }
}
