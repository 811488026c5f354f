/// An embedded code signature (the superblob `LC_CODE_SIGNATURE` leads to; big-endian, as Apple's
/// `cs_blobs.h` lays it out): whether it holds a CodeDirectory — what "signed" means here, since no
/// hash and no CMS signature is checked — the CodeDirectory's identifier and team, and the entitlements
/// blobs, XML (0xfade7171) and DER (0xfade7172).
package struct CodeSignature: Sendable, Equatable {
    /// A CodeDirectory (0xfade0c02) is among the blobs.
    package var hasCodeDirectory = false
    /// The first CodeDirectory's identifier (usually the bundle identifier).
    package var identifier: String?
    /// The first CodeDirectory's team identifier (version 0x20200 and later).
    package var teamIdentifier: String?
    /// The XML entitlements blob's content (a property list).
    package var entitlements: [UInt8]?
    /// The DER entitlements blob's content.
    package var derEntitlements: [UInt8]?

    static let superBlobMagic: UInt32 = 0xFADE_0CC0
    static let codeDirectoryMagic: UInt32 = 0xFADE_0C02
    static let entitlementsMagic: UInt32 = 0xFADE_7171
    static let derEntitlementsMagic: UInt32 = 0xFADE_7172

    package init() {}

    /// Reads a superblob: its index and each blob's magic and length, checked against the superblob.
    package init(superBlob bytes: [UInt8]) throws(MachOError) {
        let fields = MachOBytes(bytes, bigEndian: true)
        guard fields.has(12, at: 0), fields.u32(0) == Self.superBlobMagic else {
            throw MachOError("LC_CODE_SIGNATURE leads to no code signature superblob (magic 0xfade0cc0)")
        }
        let length = Int(fields.u32(4))
        let count = Int(fields.u32(8))
        guard length >= 12, length <= bytes.count else {
            throw MachOError("a code signature superblob of \(length) bytes in the \(bytes.count) LC_CODE_SIGNATURE gives")
        }
        guard count <= (length - 12) / 8 else { throw MachOError("a code signature superblob indexing \(count) blobs in \(length) bytes") }
        for index in 0..<count {
            let offset = Int(fields.u32(12 + index * 8 + 4))
            guard offset >= 12 + count * 8, offset <= length - 8 else {
                throw MachOError("code signature blob \(index) at \(offset), outside its superblob of \(length) bytes")
            }
            let magic = fields.u32(offset)
            let blobLength = Int(fields.u32(offset + 4))
            guard blobLength >= 8, blobLength <= length - offset else {
                throw MachOError(
                    "code signature blob \(index) (magic 0x\(String(magic, radix: 16))) says \(blobLength) bytes, past its superblob")
            }
            let blob = Array(bytes[offset..<(offset + blobLength)])
            switch magic {
            case Self.codeDirectoryMagic:
                if !hasCodeDirectory { try readCodeDirectory(blob) }
                hasCodeDirectory = true
            case Self.entitlementsMagic: entitlements = Array(blob[8...])
            case Self.derEntitlementsMagic: derEntitlements = Array(blob[8...])
            default: break
            }
        }
    }

    /// The identifier and team of a CodeDirectory blob: NUL-terminated strings at offsets it gives.
    private mutating func readCodeDirectory(_ blob: [UInt8]) throws(MachOError) {
        let fields = MachOBytes(blob, bigEndian: true)
        guard fields.has(40, at: 0) else { throw MachOError("a CodeDirectory of \(blob.count) bytes, too short") }
        identifier = try string(blob, at: Int(fields.u32(20)), what: "identifier")
        if fields.u32(8) >= 0x20200, fields.has(52, at: 0), fields.u32(48) != 0 {
            teamIdentifier = try string(blob, at: Int(fields.u32(48)), what: "team identifier")
        }
    }

    private func string(_ blob: [UInt8], at offset: Int, what: String) throws(MachOError) -> String {
        guard offset < blob.count, let end = blob[offset...].firstIndex(of: 0) else {
            throw MachOError("the CodeDirectory's \(what) at \(offset) is not a string within its \(blob.count) bytes")
        }
        return FileName.string(fromBytes: blob[offset..<end])
    }
}
