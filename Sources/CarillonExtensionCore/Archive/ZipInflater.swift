internal import CZlib

/// zlib's raw inflate (a zip member's deflate stream, no header), the one owner of its `z_stream`: made
/// at a stable address, ended when released.
final class ZipInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    /// Where each piece of output is inflated before it is handed on.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
    private var started = false

    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        chunk.deallocate()
    }

    /// How a call to ``inflate(_:into:)`` ended.
    enum Step {
        /// The input was used up; more may follow.
        case needsInput
        /// The stream ended (the member's deflate data is whole).
        case ended
        /// The output handler asked to stop.
        case stopped
        /// zlib found the data corrupt.
        case corrupt(Int32)
    }

    /// Inflates `input`, passing each piece of output to `output` (which returns false to stop).
    func inflate(_ input: UnsafeRawBufferPointer, into output: (UnsafeRawBufferPointer) -> Bool) -> Step {
        if !started {
            // -15: a raw deflate stream with the largest window, as zip stores it.
            guard inflateInit2_(stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return .corrupt(Z_MEM_ERROR) }
            started = true
        }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(input.count)
        while true {
            stream.pointee.next_out = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_out = UInt32(chunk.count)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let produced = chunk.count - Int(stream.pointee.avail_out)
            if produced > 0, !output(UnsafeRawBufferPointer(rebasing: chunk[0..<produced])) { return .stopped }
            switch status {
            case Z_STREAM_END: return .ended
            case Z_OK: if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 { return .needsInput }
            case Z_BUF_ERROR: return .needsInput
            default: return .corrupt(status)
            }
        }
    }

    /// The CRC-32 zip stores (zlib's `crc32_z`) of `bytes`, continuing from `crc`.
    static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        return UInt32(CZlib.crc32_z(UInt(crc), base.assumingMemoryBound(to: UInt8.self), bytes.count))
    }
}
