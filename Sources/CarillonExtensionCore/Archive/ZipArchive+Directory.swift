extension ZipArchive {
    /// The central directory's `count` headers, each checked: its lengths within the directory, its name
    /// (``ZipMemberName``, ``ZipLimits/maximumNameBytes``), ZIP64 sizes where the 32-bit fields overflow,
    /// its data before `dataEnd` (the directory), a stored size that is its size, and a deflated one
    /// within ``ZipLimits/maximumRatio``.
    static func walk(_ directory: [UInt8], count: Int, limits: ZipLimits, dataEnd: Int) throws(ZipError) -> [ZipEntry] {
        var entries: [ZipEntry] = []
        entries.reserveCapacity(count)
        var offset = 0
        for number in 0..<count {
            let record = ZipRecord(directory, at: offset)
            guard record.has(46), record.u32(0) == directorySignature else {
                throw ZipError("the central directory ends after \(number) of its \(count) members: the file is truncated or corrupt")
            }
            let nameLength = Int(record.u16(28))
            let extraLength = Int(record.u16(30))
            let commentLength = Int(record.u16(32))
            guard record.has(46 + nameLength + extraLength + commentLength) else {
                throw ZipError("member \(number + 1)'s header runs past the central directory: the file is truncated")
            }
            let nameBytes = record.slice(46, nameLength)
            let name = FileName.string(fromBytes: nameBytes)
            guard nameLength <= limits.maximumNameBytes else {
                throw ZipError(
                    member: String(name.prefix(80)) + "…", "a name of \(nameLength) bytes, longer than \(limits.maximumNameBytes)")
            }
            if let problem = ZipMemberName.problem(nameBytes) { throw ZipError(member: name, problem) }
            var entry = ZipEntry(
                nameBytes: nameBytes, name: name, method: record.u16(10), flags: record.u16(8), crc32: record.u32(16),
                compressedSize: Int(record.u32(20)), uncompressedSize: Int(record.u32(24)), localHeaderOffset: Int(record.u32(42)),
                externalAttributes: record.u32(38), madeBy: UInt8(record.u16(4) >> 8))
            guard record.u16(34) == 0 || record.u16(34) == 0xFFFF else { throw ZipError(member: name, "a member on another disk") }
            try zip64(&entry, extra: record.slice(46 + nameLength, extraLength), record: record)
            try checkSizes(entry, limits: limits, dataEnd: dataEnd)
            entries.append(entry)
            offset += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// The ZIP64 extended information (extra field 0x0001): the 64-bit value of each 32-bit field that
    /// is 0xFFFFFFFF, in the order the format fixes (uncompressed, compressed, local header offset).
    private static func zip64(_ entry: inout ZipEntry, extra: [UInt8], record: ZipRecord) throws(ZipError) {
        let wanted = [record.u32(24) == 0xFFFF_FFFF, record.u32(20) == 0xFFFF_FFFF, record.u32(42) == 0xFFFF_FFFF]
        guard wanted.contains(true) else { return }
        let fields = ZipRecord(extra)
        var position = 0
        while fields.has(4, at: position) {
            let id = fields.u16(position)
            let size = Int(fields.u16(position + 2))
            guard fields.has(size, at: position + 4) else { break }
            if id == 0x0001 {
                var cursor = position + 4
                var values: [Int] = []
                for needed in wanted where needed {
                    guard cursor + 8 <= position + 4 + size else {
                        throw ZipError(member: entry.name, "a ZIP64 extra field too short for its sizes")
                    }
                    let value = fields.u64(cursor)
                    guard value <= UInt64(Int.max / 2) else { throw ZipError(member: entry.name, "a ZIP64 size of \(value) bytes") }
                    values.append(Int(value))
                    cursor += 8
                }
                var next = values.makeIterator()
                if wanted[0] { entry.uncompressedSize = next.next()! }
                if wanted[1] { entry.compressedSize = next.next()! }
                if wanted[2] { entry.localHeaderOffset = next.next()! }
                return
            }
            position += 4 + size
        }
        throw ZipError(member: entry.name, "sizes of 0xFFFFFFFF with no ZIP64 extra field")
    }

    private static func checkSizes(_ entry: ZipEntry, limits: ZipLimits, dataEnd: Int) throws(ZipError) {
        // The local header (30 bytes and the name) and the data lie before the central directory.
        let localEnd = entry.localHeaderOffset.addingReportingOverflow(30 + entry.nameBytes.count)
        let dataEndOfMember = localEnd.partialValue.addingReportingOverflow(entry.compressedSize)
        guard !localEnd.overflow, !dataEndOfMember.overflow, dataEndOfMember.partialValue <= dataEnd else {
            throw ZipError(
                member: entry.name,
                "its \(entry.compressedSize) bytes at \(entry.localHeaderOffset) run past the central directory at \(dataEnd): the file is truncated or lies about its sizes"
            )
        }
        if entry.method == 0, !entry.isEncrypted, entry.compressedSize != entry.uncompressedSize {
            throw ZipError(member: entry.name, "stored, yet \(entry.compressedSize) bytes are said to hold \(entry.uncompressedSize)")
        }
        if entry.method == 8, entry.uncompressedSize / limits.maximumRatio > max(entry.compressedSize, 1) {
            throw ZipError(
                member: entry.name,
                "\(entry.compressedSize) deflated bytes are said to hold \(entry.uncompressedSize): over the \(limits.maximumRatio)-to-1 ratio deflate can reach (a zip bomb)"
            )
        }
    }

    /// No two members share a name or a byte: the members sorted by offset, each one's local header and
    /// data (the local extra field aside, unknown until read) end before the next starts. Overlapping
    /// members are how a small archive claims to hold far more than it does.
    static func checkLayout(_ entries: [ZipEntry]) throws(ZipError) {
        var names = Set<[UInt8]>()
        for entry in entries where !names.insert(entry.nameBytes).inserted {
            throw ZipError(member: entry.name, "listed twice in the central directory")
        }
        let ordered = entries.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        for (first, second) in zip(ordered, ordered.dropFirst()) {
            let end = first.localHeaderOffset + 30 + first.nameBytes.count + first.compressedSize
            guard end <= second.localHeaderOffset else {
                throw ZipError(member: second.name, "overlaps the bytes of \(Quoting.single(first.name)) (a zip bomb's trick)")
            }
        }
    }
}
