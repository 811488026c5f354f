/// One member of a zip archive, as its central directory describes it (sizes and offsets already taken
/// from the ZIP64 extra field where the 32-bit fields overflow).
package struct ZipEntry: Sendable, Equatable {
    /// The name as stored, in bytes.
    package var nameBytes: [UInt8]
    /// The name as a string (bytes that are not UTF-8 escaped: ``FileName``).
    package var name: String
    /// The compression method: 0 stored, 8 deflated (others are refused when read).
    package var method: UInt16
    /// The general-purpose flags (bit 0: encrypted).
    package var flags: UInt16
    package var crc32: UInt32
    package var compressedSize: Int
    package var uncompressedSize: Int
    /// Where its local header starts.
    package var localHeaderOffset: Int
    /// The external attributes: a Unix mode in the high 16 bits when made on Unix.
    package var externalAttributes: UInt32
    /// The system that made it (the high byte of "version made by": 3 is Unix).
    package var madeBy: UInt8

    /// A directory entry: a name ending in `/`.
    package var isDirectory: Bool { nameBytes.last == UInt8(ascii: "/") }

    /// A symbolic link, as Unix zip tools store one (mode `S_IFLNK`; its content is the target).
    package var isSymbolicLink: Bool { madeBy == 3 && (externalAttributes >> 16) & 0o170000 == 0o120000 }

    /// Encrypted (flag bit 0): never read.
    package var isEncrypted: Bool { flags & 1 != 0 }
}
