/// How a replay cuts a recorded decoded body into the pieces it feeds: 64 KiB pieces, except that the
/// recorded last piece (``RecordedHop/lastPiece``: the one that passed the cap live, or that the sink
/// refused) is fed whole, at its recorded size. The decisions before it see every earlier byte, and
/// the cap then stops on the same piece as live, with the same counts (kept and received).
struct RecordedPieces {
    /// The largest last piece believed: libcurl hands over at most its receive buffer (100 KiB here) at
    /// once; a larger figure in a hostile file is ignored rather than buffered.
    static let maximumLastPiece = 1 << 20

    /// Bytes from here on form the last piece.
    private let split: Int
    private var offset = 0
    private var tail: [UInt8] = []

    /// Pieces for a body of `total` bytes whose last piece had `lastPiece` bytes (nil: not recorded).
    init(total: Int, lastPiece: Int?) {
        let last = lastPiece.map { $0 <= RecordedPieces.maximumLastPiece ? min(max($0, 0), total) : 0 } ?? 0
        split = total - last
    }

    /// Feeds `bytes` (the next ones of the body, at most 64 KiB) to `emit`: what comes before the last
    /// piece at once, the rest kept for ``finish(_:)``. Returns false when `emit` asked to stop.
    mutating func add(_ bytes: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        let before = max(0, min(bytes.count, split - offset))
        offset += bytes.count
        if before < bytes.count { tail.append(contentsOf: bytes[before...]) }
        return before == 0 || emit(UnsafeRawBufferPointer(rebasing: bytes[..<before]))
    }

    /// Feeds the last piece, whole. Returns false when `emit` asked to stop.
    mutating func finish(_ emit: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        defer { tail = [] }
        return tail.isEmpty || tail.withUnsafeBytes { emit($0) }
    }

    /// Feeds a body held in memory to `feed`; returns false when the feed stopped it.
    static func feed(_ bytes: [UInt8], lastPiece: Int?, into feed: TransferFeed) -> Bool {
        var pieces = RecordedPieces(total: bytes.count, lastPiece: lastPiece)
        return bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(offset + 65_536, all.count)
                guard pieces.add(UnsafeRawBufferPointer(rebasing: all[offset..<end]), feed.body) else { return false }
                offset = end
            }
            return pieces.finish(feed.body)
        }
    }

    /// Feeds a body kept in a file to `feed`, read in pieces, its first `limit` bytes at most when
    /// given; returns false when the feed stopped it.
    static func feed(file path: String, lastPiece: Int?, limit: Int? = nil, into feed: TransferFeed) throws(FileSystemError) -> Bool {
        let total = min(FileSystem.size(path) ?? 0, limit ?? .max)
        var pieces = RecordedPieces(total: total, lastPiece: lastPiece)
        var going = true
        var left = total
        try FileSystem.readChunks(ofRegularFile: path) { chunk in
            let piece = UnsafeRawBufferPointer(chunk)
            let taken = UnsafeRawBufferPointer(rebasing: piece[..<min(piece.count, left)])
            left -= taken.count
            going = taken.isEmpty || pieces.add(taken, feed.body)
            return going && left > 0
        }
        return going && pieces.finish(feed.body)
    }
}
