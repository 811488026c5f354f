internal import COpenSSL

/// SHA-256 (OpenSSL's `EVP_sha256`), fed in pieces: a recording's body names and its redaction
/// hashes. It lives here because only `Transport/` and `Download/` call OpenSSL.
package struct SHA256: ~Copyable {
    private let context: OpaquePointer

    /// A digest of nothing yet.
    package init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes`.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest of everything added, in lowercase hex (64 characters).
    package consuming func hex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest.prefix(Int(length)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The hex digest of `bytes` at once.
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var digest = SHA256()
        let array = Array(bytes)
        array.withUnsafeBytes { digest.update($0) }
        return digest.hex()
    }
}
