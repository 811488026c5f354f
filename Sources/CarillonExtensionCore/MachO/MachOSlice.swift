/// One architecture of a Mach-O file: its header, what its load commands say of its code signature and
/// encryption, and the signature itself once read.
package struct MachOSlice: Sendable, Equatable {
    /// `cputype`: 0x0100000C is arm64.
    package var cpuType: UInt32
    package var is64Bit: Bool
    package var isBigEndian: Bool
    /// `filetype`: 2 is an executable.
    package var fileType: UInt32
    /// Where the architecture starts in the file.
    package var offset: Int
    /// `LC_CODE_SIGNATURE`'s data, relative to the architecture's start; nil without one.
    package var signatureRange: Range<Int>?
    /// `LC_ENCRYPTION_INFO(_64)`'s `cryptid`; nil without the command. Not 0: the App Store encrypted it.
    package var cryptID: UInt32?
    /// The superblob `LC_CODE_SIGNATURE` leads to, read.
    package var codeSignature: CodeSignature?

    /// An architecture as given (a model built in memory).
    package init(
        cpuType: UInt32, is64Bit: Bool, isBigEndian: Bool, fileType: UInt32, offset: Int, signatureRange: Range<Int>? = nil,
        cryptID: UInt32? = nil, codeSignature: CodeSignature? = nil
    ) {
        self.cpuType = cpuType
        self.is64Bit = is64Bit
        self.isBigEndian = isBigEndian
        self.fileType = fileType
        self.offset = offset
        self.signatureRange = signatureRange
        self.cryptID = cryptID
        self.codeSignature = codeSignature
    }

    /// The largest `sizeofcmds` read.
    static let maximumCommandBytes = 4 << 20
    /// The largest code signature read.
    static let maximumSignatureBytes = 32 << 20

    static let codeSignatureCommand: UInt32 = 0x1D
    static let encryptionInfo: UInt32 = 0x21
    static let encryptionInfo64: UInt32 = 0x2C

    /// The architecture's name as Apple's tools write it, or its `cputype` in hex.
    package var architecture: String {
        switch cpuType {
        case 0x0100_000C: return "arm64"
        case 0x0200_000C: return "arm64_32"
        case 0x0000_000C: return "arm"
        case 0x0100_0007: return "x86_64"
        case 0x0000_0007: return "i386"
        default: return "cputype 0x" + String(cpuType, radix: 16)
        }
    }

    /// The byte order and width a thin header's magic says; nil when it is not a Mach-O header.
    static func layout(_ header: [UInt8]) -> (is64: Bool, bigEndian: Bool)? {
        guard header.count >= 4 else { return nil }
        switch MachOBytes(header, bigEndian: true).u32(0) {
        case 0xFEED_FACE: return (false, true)
        case 0xFEED_FACF: return (true, true)
        case 0xCEFA_EDFE: return (false, false)
        case 0xCFFA_EDFE: return (true, false)
        default: return nil
        }
    }

    /// How many bytes from the architecture's start hold its header and load commands.
    static func headerAndCommandsSize(_ header: [UInt8], sliceSize: Int) throws(MachOError) -> Int {
        guard let (is64, bigEndian) = layout(header) else {
            let magic = header.count >= 4 ? "0x" + String(MachOBytes(header, bigEndian: true).u32(0), radix: 16) : "none"
            throw MachOError("not a Mach-O file (magic \(magic))")
        }
        let headerSize = is64 ? 32 : 28
        guard header.count >= headerSize, sliceSize >= headerSize else { throw MachOError("the Mach-O header is cut short") }
        let commandBytes = Int(MachOBytes(header, bigEndian: bigEndian).u32(20))
        guard commandBytes <= maximumCommandBytes, commandBytes <= sliceSize - headerSize else {
            throw MachOError("sizeofcmds of \(commandBytes) bytes, past the \(min(sliceSize - headerSize, maximumCommandBytes)) there are")
        }
        return headerSize + commandBytes
    }

    /// The architecture whose header and load commands `header` holds (``headerAndCommandsSize(_:sliceSize:)``
    /// bytes at least), `size` bytes at `offset` of the file.
    init(header: [UInt8], offset: Int, size: Int) throws(MachOError) {
        let commandsEnd = try Self.headerAndCommandsSize(header, sliceSize: size)
        let (is64, bigEndian) = Self.layout(header)!
        let fields = MachOBytes(header, bigEndian: bigEndian)
        guard header.count >= commandsEnd else { throw MachOError("the load commands are cut short") }
        cpuType = fields.u32(4)
        is64Bit = is64
        isBigEndian = bigEndian
        fileType = fields.u32(12)
        self.offset = offset
        let count = Int(fields.u32(16))
        let headerSize = is64 ? 32 : 28
        guard count <= (commandsEnd - headerSize) / 8 else {
            throw MachOError("ncmds of \(count), more than \(commandsEnd - headerSize) bytes of load commands can hold")
        }
        var position = headerSize
        for number in 0..<count {
            guard position + 8 <= commandsEnd else { throw MachOError("load command \(number) starts past sizeofcmds") }
            let command = fields.u32(position)
            let commandSize = Int(fields.u32(position + 4))
            guard commandSize >= 8, commandSize % 4 == 0, commandSize <= commandsEnd - position else {
                throw MachOError(
                    "load command \(number) (0x\(String(command, radix: 16))) says \(commandSize) bytes, with \(commandsEnd - position) left of sizeofcmds"
                )
            }
            try note(command, fields, at: position, size: commandSize, number: number, sliceSize: size)
            position += commandSize
        }
    }

    /// What the commands that matter here say: the code signature's place, the encryption's `cryptid`.
    private mutating func note(_ command: UInt32, _ fields: MachOBytes, at position: Int, size: Int, number: Int, sliceSize: Int)
        throws(MachOError)
    {
        switch command {
        case Self.codeSignatureCommand:
            guard size >= 16 else { throw MachOError("LC_CODE_SIGNATURE (load command \(number)) of \(size) bytes, not 16") }
            guard signatureRange == nil else { throw MachOError("a second LC_CODE_SIGNATURE (load command \(number))") }
            let dataOffset = Int(fields.u32(position + 8))
            let dataSize = Int(fields.u32(position + 12))
            guard dataOffset <= sliceSize, dataSize <= sliceSize - dataOffset else {
                throw MachOError("LC_CODE_SIGNATURE says \(dataSize) bytes at \(dataOffset), past the file's \(sliceSize)")
            }
            guard dataSize <= Self.maximumSignatureBytes else {
                throw MachOError("LC_CODE_SIGNATURE says \(dataSize) bytes, more than the \(Self.maximumSignatureBytes) read")
            }
            signatureRange = dataOffset..<(dataOffset + dataSize)
        case Self.encryptionInfo, Self.encryptionInfo64:
            guard size >= 20 else { throw MachOError("LC_ENCRYPTION_INFO (load command \(number)) of \(size) bytes") }
            cryptID = fields.u32(position + 16)
        default:
            break
        }
    }
}
