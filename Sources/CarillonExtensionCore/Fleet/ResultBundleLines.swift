/// Cuts a bundle's bytes, fed in chunks, into lines (each ending in LF), with the offset each starts
/// at, holding at most one line of at most ``ResultBundle/maximumLineBytes``.
struct ResultBundleLines {
    private var current: [UInt8] = []
    private var start = 0
    private(set) var offset = 0
    private(set) var number = 0

    /// Feeds a chunk; `emit` gets each line it completes (without its LF), its 1-based number and offset.
    mutating func feed(
        _ chunk: UnsafeBufferPointer<UInt8>, _ emit: (_ line: [UInt8], _ number: Int, _ offset: Int) throws(ResultBundleError) -> Void
    ) throws(ResultBundleError) {
        var from = 0
        while from < chunk.count {
            let rest = UnsafeBufferPointer(rebasing: chunk[from...])
            guard let newline = rest.firstIndex(of: 0x0A) else {
                try append(rest)
                offset += rest.count
                return
            }
            try append(UnsafeBufferPointer(rebasing: rest[..<newline]))
            offset += newline + 1
            number += 1
            let line = current
            current.removeAll(keepingCapacity: true)
            try emit(line, number, start)
            start = offset
            from += newline + 1
        }
    }

    /// Ends the input: bytes after the last LF are a line cut short.
    func finish() throws(ResultBundleError) {
        guard current.isEmpty else {
            throw ResultBundleError("cut short: it ends inside a line, \(current.count) bytes after the last line end", line: number + 1)
        }
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) throws(ResultBundleError) {
        guard current.count + bytes.count <= ResultBundle.maximumLineBytes else {
            throw ResultBundleError("a line longer than the \(ResultBundle.maximumLineBytes)-byte limit", line: number + 1)
        }
        current.append(contentsOf: bytes)
    }
}
