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
