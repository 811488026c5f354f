@_spi(Tooling) import CarillonExtensionCore

/// The attachments directories of runs that were killed before they could remove their own (SIGKILL, a
/// machine that went down): a run without `--attachments` keeps its images in
/// `$TMPDIR/carillon-nse-run-<pid>-…` and removes it when it ends, so a directory whose process no longer
/// exists is one nobody will remove. The next run removes it, as the stores' stale files are swept, so
/// nothing accumulates.
///
/// Only what a run puts there goes (its images and partial downloads, then the directory if that
/// empties it: ``AttachmentStore/removeRunDirectory(_:)``). A process that exists, or that this one may
/// not signal, keeps its directory; a run in another PID namespace sharing `$TMPDIR` is not told apart.
enum AbandonedRunDirectories {
    /// What every run directory's name starts with.
    static let prefix = "carillon-nse-run-"

    /// The process id a run directory's name carries (`carillon-nse-run-<pid>-…`), or nil for a name
    /// that is not one.
    static func processID(ofName name: String) -> Int32? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), let process = Int32(rest[..<dash]), process > 0 else { return nil }
        return process
    }

    /// Removes, in `parent`, the run directories whose process is gone; this process's are left.
    static func sweep(in parent: String) {
        guard let entries = try? DirectoryListing.entries(parent, followLink: false) else { return }
        let own = system_getpid()
        for entry in entries where entry.kind == nil || entry.kind == .directory {
            guard let process = processID(ofName: entry.name), process != own, !exists(process) else { continue }
            AttachmentStore.removeRunDirectory(FileSystem.join(parent, entry.name))
        }
    }

    /// Whether process `process` exists (`kill(pid, 0)`: EPERM means it does, as another user's).
    private static func exists(_ process: Int32) -> Bool {
        system_kill(process, 0) == 0 || system_errno == _EPERM
    }
}
