/// The decoded body of an entry's response, as far as the HAR can give it (``HARBodyReading``).
package enum HARBody: Sendable, Equatable {
    /// The bytes the client operated on (already decoded from any `Content-Encoding`); `note` says how
    /// they were recovered when the exporter did not say (base64 without `encoding`, Latin-1 text).
    case bytes([UInt8], note: String?)
    /// The body is in a file beside the HAR (`content._file`), named relative to it.
    case file(String)
    /// The text is longer than any body under the cap: more than `atLeast` bytes, refused before decoding.
    case overCap(atLeast: Int, detail: String)
    /// The exporter left the body out; the words say which entry and why.
    case missing(String)
    /// A body is there but cannot be read as bytes (an encoding HAR does not define, text in an image
    /// entry, bad base64); the words say which entry and why.
    case undetermined(String)
}

/// Turns an entry's `content` into body bytes under a cap, following what each exporter is known to do
/// (design §5.5, step 5). Never decodes a `Content-Encoding`: HAR text is already decoded.
package enum HARBodyReading {
    /// The body of `entry`'s response.
    ///
    /// - Parameters:
    ///   - entry: the entry.
    ///   - exporter: who wrote the file.
    ///   - cap: the most bytes the body may have; longer text is refused before it is decoded.
    ///   - latin1: read image text without an `encoding` as Latin-1 (ProxyPin's way of writing bytes).
    package static func read(_ entry: HAREntry, exporter: HARExporter, cap: Int, latin1: Bool = false) -> HARBody {
        let name = describe(entry)
        guard let response = entry.response else { return .missing("\(name) has no response") }
        let content = response.content
        if let problem = content.problem { return .undetermined("\(name): \(problem)") }
        guard let text = content.text else {
            if let file = content.file { return .file(file) }
            return .missing(missingExplanation(name, content: content, exporter: exporter))
        }
        switch content.encoding?.lowercased() {
        case "base64":
            return decodeBase64(text, name: name, cap: cap, note: nil)
        case nil, "":
            return readUnencoded(text, entry: entry, name: name, exporter: exporter, cap: cap, latin1: latin1)
        case let other?:
            let polly = exporter == .polly || other == "hex" ? " (Polly.js wrote hex before version 6)" : ""
            return .undetermined("\(name) holds its body in encoding \(Quoting.single(other)), which HAR does not define\(polly)")
        }
    }

    /// "entry 4 (image/png, 48213 bytes)": how a detail names an entry.
    package static func describe(_ entry: HAREntry) -> String {
        var facts: [String] = []
        if let mime = entry.mimeType { facts.append(mime) }
        if let size = entry.response?.content.size, size > 0 { facts.append("\(size) bytes") }
        return "entry \(entry.index)" + (facts.isEmpty ? "" : " (\(facts.joined(separator: ", ")))")
    }

    private static func missingExplanation(_ name: String, content: HARContent, exporter: HARExporter) -> String {
        if let comment = content.comment, !comment.isEmpty {
            return "\(name) has no body: \(Quoting.single(comment))"
        }
        if let why = exporter.missingBodyExplanation { return "\(name) has no body: \(why)" }
        return "\(name) has no body: \(exporter.displayName) left it out"
    }

    private static func decodeBase64(_ text: String, name: String, cap: Int, note: String?) -> HARBody {
        if Base64.exceeds(text, cap: cap) {
            let length = Base64.significantLength(text)
            // Every four characters are three bytes, less at most two of padding in the last group.
            let atLeast = length / 4 * 3 - 2
            return .overCap(atLeast: atLeast, detail: "\(name) holds \(length) characters of base64: more than \(cap) bytes")
        }
        do {
            return .bytes(try Base64.decode(text), note: note)
        } catch {
            return .undetermined("\(name) has a body that is not valid base64: \(error.message)")
        }
    }

    private static func readUnencoded(
        _ text: String, entry: HAREntry, name: String, exporter: HARExporter, cap: Int, latin1: Bool
    ) -> HARBody {
        if text.isEmpty {
            if let announced = announcedLength(entry), announced > 0 {
                return .missing(
                    "\(name) has an empty text where Content-Length announces \(announced) bytes: a body left out, not an empty one")
            }
            return .bytes([], note: nil)
        }
        let mime = entry.mimeType ?? ""
        guard !isText(mime) else {
            let count = text.utf8.count
            if count > cap { return .overCap(atLeast: count, detail: "\(name) holds \(count) bytes of text: more than \(cap) bytes") }
            return .bytes(Array(text.utf8), note: nil)
        }
        if looksLikeBase64Image(text) {
            return decodeBase64(
                text, name: name, cap: cap, note: "\(name) has no encoding but its text is an image in base64 (older Chrome)")
        }
        if latin1 {
            var bytes: [UInt8] = []
            for scalar in text.unicodeScalars {
                guard scalar.value <= 0xFF else {
                    return .undetermined("\(name) is not Latin-1 text: it holds U+\(String(scalar.value, radix: 16, uppercase: true))")
                }
                guard bytes.count < cap else {
                    return .overCap(atLeast: bytes.count + 1, detail: "\(name) holds more than \(cap) Latin-1 characters")
                }
                bytes.append(UInt8(scalar.value))
            }
            return .bytes(bytes, note: "\(name)'s text was read as Latin-1 bytes")
        }
        let how = exporter == .proxyPin ? ": ProxyPin writes image bytes as Latin-1 characters" : ""
        let kind = mime.isEmpty ? "an entry without a type" : mime
        return .undetermined("\(name) holds its body as text with no encoding in \(kind): \(exporter.displayName) did not base64 it\(how)")
    }

    /// The response's one `Content-Length`, when it has exactly one number.
    static func announcedLength(_ entry: HAREntry) -> Int? {
        let values = entry.response?.message.values("Content-Length") ?? []
        guard values.count == 1 else { return nil }
        return Int(values[0].filter { $0 != " " })
    }

    private static func isText(_ mime: String) -> Bool {
        mime.hasPrefix("text/") || mime.hasSuffix("json") || mime.hasSuffix("xml") || mime.contains("javascript")
            || mime.hasSuffix("+json") || mime.hasSuffix("+xml")
    }

    /// Base64 that starts as a PNG, JPEG or GIF does: `iVBORw0KGgo`, `/9j/`, `R0lGOD`.
    private static func looksLikeBase64Image(_ text: String) -> Bool {
        text.hasPrefix("iVBORw0KGgo") || text.hasPrefix("/9j/") || text.hasPrefix("R0lGOD")
    }
}
