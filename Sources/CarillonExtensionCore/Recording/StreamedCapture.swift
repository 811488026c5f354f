/// Bytes streamed, as they arrive, to a file staged in a directory (never held in memory), with their
/// count and SHA-256: one body of a recording, decoded or as received.
///
/// The file is created on the first write, or by ``finish()`` when nothing came. A file that cannot be
/// created or written is given up (``failure`` says why); the count and digest go on.
final class StreamedCapture {
    /// What was captured: the staged file (under a temporary name, for the caller to publish or
    /// discard), or why there is none; the bytes' count and SHA-256.
    struct Captured: Sendable {
        var staged: FileSystem.StagedFile?
        var failure: String?
        var bytes: Int
        var sha256: String
    }

    private let directory: String
    private var file: (descriptor: Int32, staged: FileSystem.StagedFile)?
    private var digest: SHA256? = SHA256()
    private(set) var bytes = 0
    private(set) var failure: String?

    /// A capture staging its file in `directory` (which exists).
    init(directory: String) {
        self.directory = directory
    }

    deinit { discard() }

    /// Appends `piece` to the file, the count and the digest; the file's writeback starts at every whole
    /// mebibyte (``FileSystem/writeStaging(_:_:path:after:)``), so that ``finish()``'s fsync waits for the
    /// last one only.
    func write(_ piece: UnsafeRawBufferPointer) {
        let before = bytes
        bytes += piece.count
        digest?.update(piece)
        guard failure == nil, open() else { return }
        guard let (descriptor, staged) = file else { return }
        do throws(FileSystemError) {
            try FileSystem.writeStaging(descriptor, piece, path: staged.temporaryPath, after: before)
        } catch {
            give(up: error.reason)
        }
    }

    /// Writes the first `count` bytes this capture has taken into `other`, read back from this
    /// capture's file (the pages just written, in the page cache). When they cannot be read (this
    /// capture gave its file up), `other` gives up too, saying why.
    func copy(first count: Int, into other: StreamedCapture) {
        guard count > 0 else { return }
        guard failure == nil, let (_, staged) = file else {
            other.give(up: "the decoded body it starts with was not kept: \(failure ?? "no file")")
            return
        }
        var left = count
        do throws(FileSystemError) {
            try FileSystem.readChunks(ofRegularFile: staged.temporaryPath) { chunk in
                let part = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(chunk)[..<min(left, chunk.count)])
                other.write(part)
                left -= part.count
                return left > 0
            }
            if left > 0 { other.give(up: "the decoded body's file is shorter than the \(count) bytes it took") }
        } catch {
            other.give(up: error.reason)
        }
    }

    /// The file, synced and closed, and what it holds. The capture is over: a later write is lost.
    func finish() -> Captured {
        _ = failure == nil && open()
        var staged: FileSystem.StagedFile?
        if let (descriptor, file) = file {
            self.file = nil
            do throws(FileSystemError) {
                try FileSystem.finishStaging(descriptor, path: file.temporaryPath)
                staged = file
            } catch {
                file.discard()
                failure = error.reason
            }
        }
        let sha256 = digest.take()?.hex() ?? ""
        return Captured(staged: staged, failure: staged == nil ? (failure ?? "not captured") : nil, bytes: bytes, sha256: sha256)
    }

    /// Removes the file, if any (a capture no longer wanted).
    func discard() {
        guard let (descriptor, staged) = file else { return }
        file = nil
        FileSystem.closeDescriptor(descriptor)
        staged.discard()
    }

    /// Makes the file on first use; false when it cannot be made.
    private func open() -> Bool {
        guard file == nil else { return true }
        do throws(FileSystemError) {
            file = try FileSystem.beginStaging(in: directory)
            return true
        } catch {
            failure = "the file could not be created in \(Quoting.display(directory)): \(error.reason)"
            return false
        }
    }

    fileprivate func give(up reason: String) {
        failure = reason
        discard()
    }
}
