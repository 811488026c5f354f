#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes the verifier reads at checked offsets: a file through a window, or an array.
protocol ByteSource {
    /// The total number of bytes.
    var count: Int { get }
    /// Calls `body` with the bytes `offset ..< offset + count`, which the caller has checked lie inside the
    /// source; `count` is at most ``byteSourceChunk``.
    mutating func read<Result>(
        offset: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) throws(Outcome) -> Result
}

/// The most bytes one `read` asks for, and the file window's size.
let byteSourceChunk = 64 * 1024

extension ByteSource {
    /// Whether `length` bytes from `offset` lie inside the source, without any overflow.
    func has(_ length: Int, at offset: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    mutating func byte(at offset: Int) throws(Outcome) -> UInt8 {
        try read(offset: offset, count: 1) { $0[0] }
    }

    /// A few bytes (at most ``byteSourceChunk``) as an array.
    mutating func bytes(at offset: Int, count: Int) throws(Outcome) -> [UInt8] {
        try read(offset: offset, count: count) { Array($0) }
    }

    mutating func uint16BigEndian(at offset: Int) throws(Outcome) -> Int {
        try read(offset: offset, count: 2) { Int($0[0]) << 8 | Int($0[1]) }
    }

    mutating func uint16LittleEndian(at offset: Int) throws(Outcome) -> Int {
        try read(offset: offset, count: 2) { Int($0[1]) << 8 | Int($0[0]) }
    }

    mutating func uint32BigEndian(at offset: Int) throws(Outcome) -> Int {
        try read(offset: offset, count: 4) {
            Int($0[0]) << 24 | Int($0[1]) << 16 | Int($0[2]) << 8 | Int($0[3])
        }
    }

    /// The CRC-32 of `count` bytes from `offset`, read in chunks.
    mutating func crc32(at offset: Int, count: Int) throws(Outcome) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        var position = offset
        let end = offset + count
        while position < end {
            let piece = min(byteSourceChunk, end - position)
            crc = try read(offset: position, count: piece) { CRC32.update(crc, $0) }
            position += piece
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// Bytes in memory.
struct ArrayByteSource: ByteSource {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    func read<Result>(offset: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[offset ..< offset + count])) }
    }
}

/// A regular file read with `pread` through one 64 KiB window; owns its descriptor.
final class FileByteSource: ByteSource {
    let path: String
    let count: Int
    private let descriptor: Int32
    private var window = [UInt8](repeating: 0, count: byteSourceChunk)
    private var windowStart = 0
    private var windowCount = 0

    /// Opens `path` (`open`, `fstat`), refusing anything but a regular file.
    init(path: String) throws(Outcome) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.storage("open", path, errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = errno
            close(descriptor)
            throw Self.storage("stat", path, error)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw Self.storage("read", path, (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL)
        }
        self.path = path
        self.descriptor = descriptor
        self.count = Int(info.st_size)
    }

    deinit { close(descriptor) }

    func read<Result>(
        offset: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) throws(Outcome) -> Result {
        if offset < windowStart || offset - windowStart > windowCount - count {
            try fill(at: offset)
        }
        let start = offset - windowStart
        return window.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start ..< start + count])) }
    }

    /// Reads the window starting at `offset`, as far as the file goes (`pread`, retried on `EINTR`).
    private func fill(at offset: Int) throws(Outcome) {
        windowCount = 0
        let wanted = min(byteSourceChunk, count - offset)
        var filled = 0
        while filled < wanted {
            let got = window.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, wanted - filled, off_t(offset + filled))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw Self.storage("read", path, errno)
            }
            if got == 0 { throw Outcome(.storage, "read \(path): the file shrank while it was being verified") }
            filled += got
        }
        windowStart = offset
        windowCount = filled
    }

    private static func storage(_ operation: String, _ path: String, _ error: Int32) -> Outcome {
        Outcome(.storage, FileSystemError(operation, path, errno: error).description)
    }
}
