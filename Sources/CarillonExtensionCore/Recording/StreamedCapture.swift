/// Bytes captured as they arrive, never held in memory, with their count and SHA-256 (``BodyDigest``):
/// one body of a recording, decoded or as received, staged in a directory under a temporary name.
///
/// The bytes are written once. While every piece heard is one the download's sink took and appended
/// to its own file (`sinkFile`: the attachment being downloaded), the capture writes nothing and
/// ``finish()`` stages a hard link to that file. From the first piece the sink did not take (the one
/// past the cap, a redirect's body, a write that failed) the capture has a file of its own, which
/// starts with the sink file's bytes so far. Without a sink file it writes its own from the start,
/// created on the first write, or by ``finish()`` when nothing came.
///
/// A recording is evidence, not a receipt: its files are never fsynced (SPEC §7), only published
/// whole under their final names. A file that cannot be created, written or linked is given up
/// (``failure`` says why); the count and digest go on.
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
    /// The file the sink appends each piece it takes to, while it holds every byte heard.
    private var sinkFile: String?
    private var file: (descriptor: Int32, staged: FileSystem.StagedFile)?
    private let digest = BodyDigest()
    private(set) var bytes = 0
    private(set) var failure: String?

    /// A capture staging its file in `directory` (which exists); `sinkFile`, when given, is the
    /// (empty) file the download's sink appends each piece it takes to.
    init(directory: String, sinkFile: String? = nil) {
        self.directory = directory
        self.sinkFile = sinkFile
    }

    deinit { discard() }

    /// The file that holds every byte taken so far, from its first: the sink's, or this capture's own.
    private var backingPath: String? {
        sinkFile ?? (failure == nil ? file?.staged.temporaryPath : nil)
    }

    /// Adds `piece`: `taken` says whether the sink took it (and so appended it to the sink file).
    func write(_ piece: UnsafeRawBufferPointer, taken: Bool = false) {
        let before = bytes
        bytes += piece.count
        if sinkFile != nil {
            if taken {
                digest.add(piece, total: bytes, file: sinkFile)
                return
            }
            leaveSinkFile(keeping: before)
        }
        if failure == nil, open(), let (descriptor, staged) = file {
            do throws(FileSystemError) {
                try FileSystem.writeAll(descriptor, piece, path: staged.temporaryPath)
            } catch {
                give(up: error.reason)
            }
        }
        digest.add(piece, total: bytes, file: backingPath)
    }

    /// Writes the first `count` bytes this capture has taken into `other`, read back from the file
    /// that holds them (the pages just written, in the page cache). When they cannot be read (this
    /// capture gave its file up), `other` gives up too, saying why.
    func copy(first count: Int, into other: StreamedCapture) {
        guard count > 0 else { return }
        guard let path = backingPath else {
            other.give(up: "the decoded body it starts with was not kept: \(failure ?? "no file")")
            return
        }
        var left = count
        do throws(FileSystemError) {
            try FileSystem.readChunks(ofRegularFile: path) { chunk in
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

    /// The file, closed (not synced: see above) or linked, and what it holds. The capture is over: a
    /// later write is lost.
    func finish() -> Captured {
        var staged: FileSystem.StagedFile?
        if let sink = sinkFile {
            sinkFile = nil
            do throws(FileSystemError) {
                guard FileSystem.size(sink) == bytes else {
                    throw FileSystemError("link", sink, errno: 0, explanation: "its size is not the bytes taken")
                }
                staged = try FileSystem.stageLink(of: sink, in: directory)
            } catch {
                // Another file system, or one without links: the bytes are copied once, now.
                sinkFile = sink
                leaveSinkFile(keeping: bytes)
            }
        }
        if staged == nil {
            _ = failure == nil && open()
            if let (descriptor, file) = file {
                self.file = nil
                FileSystem.closeDescriptor(descriptor)
                staged = file
            }
        }
        guard let sha256 = digest.finish() else {
            staged?.discard()
            let reason = digest.failure.map { "its SHA-256 could not be computed: \($0.reason)" } ?? "its SHA-256 was already taken"
            return Captured(staged: nil, failure: reason, bytes: bytes, sha256: "")
        }
        return Captured(staged: staged, failure: staged == nil ? (failure ?? "not captured") : nil, bytes: bytes, sha256: sha256)
    }

    /// Removes this capture's own file, if any (a capture no longer wanted); the sink's file is not its.
    func discard() {
        sinkFile = nil
        guard let (descriptor, staged) = file else { return }
        file = nil
        FileSystem.closeDescriptor(descriptor)
        staged.discard()
    }

    /// From now on the capture writes its own file, starting with the sink file's first `count` bytes.
    private func leaveSinkFile(keeping count: Int) {
        guard let sink = sinkFile else { return }
        sinkFile = nil
        guard open(), let (descriptor, staged) = file else { return }
        var left = count
        do throws(FileSystemError) {
            if left > 0 {
                try FileSystem.readChunks(ofRegularFile: sink) { (chunk) throws(FileSystemError) -> Bool in
                    let part = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(chunk)[..<min(left, chunk.count)])
                    try FileSystem.writeAll(descriptor, part, path: staged.temporaryPath)
                    left -= part.count
                    return left > 0
                }
            }
            if left > 0 { give(up: "the download's file is shorter than the \(count) bytes it took") }
        } catch {
            give(up: error.reason)
        }
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
        guard let (descriptor, staged) = file else { return }
        file = nil
        FileSystem.closeDescriptor(descriptor)
        staged.discard()
    }
}
