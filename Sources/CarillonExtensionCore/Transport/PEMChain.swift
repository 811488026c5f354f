/// Certificates from PEM text (`-----BEGIN CERTIFICATE-----` blocks, as `openssl s_client -showcerts`
/// prints them): the chain a HAR lacks, supplied from elsewhere.
package enum PEMChain {
    /// The DER bytes of every `CERTIFICATE` block of `text`, in order (leaf first, as a server sends
    /// them); blocks whose base64 is broken are skipped.
    package static func certificates(in text: String) -> [[UInt8]] {
        var certificates: [[UInt8]] = []
        var body: String?
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let trimmed = line.trimmingSuffix(while: { $0 == " " || $0 == "\t" })
            if trimmed == "-----BEGIN CERTIFICATE-----" {
                body = ""
            } else if trimmed == "-----END CERTIFICATE-----" {
                if let text = body, let der = try? Base64.decode(text), !der.isEmpty { certificates.append(der) }
                body = nil
            } else if body != nil {
                body? += trimmed
            }
        }
        return certificates
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return String(self[startIndex..<end])
    }
}
