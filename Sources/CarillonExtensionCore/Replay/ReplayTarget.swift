/// What a replay of one capture is asked about: the payload the device received, an image URL, an
/// entry by its place in the file, or, with none of them, what the capture itself says (a carillon
/// recording's own payload, or every distinct image URL of another exporter's file).
package enum ReplayTarget: Sendable {
    /// The payload, routed as a live run routes it: one that is not routed or names no image is its
    /// own line, with no entry looked for.
    case payload(Payload)
    /// The image of the payload Carillon's server sends (an alert, `mutable-content` 1, this image).
    case url(String)
    /// Entry `index` of the file (from 0, in file order), as the image of such a payload.
    case entry(Int)
    /// The recording's own payload, or every distinct image URL.
    case capture
}

/// One notification a replay runs: its name on the line, the payload, and the URL looked for in the
/// capture (nil when the payload names none the extension would fetch).
package struct ReplayImage: Sendable {
    package var name: String
    package var payload: Payload
    package var url: String?
}

/// Why a replay of one capture, or one of its images, could not be made: said once, naming the file.
package enum ReplayProblem: Error, Sendable, Equatable {
    /// The file has no entry at this place (it has `count`).
    case noEntry(index: Int, count: Int)
    /// Nothing in the file is an image (by type, or as the browser loaded it).
    case noImageEntry
    /// No entry answered this URL; the nearest on the same host and path, if any.
    case noEntryForURL(String, nearest: [HAREntry])

    package static func == (left: ReplayProblem, right: ReplayProblem) -> Bool {
        switch (left, right) {
        case (.noEntry(let a, let b), .noEntry(let c, let d)): a == c && b == d
        case (.noImageEntry, .noImageEntry): true
        case (.noEntryForURL(let a, let b), .noEntryForURL(let c, let d)): a == c && b.map(\.index) == d.map(\.index)
        default: false
        }
    }
}
