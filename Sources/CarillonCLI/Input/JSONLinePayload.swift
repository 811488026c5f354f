@_spi(Tooling) import CarillonExtensionCore

/// One line of a JSON Lines file (SPEC §6a), as a payload of its own: named `FILE:LINE` (1-based), with
/// its bytes, or the reason it cannot be a payload (too long, or the file failed to read there).
struct JSONLinePayload: Equatable {
    /// The file's path, or nil for standard input (`-`).
    let path: String?
    let number: Int
    let bytes: [UInt8]
    /// Why this line is not read, when it is not: said in its `invalid-payload` line.
    let problem: String?
    /// `FILE:LINE`, the file shown as ``PayloadInput/name`` shows it: made once, since a payload's line,
    /// request and record each ask for it (made by interpolation at each asking it was 3,600 instructions
    /// a payload, 5% of a payload without an image).
    let name: String

    init(path: String?, number: Int, bytes: [UInt8], problem: String?) {
        self.path = path
        self.number = number
        self.bytes = bytes
        self.problem = problem
        name = (path.map { FileName.jsonText($0) } ?? "-") + ":" + String(number)
    }

    /// The exact bytes of a name that ``name`` shows escaped; nil for any other.
    var nameBytes: [UInt8]? {
        guard let path, FileName.hasEscapes(path) else { return nil }
        return FileName.bytes(path) + Array(":\(number)".utf8)
    }

    /// Whether `path` names a JSON Lines file: `.jsonl` or `.ndjson`.
    static func isJSONLines(_ path: String) -> Bool {
        path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson")
    }
}
