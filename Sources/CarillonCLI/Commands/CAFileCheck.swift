@_spi(Tooling) import CarillonExtensionCore

/// What is wrong with a `--ca-file`, decided before any payload runs: libcurl would otherwise fail
/// every download with the same TLS error, and the run would look like a server problem.
enum CAFileCheck {
    /// More than any CA bundle (the system's is about 200 KiB).
    static let limit = 16 * 1_048_576

    /// nil when the file can be read and holds at least one PEM certificate; else what is wrong.
    static func problem(_ path: String) -> String? {
        guard FileSystem.exists(path) else { return "no such file" }
        if FileSystem.isDirectory(path) { return "a directory, not a PEM file" }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, limit: limit, policy: .namedByUser)
        } catch {
            return "cannot read: \(error.reason)"
        }
        return holdsCertificate(bytes) ? nil : "holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
    }

    /// Whether `bytes` contain a PEM certificate block's first line.
    static func holdsCertificate(_ bytes: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN CERTIFICATE-----".utf8)
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if bytes[start..<start + marker.count].elementsEqual(marker) { return true }
        }
        return false
    }
}
