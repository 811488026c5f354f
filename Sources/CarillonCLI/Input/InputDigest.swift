@_spi(Tooling) import CarillonExtensionCore

/// The digest a bundle records of the whole input (SPEC §6c): every payload position in order, as its
/// name and its bytes, each with its length first, so that two runs agree exactly when they read the
/// same payloads under the same names (a path checked out elsewhere is another input: its lines would
/// name other files). Beside it, the digest of the names alone and the first name: what lets a merge say
/// that two inputs differ only by the names their paths gave (`c.jsonl` against `./c.jsonl`).
struct InputDigest: ~Copyable {
    private var all = SHA256()
    private var names = SHA256()
    private var firstName: String?

    /// Adds one payload position: its name's bytes, then its bytes, or a mark for one not read (unreadable,
    /// or standard input, which only its runner reads).
    mutating func add(name: [UInt8], displayName: String, bytes: [UInt8]?) {
        if firstName == nil { firstName = displayName }
        var framed: [UInt8] = []
        framed.reserveCapacity(name.count + (bytes?.count ?? 0) + 17)
        Self.append(name.count, to: &framed)
        framed += name
        framed.withUnsafeBytes { names.update($0) }
        if let bytes {
            framed.append(1)
            Self.append(bytes.count, to: &framed)
            framed += bytes
        } else {
            framed.append(0)
        }
        framed.withUnsafeBytes { all.update($0) }
    }

    /// The input's identity for the bundle's end line.
    consuming func identity(payloads: Int, whole: Bool) -> ResultBundle.Input {
        let first = firstName
        return ResultBundle.Input(payloads: payloads, sha256: all.hex(), whole: whole, namesSHA256: names.hex(), firstName: first)
    }

    private static func append(_ count: Int, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt64(count).littleEndian) { bytes.append(contentsOf: $0) }
    }
}
