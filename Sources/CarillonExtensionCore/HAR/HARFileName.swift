/// The names of a recording's files (DESIGN-replay §5.3): `<payload-stem>.har` per payload, the stem
/// from the payload's file name without `.json`, `<stem>-L<line>` for a line of a JSON Lines file,
/// `stdin-<n>` for standard input. Never a path: a name cannot climb out of the recording's directory.
package enum HARFileName {
    /// The file name for a payload named `name` (a file's last component, or a line's `FILE:LINE`).
    package static func forPayload(named name: String) -> String {
        stem(name) + ".har"
    }

    /// The file name for the `number`th payload read from standard input (from 1).
    package static func forStandardInput(_ number: Int) -> String {
        "stdin-\(number).har"
    }

    /// Whether `name` can be a file this writer wrote beside another (`shared_with`): a bare name in
    /// the recording's own directory, never a path (`/`), `.`, `..`, empty, or longer than a file name
    /// can be. A recording is a file from a stranger: what it names is read only if this holds.
    package static func isBare(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.utf8.count <= 255 && !name.utf8.contains { $0 == 0x2F || $0 == 0 }
    }

    /// A name's stem: without its `.json` ending, `:` of a line's name as `-L`, `/` as `_`; a name
    /// that would be empty or hidden gets a `payload` prefix.
    package static func stem(_ name: String) -> String {
        var stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        if let colon = stem.lastIndex(of: ":"), stem[stem.index(after: colon)...].allSatisfy(\.isNumber) {
            let line = stem[stem.index(after: colon)...]
            stem = FileSystem.lastComponent(String(stem[..<colon])) + "-L" + line
        }
        stem = stem.replacing("/", with: "_")
        return stem.isEmpty || stem.hasPrefix(".") ? "payload" + stem : stem
    }
}
