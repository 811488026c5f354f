#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The extension's side of the shared container (the App Group stand-in): writes receipts.
///
/// Layout inside the container:
///
///     <container>/CarillonReceipts/                 0700
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
///   final name and the directory fsynced, so a crash leaves no receipt or a whole one;
/// - first wins: `link` never replaces, so a second receipt for a delivery id is a duplicate;
/// - bounded: at most ``capacity`` pending receipts; the count and the publish happen under an
///   exclusive `flock`, so racing writers cannot overshoot. When full, the *new* receipt is dropped:
///   the pending ones are older and still await the app's drain.
public struct ReceiptStore: Sendable {
    /// The most pending receipts the container holds.
    public static let capacity = 1000
    /// The receipts directory's name inside the container.
    public static let directoryName = "CarillonReceipts"
    /// The set-aside directory's name inside the receipts directory.
    public static let quarantineName = "Quarantine"
    /// The lock file's name inside the receipts directory.
    public static let lockName = ".lock"

    /// The shared container.
    public let container: String
    /// `<container>/CarillonReceipts`.
    public let directory: String

    public init(container: String) {
        self.container = container
        directory = FileSystem.join(container, ReceiptStore.directoryName)
    }

    /// `<container>/CarillonReceipts/Quarantine`.
    public var quarantineDirectory: String { FileSystem.join(directory, ReceiptStore.quarantineName) }

    /// Where the receipt for `id` lives while pending.
    public func path(for id: DeliveryID) -> String { FileSystem.join(directory, Receipt.fileName(for: id)) }

    /// Stores the receipt for `id` unless one is already pending or the container is full.
    ///
    /// Never throws: a receipt that cannot be written is reported in the result, and the caller goes on
    /// with the image. Cost: a lock, one directory listing (names only, no file is read) and one
    /// durable publish.
    public func record(_ id: DeliveryID, receivedAt: Timestamp) -> ReceiptResult {
        let receipt = Receipt(deliveryID: id, receivedAt: receivedAt)
        let path = path(for: id)
        do {
            try FileSystem.makeDirectory(directory)
            return try FileSystem.withExclusiveLock(FileSystem.join(directory, ReceiptStore.lockName)) {
                () throws(FileSystemError) -> ReceiptResult in
                // Checked before the capacity, so a repeat of a pending receipt is a duplicate even when full.
                if FileSystem.exists(path) { return .duplicate }
                let pending = try ReceiptStore.countPendingReceipts(in: directory)
                if pending >= ReceiptStore.capacity {
                    return .dropped(
                        "container already holds \(pending) pending receipts; receipt for \(id) dropped "
                            + "(the app has not drained them yet)")
                }
                switch try FileSystem.publishAtomically(receipt.encoded(), to: path, mode: 0o600) {
                case .published: return .stored
                case .alreadyExists: return .duplicate
                }
            }
        } catch {
            return .failed("cannot store the receipt for \(id): \(error)")
        }
    }

    /// How many receipts are pending (names ending in `.receipt`; nothing is read).
    ///
    /// - Throws: ``FileSystemError`` when the directory cannot be listed (none yet counts as zero).
    public func pendingCount() throws(FileSystemError) -> Int {
        guard FileSystem.isDirectory(directory) else { return 0 }
        return try ReceiptStore.countPendingReceipts(in: directory)
    }

    /// Counts `*.receipt` names with `readdir`, comparing C strings: this is on the per-payload path, so
    /// it neither sorts nor makes a `String` per entry.
    static func countPendingReceipts(in directory: String) throws(FileSystemError) -> Int {
        guard let stream = opendir(directory) else { throw FileSystemError("read directory", directory, errno: errno) }
        defer { closedir(stream) }
        let suffix = Array(Receipt.fileExtension.utf8)
        var count = 0
        while let entry = readdir(stream) {
            let matches = withUnsafePointer(to: entry.pointee.d_name) { name in
                name.withMemoryRebound(to: UInt8.self, capacity: Int(NAME_MAX) + 1) { bytes in
                    let length = strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))
                    guard length > suffix.count, bytes[0] != UInt8(ascii: ".") else { return false }
                    return memcmp(bytes + (length - suffix.count), suffix, suffix.count) == 0
                }
            }
            if matches { count += 1 }
        }
        return count
    }
}

/// What became of a receipt the extension tried to store.
public enum ReceiptResult: Sendable, Equatable {
    /// Written, durably.
    case stored
    /// A receipt for this delivery id was already pending; the first one is kept.
    case duplicate
    /// Not written because the container is full; the text says so.
    case dropped(String)
    /// Not written because of a file-system error; the text names it.
    case failed(String)

    /// The `receipt` value of the CLI's output: `stored`, `duplicate` or `failed` (a dropped receipt was
    /// not stored, so it reports as failed, with ``warning`` saying why).
    public var code: String {
        switch self {
        case .stored: return "stored"
        case .duplicate: return "duplicate"
        case .dropped, .failed: return "failed"
        }
    }

    /// What to add to the outcome's warnings, if anything.
    public var warning: String? {
        switch self {
        case .stored, .duplicate: return nil
        case .dropped(let message), .failed(let message): return message
        }
    }
}
