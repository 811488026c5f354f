/// A zip archive that cannot be read, or a member of it: the member's name where one is at fault (as its
/// name reads: bytes that are not UTF-8 escaped, ``FileName``), and what is wrong (``ReaderError``).
package typealias ZipError = ReaderError<ZipReading>

/// The zip reader (``ZipArchive``), as ``ReaderError`` tells it apart.
package enum ZipReading: ReaderKind {
    package static let code = ReaderCode.zip
}
