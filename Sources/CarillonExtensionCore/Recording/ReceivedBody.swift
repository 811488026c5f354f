/// The body as received (before any decoding), kept on disk only from the moment it is seen to differ
/// from the decoded body: the usual identity body is the same bytes twice, and writing and hashing a
/// second copy of a 10 MiB image doubled a recording's cost.
///
/// While the two agree, each received piece waits (at most ``pendingLimit`` bytes) until the decoded
/// pieces that follow it match it, and is then dropped: the decoded body's file holds those bytes. At
/// the first difference (a content coding, chunk framing, received bytes the decoder never delivered,
/// or more waiting than the limit) the received body's own file starts, with the matched prefix copied
/// back from the decoded body's file, and every later received byte goes to it. Nothing is inferred
/// from the response's header fields.
struct ReceivedBody {
    /// Received bytes held while waiting for their decoded match, at most.
    static let pendingLimit = 256 * 1024

    private let directory: String
    /// Received bytes known equal to the decoded body's first bytes.
    private var matched = 0
    /// Received bytes, of which those from ``start`` on are not yet matched.
    private var pending: [UInt8] = []
    private var start = 0
    /// The received body's own file, once the two differ.
    private var capture: StreamedCapture?
    private var heard = false

    /// A received body whose file, if it needs one, is staged in `directory`.
    init(directory: String) {
        self.directory = directory
    }

    /// Received bytes; `decoded` is the decoded body so far.
    mutating func received(_ bytes: UnsafeRawBufferPointer, decoded: StreamedCapture) {
        heard = true
        if let capture {
            capture.write(bytes)
            return
        }
        if start == pending.count {
            pending.removeAll(keepingCapacity: true)
            start = 0
        }
        pending.append(contentsOf: bytes)
        if pending.count - start > ReceivedBody.pendingLimit { differ(decoded) }
    }

    /// A decoded piece, after `decoded` took it.
    mutating func decodedPiece(_ piece: UnsafeRawBufferPointer, decoded: StreamedCapture) {
        guard heard, capture == nil else { return }
        let same = pending.withUnsafeBytes { all in
            all.count - start >= piece.count && ReceivedBody.same(UnsafeRawBufferPointer(rebasing: all[start..<start + piece.count]), piece)
        }
        if same {
            start += piece.count
            matched += piece.count
        } else {
            differ(decoded)
        }
    }

    /// The received body's file, synced and closed, once the two were seen to differ (the caller
    /// still compares the whole: a body can differ piece by piece and be the same bytes); nil when
    /// they never differed, or nothing was received. Call it before `decoded` finishes: the matched
    /// prefix may still have to be read back from its file.
    mutating func finish(decoded: StreamedCapture) -> StreamedCapture.Captured? {
        if capture == nil, start < pending.count { differ(decoded) }
        defer { capture = nil }
        return capture?.finish()
    }

    /// Removes the file, if any.
    mutating func discard() {
        capture?.discard()
        capture = nil
        pending = []
        start = 0
    }

    /// The two differ: the received body's file starts with the matched prefix, then what waits.
    private mutating func differ(_ decoded: StreamedCapture) {
        let file = StreamedCapture(directory: directory)
        decoded.copy(first: matched, into: file)
        pending.withUnsafeBytes { file.write(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        pending = []
        start = 0
        capture = file
    }

    /// Whether `a` and `b` hold the same bytes, compared 32 at a time (four words, their differences
    /// joined: one branch for 32 bytes), then eight, then one by one. The generic element loop was a
    /// tenth of a 10 MiB recording, eight at a time 1.5 instructions a byte; `SIMD32`'s `!=` is ten
    /// times worse than that.
    static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var offset = 0
        while offset + 32 <= a.count {
            func difference(_ at: Int) -> UInt64 {
                a.loadUnaligned(fromByteOffset: offset + at, as: UInt64.self)
                    ^ b.loadUnaligned(fromByteOffset: offset + at, as: UInt64.self)
            }
            if difference(0) | difference(8) | difference(16) | difference(24) != 0 { return false }
            offset += 32
        }
        while offset + 8 <= a.count {
            if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset += 8
        }
        while offset < a.count {
            if a[offset] != b[offset] { return false }
            offset += 1
        }
        return true
    }
}
