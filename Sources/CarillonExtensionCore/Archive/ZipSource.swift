/// Where a zip archive's bytes come from: a file read piece by piece (``RandomAccessFile``), or bytes
/// in memory (``ZipBytes``: the fuzzer, the tests).
package protocol ZipSource {
    /// The archive's size in bytes.
    var byteCount: Int { get }
    /// The `count` bytes at `offset` (the caller keeps the range within ``byteCount``); fewer only if the
    /// source ended early.
    ///
    /// - Throws: ``ZipError`` when the source cannot be read.
    func bytes(at offset: Int, count: Int) throws(ZipError) -> [UInt8]
}

/// An archive in memory.
package struct ZipBytes: ZipSource {
    package let contents: [UInt8]

    package init(_ contents: [UInt8]) { self.contents = contents }

    package var byteCount: Int { contents.count }

    package func bytes(at offset: Int, count: Int) throws(ZipError) -> [UInt8] {
        guard offset >= 0, count > 0, offset < contents.count else { return [] }
        return Array(contents[offset..<min(contents.count, offset + count)])
    }
}

extension RandomAccessFile: ZipSource {
    package var byteCount: Int { size }

    package func bytes(at offset: Int, count: Int) throws(ZipError) -> [UInt8] {
        do {
            return try read(offset: offset, count: count)
        } catch {
            throw ZipError(error.description)
        }
    }
}
