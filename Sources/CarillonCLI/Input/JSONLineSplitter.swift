/// Cuts a stream of bytes into JSON Lines, chunk by chunk, holding at most one line.
///
/// Lines end at LF; a CR before it is dropped (CRLF files), a UTF-8 byte order mark at the very start
/// is dropped, blank lines (only spaces, tabs or a CR) are skipped but counted, and a last line without
/// a final newline is still a line (``finish()``). A line longer than `limit` is not kept: its bytes
/// are counted and dropped as they come, and it is handed on as too long.
struct JSONLineSplitter {
    /// One line: its 1-based number in the file, and its bytes, or how long it was when over the limit.
    struct Line: Equatable {
        var number: Int
        var bytes: [UInt8]
        /// The line's length when it was over the limit (then `bytes` is empty).
        var overLimit: Int?
    }

    let limit: Int
    private var current: [UInt8] = []
    private var droppedLength: Int?
    private var number = 0
    private var atStart = true
    private var pendingBOM: [UInt8] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Feeds a chunk; `emit` receives every line it completes, in order.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (Line) -> Void) {
        var start = 0
        if atStart {
            // The mark may be split across chunks: hold up to its three bytes until it is decided.
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            while start < chunk.count && pendingBOM.count < 3 && chunk[start] == bom[pendingBOM.count] {
                pendingBOM.append(chunk[start])
                start += 1
            }
            if pendingBOM.count == 3 {
                atStart = false
            } else if start < chunk.count {
                atStart = false
                append(pendingBOM[...])  // not a mark after all: those bytes are the line's
            } else {
                return
            }
            pendingBOM = []
        }
        while start < chunk.count {
            let rest = UnsafeBufferPointer(rebasing: chunk[start...])
            guard let newline = rest.firstIndex(of: 0x0A) else {
                append(rest[...])
                return
            }
            append(rest[..<newline])
            end(emit)
            start += newline + 1
        }
    }

    /// Ends the input: a last line without a newline is handed on too.
    mutating func finish(_ emit: (Line) -> Void) {
        if atStart && !pendingBOM.isEmpty { append(pendingBOM[...]) }
        pendingBOM = []
        if !current.isEmpty || droppedLength != nil { end(emit) }
    }

    private mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if let dropped = droppedLength {
            droppedLength = dropped + bytes.count
        } else if current.count + bytes.count > limit + 1 {
            // +1: a CR before the newline is not the line's.
            droppedLength = current.count + bytes.count
            current = []
        } else {
            current.append(contentsOf: bytes)
        }
    }

    private mutating func end(_ emit: (Line) -> Void) {
        number += 1
        defer {
            current.removeAll(keepingCapacity: current.count <= 64 * 1024)
            droppedLength = nil
        }
        if let length = droppedLength {
            emit(Line(number: number, bytes: [], overLimit: length))
            return
        }
        if current.last == 0x0D { current.removeLast() }
        if current.count > limit {
            emit(Line(number: number, bytes: [], overLimit: current.count))
            return
        }
        guard current.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        emit(Line(number: number, bytes: current, overLimit: nil))
    }
}
