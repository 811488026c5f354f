/// A Mach-O executable read by hand: thin or fat/universal (32- or 64-bit fat tables), each architecture
/// 32- or 64-bit in either byte order, its load commands walked with bounds, its code signature and
/// encryption noted (``MachOSlice``). Only the pieces it needs are read, through a fetch of byte ranges,
/// so that an executable inside a zip is inflated once to its end at most.
package struct MachOFile: Sendable, Equatable {
    /// The architectures, in the order the file lists them (one for a thin file).
    package var slices: [MachOSlice]
    /// A fat (universal) file.
    package var isFat: Bool

    /// The most architectures a fat file may list.
    static let maximumArchitectures = 32
    /// The bytes read first from each architecture: its header and, nearly always, its load commands.
    static let headerWindow = 64 << 10

    /// Reads a Mach-O file of `size` bytes through `fetch`, which returns the bytes of each range asked
    /// (each within `0 ..< size`).
    ///
    /// - Throws: ``MachOError`` saying what is wrong (not a Mach-O file, a table or command past the
    ///   file, a signature that lies about its size), or what `fetch` threw.
    package static func read(size: Int, fetch: ([Range<Int>]) throws(MachOError) -> [[UInt8]]) throws(MachOError) -> MachOFile {
        guard size >= 8 else { throw MachOError("\(size) bytes: too short for a Mach-O file") }
        let first = try fetch([0..<min(size, headerWindow)])[0]
        let magic = MachOBytes(first, bigEndian: true).u32(0)
        var ranges: [Range<Int>]
        var isFat = false
        if magic == 0xCAFE_BABE || magic == 0xCAFE_BABF {
            ranges = try fatArchitectures(first, is64: magic == 0xCAFE_BABF, size: size)
            isFat = true
        } else {
            ranges = [0..<size]
        }
        let windows = isFat ? try fetch(ranges.map { $0.lowerBound..<min($0.upperBound, $0.lowerBound + headerWindow) }) : [first]
        var slices: [MachOSlice] = []
        var signatures: [Range<Int>] = []
        for (range, window) in zip(ranges, windows) {
            var header = window
            let needed = try MachOSlice.headerAndCommandsSize(window, sliceSize: range.count)
            if needed > header.count { header = try fetch([range.lowerBound..<(range.lowerBound + needed)])[0] }
            let slice = try MachOSlice(header: header, offset: range.lowerBound, size: range.count)
            if let signature = slice.signatureRange {
                signatures.append((range.lowerBound + signature.lowerBound)..<(range.lowerBound + signature.upperBound))
            }
            slices.append(slice)
        }
        let blobs = signatures.isEmpty ? [] : try fetch(signatures)
        var next = blobs.makeIterator()
        for index in slices.indices where slices[index].signatureRange != nil {
            slices[index].codeSignature = try CodeSignature(superBlob: next.next() ?? [])
        }
        return MachOFile(slices: slices, isFat: isFat)
    }

    /// A whole file in memory.
    package static func read(_ bytes: [UInt8]) throws(MachOError) -> MachOFile {
        try read(size: bytes.count) { ranges throws(MachOError) in ranges.map { Array(bytes[$0]) } }
    }

    /// The architectures' ranges from a fat header (always big-endian): each within the file, after the
    /// table, none overlapping another.
    private static func fatArchitectures(_ header: [UInt8], is64: Bool, size: Int) throws(MachOError) -> [Range<Int>] {
        let fields = MachOBytes(header, bigEndian: true)
        let count = Int(fields.u32(4))
        guard count >= 1, count <= maximumArchitectures else {
            throw MachOError(
                "a fat header listing \(count) architectures (1 to \(maximumArchitectures); 0xCAFEBABE also starts Java class files)")
        }
        let entrySize = is64 ? 32 : 20
        let tableEnd = 8 + count * entrySize
        guard fields.has(tableEnd, at: 0), tableEnd <= size else { throw MachOError("the fat header's table runs past the file") }
        var ranges: [Range<Int>] = []
        for index in 0..<count {
            let base = 8 + index * entrySize
            let offset = is64 ? fields.u64(base + 8) : UInt64(fields.u32(base + 8))
            let length = is64 ? fields.u64(base + 16) : UInt64(fields.u32(base + 12))
            guard offset >= UInt64(tableEnd), offset <= UInt64(size), length <= UInt64(size) - offset, length >= 28 else {
                throw MachOError("architecture \(index + 1) of the fat header: \(length) bytes at \(offset), outside the file's \(size)")
            }
            ranges.append(Int(offset)..<Int(offset + length))
        }
        let ordered = ranges.sorted { $0.lowerBound < $1.lowerBound }
        for (a, b) in zip(ordered, ordered.dropFirst()) where a.overlaps(b) {
            throw MachOError("two architectures of the fat header overlap (bytes \(b.lowerBound)..<\(a.upperBound))")
        }
        return ranges
    }
}
