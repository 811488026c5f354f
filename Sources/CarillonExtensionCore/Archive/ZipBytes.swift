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
