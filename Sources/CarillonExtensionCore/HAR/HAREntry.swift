/// One HTTP exchange of a HAR file (`log.entries[]`), normalised.
package struct HAREntry: Sendable {
    /// The entry's position in the file's `entries` array, from 0 (what a person counts in the file).
    package var index: Int
    /// `startedDateTime` as written.
    package var startedText: String
    /// `startedDateTime` as an instant (a fraction past milliseconds dropped); nil when unreadable.
    package var started: Timestamp?
    /// The request.
    package var request: HARMessage
    /// The response; nil when the entry has none (a request that never got one, Proxyman's gaps).
    package var response: HARResponse?
    /// The durations of the entry's steps, in milliseconds.
    package var timings: HARTimings
    /// `serverIPAddress`, when a non-empty string.
    package var serverIPAddress: String?
    /// `connection`, when present (a string or a number, kept as text).
    package var connection: String?
    /// The exporter's own words about this entry, from its `_` fields and `comment`s (`_fromCache`,
    /// `_fetchType`, `_error`, `_securityDetails`...): for notes and details, never for a verdict.
    package var hints: HAREntryHints
    /// `_carillon` of the entry, when carillon wrote the file.
    package var carillon: HARCarillon.Entry?

    /// An entry; the reader makes these.
    package init(
        index: Int, startedText: String, started: Timestamp?, request: HARMessage, response: HARResponse?,
        timings: HARTimings = HARTimings(), serverIPAddress: String? = nil, connection: String? = nil,
        hints: HAREntryHints = HAREntryHints(), carillon: HARCarillon.Entry? = nil
    ) {
        self.index = index
        self.startedText = startedText
        self.started = started
        self.request = request
        self.response = response
        self.timings = timings
        self.serverIPAddress = serverIPAddress
        self.connection = connection
        self.hints = hints
        self.carillon = carillon
    }

    /// The response's MIME type, from `content.mimeType` or else its `Content-Type` header, lowercased and
    /// without parameters; nil when neither says.
    package var mimeType: String? {
        guard let response else { return nil }
        let raw = response.content.mimeType.isEmpty ? (response.header("Content-Type") ?? "") : response.content.mimeType
        let bare = raw.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces().lowercased() } ?? ""
        return bare.isEmpty ? nil : bare
    }

    /// Whether the entry is an image's: an `image/` type, or the browser said it loaded an image.
    package var isImage: Bool {
        if let mimeType, mimeType.hasPrefix("image/") { return true }
        if let type = response?.header("Content-Type")?.lowercased(), type.hasPrefix("image/") { return true }
        return hints.resourceType?.lowercased() == "image"
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
