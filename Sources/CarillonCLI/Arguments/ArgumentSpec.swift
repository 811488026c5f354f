/// A positional argument a command takes: `PAYLOAD...`, `NOTIFICATIONS`.
struct ArgumentSpec: Sendable, Equatable {
    /// The placeholder, in capitals: `PAYLOAD`.
    var name: String
    /// What it is, for the shell completions.
    var value: ValueKind
    /// What it names, as a sentence.
    var about: String
    /// Whether it may be given more than once (at least once).
    var repeats = false

    /// `PAYLOAD...` or `NOTIFICATIONS`, as the usage line writes it.
    var usage: String { repeats ? name + "..." : name }

    /// The payloads `open` and `present` take, as `process` names them too.
    static let payloads = ArgumentSpec(
        name: "PAYLOAD", value: .file, about: "A payload file, a directory (its *.json and *.apns files, sorted) or - (standard input).",
        repeats: true)
}
