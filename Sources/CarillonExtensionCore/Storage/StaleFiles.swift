/// Files that a writer leaves behind only when it dies mid-write: temporary record files (`.tmp-*`) and
/// partial downloads (`.download-*.part`). One older than ``maximumAge`` belongs to a process that died
/// between creating and publishing (or removing) it, and is removed.
@_spi(Tooling) public enum StaleFiles {
    /// An hour: far longer than any write or download takes.
    static let maximumAge: Int64 = 3_600_000
    /// A record written but not yet published.
    static let temporaryPrefix = ".tmp-"
    /// An image download in progress.
    static let partialPrefix = ".download-"
    static let partialSuffix = ".part"

    /// Removes the file at `path` if it was last modified more than ``maximumAge`` before `now`.
    ///
    /// - Returns: true when it was removed.
    @discardableResult
    static func removeIfStale(_ path: String, now: Timestamp) -> Bool {
        var info = CStat()
        guard FileName.withCString(path, { system_lstat($0, &info) }) == 0 else { return false }
        // Checked: a modification time set far outside any clock's range must not trap.
        let (milliseconds, overflow) = Int64(info.st_mtim.tv_sec).multipliedReportingOverflow(by: 1000)
        guard !overflow else { return false }
        let (age, ageOverflow) = now.millisecondsSinceEpoch.subtractingReportingOverflow(milliseconds)
        guard !ageOverflow, age > maximumAge else { return false }
        return FileName.withCString(path, { system_unlink($0) }) == 0
    }

    /// Removes every stale partial download in an attachments directory (a missing one has none).
    ///
    /// - Returns: the paths removed.
    @discardableResult
    public static func removeStalePartialDownloads(in directory: String, now: Timestamp = .now()) -> [String] {
        guard let entries = try? DirectoryListing.entries(directory) else { return [] }
        var removed: [String] = []
        for entry in entries where entry.name.hasPrefix(partialPrefix) && entry.name.hasSuffix(partialSuffix) {
            let path = FileSystem.join(directory, entry.name)
            if removeIfStale(path, now: now) { removed.append(path) }
        }
        return removed
    }
}
