/// A Mach-O file that cannot be read: what is wrong with it, and where, e.g. "load command 3 (0x1D) says
/// 4096 bytes, past the 72 left of sizeofcmds" (``ReaderError``).
package typealias MachOError = ReaderError<MachOReading>

/// The Mach-O reader (``MachOFile``), as ``ReaderError`` tells it apart.
package enum MachOReading: ReaderKind {
    package static let code = ReaderCode.machO
}
