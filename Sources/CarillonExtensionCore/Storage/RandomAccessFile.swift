/// A regular file opened for reading at any offset (`pread(2)`), for a reader that takes a few pieces of
/// a large file (an archive's directory, a member's bytes) and never the whole of it. It owns its
/// descriptor and closes it when released.
package final class RandomAccessFile {
    private let descriptor: Int32
    /// The path, as given (for messages).
    package let path: String
    /// The file's size when it was opened.
    package let size: Int

    /// Opens `path`, which must be a regular file (through links, as a path a person named).
    ///
    /// - Throws: ``FileSystemError`` when it cannot be opened or is not a regular file.
    package init(_ path: String) throws(FileSystemError) {
        let (descriptor, info) = try FileSystem.openForReading(path, policy: .regularFile)
        self.descriptor = descriptor
        self.path = path
        size = Int(info.st_size)
    }

    deinit { system_close(descriptor) }

    /// The `count` bytes at `offset`: fewer only where the file ends (it shrank since it was opened).
    ///
    /// - Throws: ``FileSystemError`` when `pread` fails.
    package func read(offset: Int, count: Int) throws(FileSystemError) -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        var failure: FileSystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(FileSystemError) {
                initialized = try read(into: UnsafeMutableRawBufferPointer(buffer), offset: offset)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Fills `buffer` with the bytes at `offset` (`pread(2)`, retrying interruptions and short reads)
    /// and returns how many it filled: fewer only where the file ends. For a reader that reads many
    /// pieces into one buffer of its own (a recording's digest follows a file as it grows).
    ///
    /// - Throws: ``FileSystemError`` when `pread` fails.
    package func read(into buffer: UnsafeMutableRawBufferPointer, offset: Int) throws(FileSystemError) -> Int {
        guard let base = buffer.baseAddress, offset >= 0 else { return 0 }
        var done = 0
        while done < buffer.count {
            let got = SystemCall.retryingInterrupts { system_pread(descriptor, base + done, buffer.count - done, COffT(offset + done)) }
            if got < 0 { throw .last("read", path) }
            if got == 0 { break }
            done += got
        }
        return done
    }
}
