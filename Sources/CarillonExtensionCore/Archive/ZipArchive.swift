/// A zip archive (an .ipa, a zip of an .app or an .xcarchive) read by hand from a ``ZipSource``: the end
/// of central directory record (and ZIP64's locator and record), then the whole central directory,
/// walked with every length checked. The archive is judged whole when it is opened — a name that is
/// absolute or climbs out (`..`), a count, size or ratio past ``ZipLimits``, members that overlap, a
/// truncated directory — before any member is read; members are then read one at a time, and only
/// those asked for (``contents(of:maximumBytes:)``, ``ranges(of:_:)``).
package struct ZipArchive {
    let source: any ZipSource
    package let limits: ZipLimits
    /// Every member, in central-directory order.
    package let entries: [ZipEntry]
    /// Where the central directory starts: no member's data may reach it.
    let directoryOffset: Int

    static let endSignature: UInt32 = 0x0605_4B50
    static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    static let zip64EndSignature: UInt32 = 0x0606_4B50
    static let directorySignature: UInt32 = 0x0201_4B50
    static let localSignature: UInt32 = 0x0403_4B50

    /// Opens and checks the archive `source` holds.
    ///
    /// - Throws: ``ZipError`` naming the member at fault, or the archive's problem.
    package init(_ source: any ZipSource, limits: ZipLimits = .standard) throws(ZipError) {
        self.source = source
        self.limits = limits
        let end = try Self.endRecord(source)
        guard end.entries <= limits.maximumEntries else {
            throw ZipError("\(end.entries) members, more than the \(limits.maximumEntries) read")
        }
        guard end.directorySize <= limits.maximumDirectoryBytes else {
            throw ZipError("a central directory of \(end.directorySize) bytes, more than the \(limits.maximumDirectoryBytes) read")
        }
        guard end.directoryOffset <= end.directoryEnd, end.directorySize <= end.directoryEnd - end.directoryOffset else {
            throw ZipError(
                "the central directory (\(end.directorySize) bytes at \(end.directoryOffset)) runs past its end record at \(end.directoryEnd): the file is truncated or not a zip"
            )
        }
        let directory = try source.bytes(at: end.directoryOffset, count: end.directorySize)
        guard directory.count == end.directorySize else { throw ZipError("the central directory is cut short: the file is truncated") }
        directoryOffset = end.directoryOffset
        entries = try Self.walk(directory, count: end.entries, limits: limits, dataEnd: end.directoryOffset)
        try Self.checkLayout(entries)
    }

    /// The member named `name` exactly; nil when there is none.
    package func entry(named name: String) -> ZipEntry? { entries.first { $0.name == name } }

    /// What the end of central directory record (ZIP64's where needed) says.
    struct EndRecord {
        var entries: Int
        var directorySize: Int
        var directoryOffset: Int
        /// Where the central directory must end: the (ZIP64) end record's start.
        var directoryEnd: Int
    }

    /// The last end of central directory record in the file's final 64 KiB + 22 bytes whose comment fits,
    /// and ZIP64's record where its fields overflow.
    static func endRecord(_ source: any ZipSource) throws(ZipError) -> EndRecord {
        let size = source.byteCount
        guard size >= 22 else { throw ZipError("\(size) bytes: too short for a zip archive") }
        let tailStart = max(0, size - (22 + 0xFFFF))
        let tail = try source.bytes(at: tailStart, count: size - tailStart)
        guard tail.count == size - tailStart else { throw ZipError("the file could not be read to its end") }
        var position = tail.count - 22
        while position >= 0 {
            let record = ZipRecord(tail, at: position)
            if record.u32(0) == endSignature, position + 22 + Int(record.u16(20)) <= tail.count {
                return try endRecord(record, at: tailStart + position, source)
            }
            position -= 1
        }
        throw ZipError("no end of central directory record: not a zip archive, or truncated")
    }

    private static func endRecord(_ record: ZipRecord, at offset: Int, _ source: any ZipSource) throws(ZipError) -> EndRecord {
        guard record.u16(4) == 0, record.u16(6) == 0, record.u16(8) == record.u16(10) else {
            throw ZipError("an archive split over several disks")
        }
        let entries = record.u16(10)
        let directorySize = record.u32(12)
        let directoryOffset = record.u32(16)
        guard entries == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF else {
            return EndRecord(
                entries: Int(entries), directorySize: Int(directorySize), directoryOffset: Int(directoryOffset), directoryEnd: offset)
        }
        guard offset >= 20 + 56 else { throw ZipError("a ZIP64 archive without its locator") }
        let locator = ZipRecord(try source.bytes(at: offset - 20, count: 20))
        guard locator.has(20), locator.u32(0) == zip64LocatorSignature else { throw ZipError("a ZIP64 archive without its locator") }
        guard locator.u32(4) == 0, locator.u32(16) <= 1 else { throw ZipError("an archive split over several disks") }
        let recordOffset = locator.u64(8)
        guard recordOffset <= UInt64(offset - 20 - 56) else {
            throw ZipError("the ZIP64 end record's offset \(recordOffset) is not before its locator")
        }
        let zip64 = ZipRecord(try source.bytes(at: Int(recordOffset), count: 56))
        guard zip64.has(56), zip64.u32(0) == zip64EndSignature else { throw ZipError("no ZIP64 end record where its locator points") }
        guard zip64.u32(16) == 0, zip64.u32(20) == 0, zip64.u64(24) == zip64.u64(32) else {
            throw ZipError("an archive split over several disks")
        }
        let count = zip64.u64(32)
        let size64 = zip64.u64(40)
        let offset64 = zip64.u64(48)
        guard count <= UInt64(Int32.max), size64 <= UInt64(Int.max / 2), offset64 <= UInt64(Int.max / 2) else {
            throw ZipError("a ZIP64 end record with impossible counts or sizes")
        }
        return EndRecord(entries: Int(count), directorySize: Int(size64), directoryOffset: Int(offset64), directoryEnd: Int(recordOffset))
    }
}
