@_spi(Tooling) import CarillonExtensionCore

/// Where `--report` writes: checked before any payload runs (a missing directory is a usage error),
/// then written once the run is over, durably and atomically (a reader never sees half a page).
enum ReportFile {
    /// Why `path` cannot take a report, or nil: its directory must exist, and it must not be one.
    static func problem(_ path: String) -> String? {
        let directory = FileSystem.parentDirectory(of: path)
        if !FileSystem.isDirectory(directory) {
            let shown = Quoting.display(directory)
            return FileSystem.exists(directory) ? "'\(shown)' is not a directory" : "directory '\(shown)' does not exist"
        }
        if FileSystem.isDirectory(path) { return "is a directory" }
        return nil
    }

    /// Attachments larger than this are not embedded (their card says so): base64 makes a 10 MiB image
    /// 14 MB of page, and a report is for looking at many notifications at once.
    static let maximumEmbeddedImageBytes = 2 * 1_048_576

    /// Renders and writes the page: staged under a temporary name in the same directory, fsynced,
    /// renamed over any older report, the directory fsynced. Mode 0644: a page for people to open.
    /// Returns the page's size in bytes.
    /// `readImage` gives an attachment's bytes (``readAttachment(_:)`` by default).
    @discardableResult
    static func write(
        _ report: HTMLReport, groups: ReportGroups, outcomes: [(reason: Reason, elapsedMilliseconds: Double)], to path: String,
        readImage: (ReportEntry.Attachment) -> [UInt8]? = readAttachment
    ) throws(FileSystemError) -> Int {
        let page = report.render(groups, outcomes: outcomes, readImage: readImage)
        let bytes = Array(page.utf8)
        _ = try FileSystem.publishAtomically(bytes, to: path, mode: 0o644, replace: true)
        return bytes.count
    }

    /// An attachment's bytes, or nil when it is over ``maximumEmbeddedImageBytes`` or unreadable.
    static func readAttachment(_ attachment: ReportEntry.Attachment) -> [UInt8]? {
        // Attachments are the tool's own files, bounded by --max-bytes when they were downloaded.
        guard let size = FileSystem.size(attachment.path), size <= maximumEmbeddedImageBytes else { return nil }
        return try? FileSystem.readFile(attachment.path, limit: maximumEmbeddedImageBytes, policy: .regularFileNoFollow)
    }

    /// ``write(_:groups:outcomes:to:readImage:)``, then where, how large and how fast on stderr, or why
    /// not; false when it could not be written.
    static func write(
        _ report: HTMLReport, groups: ReportGroups, outcomes: [(reason: Reason, elapsedMilliseconds: Double)], to path: String,
        io: ToolIO, readImage: (ReportEntry.Attachment) -> [UInt8]? = readAttachment
    ) -> Bool {
        let started = ContinuousClock.now
        do throws(FileSystemError) {
            let bytes = try write(report, groups: groups, outcomes: outcomes, to: path, readImage: readImage)
            let milliseconds = (ContinuousClock.now - started).inMilliseconds
            let payloads = groups.payloads
            io.standardError.line(
                "\(CarillonTool.name): report: \(Quoting.display(path)) (\(payloads) payload\(payloads == 1 ? "" : "s"), \(bytes) bytes,"
                    + " written in \(ResultLine.milliseconds(milliseconds)) ms)")
            return true
        } catch {
            io.standardError.line("\(CarillonTool.name): cannot write report '\(Quoting.display(path))': \(error.description)")
            return false
        }
    }
}
