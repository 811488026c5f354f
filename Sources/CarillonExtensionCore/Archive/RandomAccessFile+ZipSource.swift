/// A file read piece by piece is an archive's source: its `pread` failures become the archive's error.
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
