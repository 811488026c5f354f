@_spi(Tooling) import CarillonExtensionCore

/// The process environment, read without Foundation.
enum Environment {
    static func value(_ name: String) -> String? {
        // As bytes (see FileName): a TMPDIR that is not UTF-8 must still name its directory.
        system_getenv(name).map {
            FileName.string(
                fromBytes: UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: system_strlen($0)))
        }
    }
}
