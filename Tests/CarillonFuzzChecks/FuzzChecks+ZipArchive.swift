@_spi(Tooling) import CarillonExtensionCore

extension FuzzChecks {
    // MARK: - FuzzZipArchive

    /// Small bounds, so that libFuzzer reaches them.
    static let zipLimits = ZipLimits(maximumEntries: 64, maximumDirectoryBytes: 1 << 16, maximumNameBytes: 256, maximumRatio: 1100)
    /// The most bytes read of a member.
    static let zipMemberCap = 1 << 16

    /// `ZipArchive` on an archive in memory (`FuzzZipArchive`): never a trap; a refusal has a problem; an
    /// opened archive holds no name that climbs out or is absolute, within the bounds, no two members
    /// sharing a name or a byte; each member reads whole to exactly its size (its CRC-32 checked) or is
    /// refused naming it; and ranges of a member read in one pass are the bytes of its whole content.
    public static func zipArchive(_ bytes: [UInt8]) throws(FuzzFailure) {
        let archive: ZipArchive
        do {
            archive = try ZipArchive(ZipBytes(bytes), limits: zipLimits)
        } catch {
            try check(!error.problem.isEmpty, "an archive refused without a problem")
            return
        }
        try check(archive.entries.count <= zipLimits.maximumEntries, "\(archive.entries.count) members past the bound")
        var names = Set<[UInt8]>()
        for entry in archive.entries {
            try check(ZipMemberName.problem(entry.nameBytes) == nil, "a member named \(entry.name) was let through")
            try check(entry.nameBytes.count <= zipLimits.maximumNameBytes, "a name past the bound")
            try check(names.insert(entry.nameBytes).inserted, "two members named \(entry.name)")
            try check(entry.localHeaderOffset + entry.compressedSize <= bytes.count, "a member past the file")
        }
        for entry in archive.entries.prefix(8) where !entry.isDirectory {
            let whole: [UInt8]
            do {
                whole = try archive.contents(of: entry, maximumBytes: zipMemberCap)
            } catch {
                try check(error.member != nil || entry.uncompressedSize > zipMemberCap, "a member refused without its name: \(error)")
                continue
            }
            try check(whole.count == entry.uncompressedSize, "\(entry.name): \(whole.count) bytes of \(entry.uncompressedSize)")
            let ranges = [0..<min(16, whole.count), (whole.count / 3)..<(whole.count / 2), max(0, whole.count - 5)..<whole.count]
            guard let pieces = try? archive.ranges(of: entry, ranges) else {
                throw FuzzFailure(message: "\(entry.name): ranges of a member read whole were refused")
            }
            for (range, piece) in zip(ranges, pieces) {
                try check(piece == Array(whole[range]), "\(entry.name): bytes \(range) read in a range differ from the whole")
            }
        }
    }
}
