/// What a recording keeps secret, as pure functions: values replaced by a stable short hash
/// (`[redacted:<first 8 hex of SHA-256>]`), names kept, the same way everywhere a value appears, so
/// that two hops with the same token still correlate and a reader learns nothing.
///
/// A replay redacts its own side the same way before matching, so a payload still carrying the live
/// token matches its recording.
package enum Redaction {
    /// Request and response fields whose value is always a secret.
    package static let secretFields: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// The query parameters of signed URLs (S3, Google Cloud Storage, CloudFront, Akamai, common tokens).
    package static let secretParameters: Set<String> = [
        "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature", "x-goog-credential", "signature",
        "key-pair-id", "policy", "sig", "token", "access_token", "hdnts", "hdnea", "auth", "key", "api_key",
    ]

    /// The words that make an extra request field's name look secret.
    static let secretWords = ["auth", "token", "key", "secret", "session", "cookie"]

    /// `[redacted:3f9a1c2e]`: the value's stand-in, the same for the same value.
    package static func replacement(_ value: String) -> String {
        "[redacted:\(SHA256.hex(value.utf8).prefix(8))]"
    }

    /// Whether a field called `name` carries a secret: always for ``secretFields``; for a field the
    /// caller added to the request (`extra`), also when its name contains a secret-looking word.
    package static func isSecretField(_ name: String, extra: Bool = false) -> Bool {
        let lowered = name.lowercased()
        if secretFields.contains(lowered) { return true }
        return extra && secretWords.contains { lowered.contains($0) }
    }

    /// The secret values in `url`'s query (the raw text between `=` and the next `&` or `#` of each
    /// parameter named in ``secretParameters``, case-insensitively), in order.
    package static func secrets(inURL url: String) -> [String] {
        guard let question = url.firstIndex(of: "?") else { return [] }
        var query = url[url.index(after: question)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        return query.split(separator: "&").compactMap { pair -> String? in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            let name = String(pair[..<equals]).removingPercentEncodingLoosely().lowercased()
            let value = String(pair[equals...].dropFirst())
            return secretParameters.contains(name) && !value.isEmpty ? value : nil
        }
    }

    /// `text` with every occurrence of each of `secrets` replaced by its ``replacement(_:)``, longest
    /// first (so that a secret containing another is replaced whole).
    package static func redact(_ text: String, secrets: some Collection<String>) -> String {
        var result = text
        for secret in secrets.filter({ !$0.isEmpty }).sorted(by: { $0.utf8.count > $1.utf8.count }) where result.contains(secret) {
            result = result.replacing(secret, with: replacement(secret))
        }
        return result
    }

    /// `"[redacted: 12 chars]"`: an alert string's stand-in, keeping its emptiness and length for the
    /// routing rule and nothing else.
    package static func alertReplacement(_ text: String) -> String {
        "[redacted: \(text.count) chars]"
    }

    /// A payload's `aps.alert` with every string in it replaced by ``alertReplacement(_:)`` (the alert
    /// may be a string or a dictionary of strings); the rest of `payload` as it is.
    package static func redactAlert(_ payload: JSONValue) -> JSONValue {
        guard case .object(let members) = payload else { return payload }
        return .object(
            members.map { member in
                guard member.key == "aps", case .object(let aps) = member.value else { return member }
                return (
                    member.key,
                    .object(aps.map { field in field.key == "alert" ? (field.key, Redaction.strings(field.value)) : field })
                )
            })
    }

    /// A payload as a recording keeps it: ``redactAlert(_:)``, and each string value of a top-level key
    /// other than `aps` and `carillon` cut to its first 64 characters (the hints need the names, not
    /// the values, and such values are often personal).
    package static func redactPayload(_ payload: JSONValue) -> JSONValue {
        guard case .object(let members) = redactAlert(payload) else { return payload }
        return .object(
            members.map { member in
                guard member.key != "aps", member.key != "carillon", case .string(let text) = member.value, text.count > 64 else {
                    return member
                }
                return (member.key, .string(String(text.prefix(64)) + "[… \(text.count - 64) chars cut]"))
            })
    }

    private static func strings(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(alertReplacement(text))
        case .array(let items): .array(items.map(strings))
        case .object(let members): .object(members.map { ($0.key, strings($0.value)) })
        default: value
        }
    }
}

extension String {
    /// `%XX` sequences decoded where they form UTF-8, left as they are otherwise: enough to compare a
    /// parameter's name.
    fileprivate func removingPercentEncodingLoosely() -> String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var iterator = Array(utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
