extension ZipArchive {
    /// A member's whole content, inflated when deflated, its size and CRC-32 checked.
    ///
    /// - Throws: ``ZipError`` naming the member: larger than `maximumBytes`, a directory, a link,
    ///   encrypted, a method other than stored or deflated, data that is corrupt, cut short, or inflates
    ///   past its declared size (a bomb stops there).
    package func contents(of entry: ZipEntry, maximumBytes: Int) throws(ZipError) -> [UInt8] {
        guard entry.uncompressedSize <= maximumBytes else {
            throw ZipError(member: entry.name, "\(entry.uncompressedSize) bytes, more than the \(maximumBytes) read")
        }
        var output: [UInt8] = []
        output.reserveCapacity(entry.uncompressedSize)
        var crc: UInt32 = 0
        try stream(entry, upTo: entry.uncompressedSize) { _, piece in
            crc = ZipInflater.crc32(crc, piece)
            output.append(contentsOf: piece)
            return true
        }
        guard crc == entry.crc32 else {
            throw ZipError(
                member: entry.name, "a CRC-32 of \(hex(crc)), not the \(hex(entry.crc32)) the directory records: the data is corrupt")
        }
        return output
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The bytes of each of `ranges` of a member's content (offsets into the inflated content, each within
    /// it), read in one pass: a stored member is read only where asked, a deflated one inflated from its
    /// start to the furthest range and no further.
    package func ranges(of entry: ZipEntry, _ ranges: [Range<Int>]) throws(ZipError) -> [[UInt8]] {
        for range in ranges where range.lowerBound < 0 || range.upperBound > entry.uncompressedSize {
            throw ZipError(member: entry.name, "bytes \(range.lowerBound)..<\(range.upperBound) asked of its \(entry.uncompressedSize)")
        }
        var pieces = ranges.map { [UInt8](repeating: 0, count: $0.count) }
        if entry.method == 0 {
            let start = try dataOffset(entry)
            for (index, range) in ranges.enumerated() where !range.isEmpty {
                let bytes = try source.bytes(at: start + range.lowerBound, count: range.count)
                guard bytes.count == range.count else { throw ZipError(member: entry.name, "cut short: the file is truncated") }
                pieces[index] = bytes
            }
            return pieces
        }
        let furthest = ranges.map(\.upperBound).max() ?? 0
        try stream(entry, upTo: furthest) { offset, piece in
            let pieceRange = offset..<(offset + piece.count)
            for (index, range) in ranges.enumerated() where range.overlaps(pieceRange) {
                let from = max(range.lowerBound, offset)
                let to = min(range.upperBound, pieceRange.upperBound)
                for position in from..<to { pieces[index][position - range.lowerBound] = piece[position - offset] }
            }
            return true
        }
        return pieces
    }

    /// Where a member's data starts, after its local header, which must be one and name the member.
    func dataOffset(_ entry: ZipEntry) throws(ZipError) -> Int {
        let header = ZipRecord(try source.bytes(at: entry.localHeaderOffset, count: 30))
        guard header.has(30), header.u32(0) == Self.localSignature else {
            throw ZipError(member: entry.name, "no local header at offset \(entry.localHeaderOffset)")
        }
        let nameLength = Int(header.u16(26))
        let start = entry.localHeaderOffset + 30 + nameLength + Int(header.u16(28))
        guard nameLength == entry.nameBytes.count,
            try source.bytes(at: entry.localHeaderOffset + 30, count: nameLength) == entry.nameBytes
        else {
            throw ZipError(member: entry.name, "its local header names another member")
        }
        guard start <= directoryOffset, entry.compressedSize <= directoryOffset - start else {
            throw ZipError(member: entry.name, "its data runs past the central directory: the file is truncated or lies about its sizes")
        }
        return start
    }

    /// Passes the member's content from its start, piece by piece with each piece's offset, until `limit`
    /// bytes have gone by. Read whole (`limit` its size), a deflated member is inflated to the end of its
    /// stream and its length checked against the directory's.
    private func stream(_ entry: ZipEntry, upTo limit: Int, _ body: (Int, UnsafeRawBufferPointer) -> Bool) throws(ZipError) {
        if entry.isDirectory { throw ZipError(member: entry.name, "a directory, not a file") }
        if entry.isSymbolicLink { throw ZipError(member: entry.name, "a symbolic link, not a file") }
        if entry.isEncrypted { throw ZipError(member: entry.name, "encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw ZipError(member: entry.name, "compression method \(entry.method): only stored (0) and deflated (8) are read")
        }
        let start = try dataOffset(entry)
        if entry.method == 0 {
            var produced = 0
            while produced < limit {
                let count = min(64 << 10, limit - produced)
                let input = try source.bytes(at: start + produced, count: count)
                guard input.count == count else { throw ZipError(member: entry.name, "cut short: the file is truncated") }
                _ = input.withUnsafeBytes { body(produced, $0) }
                produced += count
            }
            return
        }
        try inflate(entry, from: start, upTo: limit, body)
    }

    private func inflate(_ entry: ZipEntry, from start: Int, upTo limit: Int, _ body: (Int, UnsafeRawBufferPointer) -> Bool)
        throws(ZipError)
    {
        let whole = limit >= entry.uncompressedSize
        let inflater = ZipInflater()
        var consumed = 0
        var produced = 0
        var overrun = false
        while true {
            let count = min(64 << 10, entry.compressedSize - consumed)
            let input = count > 0 ? try source.bytes(at: start + consumed, count: count) : []
            guard input.count == count else { throw ZipError(member: entry.name, "cut short: the file is truncated") }
            consumed += count
            let step = input.withUnsafeBytes { buffer in
                inflater.inflate(buffer) { piece in
                    guard piece.count <= entry.uncompressedSize - produced else {
                        overrun = true
                        return false
                    }
                    let keep = min(piece.count, max(0, limit - produced))
                    if keep > 0 { _ = body(produced, UnsafeRawBufferPointer(rebasing: piece[0..<keep])) }
                    produced += piece.count
                    return whole || produced < limit
                }
            }
            if overrun { throw ZipError(member: entry.name, "inflates past its declared \(entry.uncompressedSize) bytes (a zip bomb)") }
            switch step {
            case .ended:
                guard produced == entry.uncompressedSize else {
                    throw ZipError(
                        member: entry.name, "inflates to \(produced) bytes, not the \(entry.uncompressedSize) the directory records")
                }
                return
            case .stopped: return
            case .corrupt(let status): throw ZipError(member: entry.name, "corrupt deflate data (zlib status \(status))")
            case .needsInput:
                if consumed == entry.compressedSize {
                    throw ZipError(member: entry.name, "its deflate data ends early, after \(produced) of \(entry.uncompressedSize) bytes")
                }
            }
        }
    }
}
