/// A HAR file as read and normalised: its creator, its entries sorted by start time, and what carillon
/// itself recorded under `log._carillon` (kept as JSON for the replay to read).
///
/// Normalising follows the HAR 1.2 text: a reader must sort the entries itself, HTTP/2 pseudo-header
/// fields are set aside from the ordinary ones, and the `httpVersion` strings of real exporters are
/// mapped onto "1.0", "1.1", "2" and "3". Which exporter wrote the file is recognised once
/// (``HARExporter``), so that its known quirks are data, not guesses scattered through the replay.
package struct HARArchive: Sendable {
    /// `log.version` as written ("1.2"; "1.1" when empty or absent, as the format says).
    package var version: String
    /// `log.creator.name`, or an empty string.
    package var creatorName: String
    /// `log.creator.version`, or an empty string.
    package var creatorVersion: String
    /// The tool that wrote the file, recognised from the creator and the entries' own fields.
    package var exporter: HARExporter
    /// The entries, sorted by `startedDateTime` (an entry without a readable start keeps its place
    /// after the dated ones, in file order).
    package var entries: [HAREntry]
    /// `log._carillon`, when carillon wrote the file; nil otherwise (another tool's fields are ignored).
    package var carillon: HARCarillon?
    /// What the reader noticed about the file as a whole (a compressed file), in words for the replay's notes.
    package var notes: [String]
    /// The entries the reader could not read, by their place in the file, and why: none of them is any
    /// line's entry, so they are listed with the entries, never in a line's notes.
    package var setAside: [(index: Int, why: String)] = []

    /// An archive; the reader makes these.
    package init(
        version: String, creatorName: String, creatorVersion: String, exporter: HARExporter, entries: [HAREntry],
        carillon: HARCarillon? = nil, notes: [String] = []
    ) {
        self.version = version
        self.creatorName = creatorName
        self.creatorVersion = creatorVersion
        self.exporter = exporter
        self.entries = entries
        self.carillon = carillon
        self.notes = notes
    }

    /// "name version" of the creator, as the replay object shows it.
    package var creator: String {
        [creatorName, creatorVersion].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The entry whose position in the file is `index` (from 0), if it was read.
    package func entry(atFileIndex index: Int) -> HAREntry? {
        entries.first { $0.index == index }
    }
}
