/// How the tool words a list in its messages and help.
enum Wording {
    /// "json", "json or text", "json, text or junit" (with `conjunction` "or"; "and" for a help
    /// sentence that names them all).
    static func list(_ words: [String], conjunction: String = "or") -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
