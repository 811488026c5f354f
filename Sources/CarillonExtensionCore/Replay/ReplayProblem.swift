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
