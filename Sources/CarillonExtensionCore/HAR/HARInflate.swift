internal import CZlib

/// Inflates a compressed HAR file (`.zhar`: zlib, as mitmproxy writes it, or gzip) under a limit, so
/// that a small file that inflates to gigabytes (a bomb) stops at the limit with an error instead of
/// filling memory. zlib's `inflate` (the only C here) runs with automatic zlib/gzip header detection.
enum HARInflate {
    /// Whether `bytes` start as a gzip member or a zlib stream (RFC 1950: deflate, a window of at most
    /// 32 KiB, and a header whose check bits divide by 31). JSON text starts with neither.
    static func isCompressed(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        if bytes[0] == 0x1F && bytes[1] == 0x8B { return true }
        return bytes[0] & 0x0F == 8 && bytes[0] >> 4 <= 7 && (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
    }

    /// The inflated bytes.
    ///
    /// - Throws: ``HARReadError`` when the stream is corrupt, ends early, or inflates past `limit`.
    static func inflate(_ bytes: [UInt8], limit: Int) throws(HARReadError) -> [UInt8] {
        var stream = z_stream()
        // 15 + 32: the largest window, with zlib and gzip headers both accepted.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw HARReadError("the compressed file could not be opened (zlib would not start)")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let result: Int32 = bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit { return Z_MEM_ERROR }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return Z_STREAM_END }
                if status != Z_OK { return status }
                if stream.avail_in == 0 && produced == 0 { return Z_BUF_ERROR }
            }
        }
        switch result {
        case Z_STREAM_END: return output
        case Z_MEM_ERROR: throw HARReadError("the compressed file inflates to more than \(limit) bytes")
        case Z_BUF_ERROR: throw HARReadError("the compressed file ends early (after \(output.count) bytes inflated)")
        default: throw HARReadError("the compressed file is corrupt (zlib status \(result), after \(output.count) bytes inflated)")
        }
    }
}
