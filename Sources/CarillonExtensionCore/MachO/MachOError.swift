/// A Mach-O file that cannot be read: what is wrong with it, and where, as one sentence.
package struct MachOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "load command 3 (0x1D) says 4096 bytes, past the 72 left of sizeofcmds".
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
