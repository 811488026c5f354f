/// The extension's side of the shared container (the App Group stand-in): writes receipts.
///
/// Layout inside the container (the `.lock`, `.tmp-*` and `Quarantine/` parts are ``RecordDirectory``'s):
///
///     <container>/CarillonReceipts/                 0700  never a symbolic link
///         <delivery-id>.receipt                     0600  one pending receipt (see ``Receipt``)
///         .tmp-<pid>-<n>-<random>                   0600  a write in progress (or left by a crash)
///         .lock                                     0600  empty; flock'ed around count + publish
///         Quarantine/                               0700  files the app's drain set aside
///             <original-name>[.<n>]                       the file, unchanged
///             <original-name>[.<n>].reason                one line: why it was set aside
///
/// Nothing secret is ever written here: no API key, no token, only delivery ids and times.
///
/// Guarantees, also with several extension processes writing while the app drains:
/// - atomic and durable: each receipt is written to a temporary file, fsynced, then `link`ed to its
///   final name and the directory fsynced, so a crash leaves no receipt or a whole one. The receipts a
///   process stores at the same moment share the lock and the directory's fsync (``ReceiptCommitGroup``):
///   none is reported stored before the fsync that follows its link has returned;
/// - first wins: `link` never replaces, so a second receipt for a delivery id is a duplicate;
/// - bounded: at most ``capacity`` pending receipts; the count and the publish happen under an
///   exclusive `flock`, so racing writers cannot overshoot. When full, the *new* receipt is dropped:
///   the pending ones are older and still await the app's drain;
/// - bounded in time: the lock is waited for until a deadline (``FileLock/extensionWait``, or
///   time-will-expire if sooner); a receipt that cannot get it is `failed`, and the image goes on.
@_spi(Tooling) public struct ReceiptStore: Sendable {
    /// The most pending receipts the container holds.
    public static let capacity = 1000
    /// The receipts directory's name inside the container.
    public static let directoryName = "CarillonReceipts"

    /// The shared container.
    public let container: String
    /// `<container>/CarillonReceipts`.
    public let directory: String
    /// The directory's layout: lock, temporaries, quarantine.
    public let records: RecordDirectory

    public init(container: String) {
        self.container = container
        directory = ReceiptStore.directory(inContainer: container)
        records = RecordDirectory(directory)
    }

    /// `<container>/CarillonReceipts`: where the receipts of a container are, for a reader that needs the
    /// path and not a store.
    public static func directory(inContainer container: String) -> String {
        FileSystem.join(container, directoryName)
    }

    /// `<container>/CarillonReceipts/Quarantine`.
    var quarantineDirectory: String { records.quarantineDirectory }

    /// Where the receipt for `id` lives while pending.
    public func path(for id: DeliveryID) -> String { FileSystem.join(directory, Receipt.fileName(for: id)) }

    /// Stores the receipt for `id` unless one is already pending or the container is full, waiting for
    /// the lock until `lockDeadline` at the most.
    ///
    /// Never throws: a receipt that cannot be written is reported in the result, and the caller goes on
    /// with the image.
    public func record(
        _ id: DeliveryID, receivedAt: Timestamp, lockDeadline: ContinuousClock.Instant = .now + FileLock.extensionWait
    ) -> ReceiptStatus {
        recordReporting(id, receivedAt: receivedAt, lockDeadline: lockDeadline).result
    }

    /// ``record(_:receivedAt:lockDeadline:)``, with the warnings for what was put right on the way (a
    /// receipts directory whose mode was wider than 0700). Cost: one fsynced write, then a lock held for
    /// one directory listing (names only, no file is read) and a `link`, then the directory's fsync — the
    /// lock, the listing and the fsync shared with the receipts this process stores at the same moment.
    func recordReporting(
        _ id: DeliveryID, receivedAt: Timestamp, lockDeadline: ContinuousClock.Instant = .now + FileLock.extensionWait
    ) -> (result: ReceiptStatus, warnings: [String]) {
        let receipt = Receipt(deliveryID: id, receivedAt: receivedAt)
        let path = path(for: id)
        var warnings: [String] = []
        do {
            warnings = try records.prepare(create: true)
            // A repeat (iOS redelivers) needs no write at all.
            if let found = try existing(path) { return (found, warnings) }
            // The write and its fsync happen before the lock, so the lock is held only for the check, the
            // count and the link, once for every receipt this process stores at the same moment.
            let staged = try FileSystem.stage(receipt.encoded(), in: directory, mode: 0o600)
            defer { staged.discard() }
            let request = ReceiptCommitGroup.Request(id: id, path: path, staged: staged, lockDeadline: lockDeadline)
            // Durable before the extension goes on: the directory entry is on disk once this returns.
            return (ReceiptCommitGroup.shared(for: self).commit(request), warnings)
        } catch {
            return (.failed("cannot store the receipt for \(id): \(error)"), warnings)
        }
    }

    /// What is already at a receipt's path: nothing (nil), a pending receipt (a duplicate), or something
    /// else under its name — a FIFO, a directory, a link — which the next drain sets aside, so the
    /// receipt is not stored, and said (never taken for a duplicate, which would lose it unsaid).
    func existing(_ path: String) throws(FileSystemError) -> ReceiptStatus? {
        switch try FileSystem.kind(path) {
        case .missing: return nil
        case .regularFile: return .duplicate
        case let other:
            return .failed("cannot store the receipt: \(Quoting.display(path)) is \(other.description), not a receipt")
        }
    }

    /// How many receipts are pending: exactly the entries a drain would read as receipts.
    ///
    /// - Throws: ``FileSystemError`` when the directory cannot be listed (none yet counts as zero).
    func pendingCount() throws(FileSystemError) -> Int {
        guard try records.kind() == .directory else { return 0 }
        return try ReceiptStore.countPendingReceipts(in: directory)
    }

    /// Counts the regular files named `<canonical delivery id>.receipt` with `readdir`, comparing bytes:
    /// this is on the per-payload path, so it neither sorts nor makes a `String` per entry. Anything
    /// else — a FIFO, a name that is not UTF-8, an upper-case id — is set aside by the drain and never
    /// makes an event, so it is not counted: it cannot fill the container for good.
    static func countPendingReceipts(in directory: String) throws(FileSystemError) -> Int {
        var count = 0
        var unknown: [String] = []
        try DirectoryListing.forEachEntry(directory, followLink: false) { name, type in
            guard isReceiptFileName(name) else { return }
            switch DirectoryListing.kind(ofDirectoryEntryType: type) {
            case .regularFile?: count += 1
            case nil: unknown.append(String(decoding: name, as: UTF8.self))  // the file system does not say: ask
            default: break
            }
        }
        for name in unknown where (try? FileSystem.kind(FileSystem.join(directory, name))) == .regularFile { count += 1 }
        return count
    }

    /// Whether `name` is `<lower-case canonical UUID>.receipt`, the only name a receipt is written under.
    /// A plain loop over bytes: it runs for every entry of a full container on every payload.
    static func isReceiptFileName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == 44 else { return false }
        for index in 0..<36 {
            let byte = name[index]
            if index == 8 || index == 13 || index == 18 || index == 23 {
                if byte != 0x2D { return false }  // "-"
            } else if !((byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)) {  // 0-9, a-f
                return false
            }
        }
        return FileName.bytes(name, from: 36, equal: receiptSuffix)
    }

    private static let receiptSuffix: [UInt8] = Array(Receipt.fileExtension.utf8)
}
