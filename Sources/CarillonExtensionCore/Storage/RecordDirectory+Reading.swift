/// What reading one record file of a ``RecordDirectory`` gave (``RecordDirectory/readRecord(_:maximumBytes:decode:)``).
enum RecordRead<Record> {
    /// The file's bytes, as the decoder read them.
    case record(Record)
    /// Removed meanwhile (by another process's drain, set-aside or removal).
    case gone
    /// Not read this time for a reason that may pass (out of descriptors or memory, an I/O error):
    /// never a reason to set the file aside, nor to take it as absent.
    case unreadable(FileSystemError)
    /// Not a record, for good: larger than its kind may be, not a regular file, or bytes the decoder
    /// refused. Why, in words fit for a `.reason` line; the owner decides what the file becomes.
    case damaged(String)
}

extension RecordDirectory {
    /// The one rule for reading a record file of this directory (a receipt, a queue file of either
    /// format): a regular file, never through a link and never blocking (a FIFO or a link swapped in
    /// after a listing is refused on the descriptor), at most `maximumBytes` (checked before anything
    /// is read), then decoded.
    func readRecord<Record>(
        _ name: String, maximumBytes: Int, decode: ([UInt8]) throws(RecordError) -> Record
    ) -> RecordRead<Record> {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path(of: name), limit: maximumBytes, policy: .regularFileNoFollow)
        } catch {
            switch error.errno {
            case _ENOENT: return .gone
            case _EFBIG: return .damaged("larger than \(maximumBytes) bytes")
            case _ where error.mayPass: return .unreadable(error)
            default: return .damaged("cannot read: \(error.reason)")
            }
        }
        do {
            return .record(try decode(bytes))
        } catch {
            return .damaged(error.message)
        }
    }
}
