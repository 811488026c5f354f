@_spi(Tooling) import CarillonExtensionCore

/// The digest a bundle records of the whole input (SPEC §6c): every payload position in order, as its
/// name and its bytes, each with its length first, so that two runs agree exactly when they read the
/// same payloads under the same names (a path checked out elsewhere is another input: its lines would
/// name other files).
enum InputDigest {
    /// Adds one payload position: its name's bytes, then its bytes, or a mark for one not read (unreadable,
    /// or standard input, which only its runner reads).
    static func add(name: [UInt8], bytes: [UInt8]?, to digest: inout SHA256?) {
        var framed: [UInt8] = []
        framed.reserveCapacity(name.count + (bytes?.count ?? 0) + 17)
        append(name.count, to: &framed)
        framed += name
        if let bytes {
            framed.append(1)
            append(bytes.count, to: &framed)
            framed += bytes
        } else {
            framed.append(0)
        }
        framed.withUnsafeBytes { digest?.update($0) }
    }

    private static func append(_ count: Int, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt64(count).littleEndian) { bytes.append(contentsOf: $0) }
    }
}
