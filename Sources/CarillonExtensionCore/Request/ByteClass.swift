/// A set of bytes as 256 flags, looked up with one load and no bounds check: the shell reader's loops ask
/// it of every byte of a script. Made once, for the life of the process.
struct ByteClass: @unchecked Sendable {
    private let flags: UnsafeMutablePointer<Bool>

    /// The class of the bytes of `members`.
    init(_ members: StaticString) {
        flags = .allocate(capacity: 256)
        flags.initialize(repeating: false, count: 256)
        members.withUTF8Buffer { buffer in
            for byte in buffer { flags[Int(byte)] = true }
        }
    }

    func contains(_ byte: UInt8) -> Bool { flags[Int(byte)] }
}
