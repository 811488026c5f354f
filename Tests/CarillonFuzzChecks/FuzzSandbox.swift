@_spi(Tooling) import CarillonExtensionCore

/// The directory `FuzzArguments`' runs of the tool keep their files in, and what a sandboxed command line
/// (``FuzzChecks/sandboxed(_:in:table:)``) can name in it: two payload files (`payload.json`,
/// `not-object.json`), a payload directory (`payloads/`: one payload, one broken file) and a receipt
/// container with one receipt (`container/`); the other names (`queue`, `new/nested`, `missing.*`) are
/// left for the tool to make or miss.
///
/// An entry is made the first time a run names it, and kept for the next runs while they leave it as it
/// was made: after each run every path of it is looked at again (`lstat`: the same inode, size, mode and
/// times; a directory's times change when anything in it is added or removed), and an entry a run changed
/// is removed, as is anything else a run made. Each run so starts from what a fresh sandbox would hold,
/// but the file system makes the files once rather than for every run: on ext4 under churn, making a file
/// or a directory cost about a millisecond, a sampled run's own work a tenth of that.
public final class FuzzSandbox {
    /// The sandbox directory (made with the first entry).
    public let root: String
    /// The entries made and still as made: each one's paths' fingerprints, in the order made.
    private var kept: [String: [Fingerprint?]] = [:]

    /// A sandbox at `root`, by default a new name in the scratch directory.
    public init(root: String = FuzzScratch.path(FuzzScratch.uniqueName("args"))) {
        self.root = root
    }

    /// What an entry holds, in the order it is made: paths relative to the root, with a file's bytes or
    /// nil for a directory.
    static let entries: [String: [(path: String, bytes: [UInt8]?)]] = {
        let id = DeliveryID("01937b21-0000-7000-8000-000000000002")!
        let receipt = Receipt(deliveryID: id, receivedAt: Timestamp(millisecondsSinceEpoch: 1_787_217_404_120))
        let receipts = "container/" + ReceiptStore.directoryName
        return [
            "payload.json": [("payload.json", FuzzChecks.sandboxPayload)],
            "not-object.json": [("not-object.json", Array("[1]".utf8))],
            "payloads": [
                ("payloads", nil), ("payloads/a.json", FuzzChecks.sandboxPayload), ("payloads/b.json", Array("{\"aps\":".utf8)),
            ],
            "container": [("container", nil), (receipts, nil), (receipts + "/" + receipt.fileName, receipt.encoded())],
        ]
    }()

    /// Makes the entries `arguments` (already sandboxed) name that the sandbox does not hold. Returns
    /// whether they name anything in it (the caller then calls ``reset()`` after the run).
    @discardableResult
    public func prepare(for arguments: [String]) -> Bool {
        var named: Set<String> = []
        let prefix = root + "/"
        for argument in arguments {
            guard let start = argument.range(of: prefix) else { continue }
            named.insert(String(argument[start.upperBound...].prefix { $0 != "/" }))
        }
        guard !named.isEmpty else { return false }
        if kept.isEmpty { mkdir(root, 0o700) }
        for name in named.sorted() where kept[name] == nil {
            guard let paths = Self.entries[name] else { continue }
            for (path, bytes) in paths {
                if let bytes { _ = FuzzScratch.writeFile(bytes, to: prefix + path) } else { mkdir(prefix + path, 0o700) }
            }
            kept[name] = fingerprints(paths.map(\.path))
        }
        return true
    }

    /// After a run: removes what the run made, and each entry it changed; keeps the entries it left as
    /// they were. Should anything stay that cannot be removed, the whole sandbox is moved aside and the
    /// next run starts from nothing.
    public func reset() {
        var removed = false
        for name in Self.names(root) {
            if let prints = kept[name], let paths = Self.entries[name], fingerprints(paths.map(\.path)) == prints { continue }
            FuzzScratch.remove(root + "/" + name)
            kept[name] = nil
            removed = true
        }
        if removed && !Set(Self.names(root)).isSubset(of: kept.keys) {
            rename(root, FuzzScratch.path(FuzzScratch.uniqueName("stuck")))
            kept = [:]
        }
    }

    /// What `lstat` says of a path that would change with its contents: nil for a path that is gone.
    struct Fingerprint: Equatable {
        var inode: UInt64
        var size: Int64
        var mode: UInt32
        var links: UInt64
        var modified: Int64
        var changed: Int64
    }

    private func fingerprints(_ paths: [String]) -> [Fingerprint?] {
        paths.map { path in
            var status = stat()
            guard lstat(root + "/" + path, &status) == 0 else { return nil }
            return Fingerprint(
                inode: UInt64(status.st_ino), size: Int64(status.st_size), mode: UInt32(status.st_mode), links: UInt64(status.st_nlink),
                modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
                changed: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec))
        }
    }

    /// The names in directory `path` (none when it cannot be read).
    static func names(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
