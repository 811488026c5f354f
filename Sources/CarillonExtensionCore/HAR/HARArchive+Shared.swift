extension HARArchive {
    /// The file of the first payload whose download a shared download's recording shares (`shared_with`:
    /// no entries of its own), as written: replay reads it only when it is a bare name in this one's
    /// directory (``HARFileName/isBare(_:)``); nil for any other file.
    package var sharedWithFile: String? {
        guard entries.isEmpty, let shared = carillon?.sharedWith, let name = shared, !name.isEmpty else { return nil }
        return name
    }

    /// This shared download's recording with the entries and connections of `first`, the file it names:
    /// its own payload, options and verdict, the first's answers.
    package func lending(from first: HARArchive) -> HARArchive {
        var shared = self
        shared.entries = first.entries
        shared.carillon?.connections = first.carillon?.connections ?? []
        return shared
    }
}
