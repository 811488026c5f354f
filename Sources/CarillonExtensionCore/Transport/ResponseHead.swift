/// The status line and header fields of one HTTP response, collected line by line from libcurl's
/// header callback, and what the downloader does with the response (SPEC §2), decided from them alone.
struct ResponseHead: Sendable, Equatable {
    struct Field: Sendable, Equatable {
        var name: String
        var value: String
    }

    /// The status line as received, without its line ending.
    var statusLine = ""
    /// The status code (0 until a status line was read).
    var status = 0
    var fields: [Field] = []
    /// The blank line after the fields arrived; any line after it is a trailer and is ignored.
    var isComplete = false

    /// Adds one line as libcurl hands it over (with its CR LF). Returns true when this line completed
    /// the head of a final (non-1xx) response.
    ///
    /// The ASCII the syntax is made of (CR LF, `:`, spaces, tabs) is found in the UTF-8 rather than by
    /// `Character`s, which cost far more (TestAssets/Bench/README.md, "Measurements behind the code").
    mutating func add(line raw: Substring) -> Bool {
        guard !isComplete else { return false }
        var line = raw
        while let last = line.utf8.last, last == 0x0A || last == 0x0D { line = line.dropLastByte() }
        while let last = line.last, last.isNewline { line = line.dropLast() }  // any other line ending
        if statusLine.isEmpty {
            statusLine = String(line)
            status = ResponseHead.statusCode(statusLine) ?? 0
            return false
        }
        if line.isEmpty {
            // An interim 1xx response (100 Continue, 103 Early Hints) is followed by the real one.
            if (100..<200).contains(status) && status != 101 {
                self = ResponseHead()
                return false
            }
            isComplete = true
            return true
        }
        if let first = line.first, first == " " || first == "\t", !fields.isEmpty {
            // Obsolete line folding: a continuation of the previous field.
            fields[fields.count - 1].value += " " + line.trimmed()
            return false
        }
        guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        fields.append(Field(name: String(line[..<colon]), value: String(line[line.index(after: colon)...].trimmed())))
        return false
    }

    /// "HTTP/1.1 200 OK" → 200; nil when the line is not an HTTP status line.
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3,
            parts[1].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return Int(parts[1])
    }

    /// Every value of every field called `name` (case-insensitive), in order.
    func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { ResponseHead.sameName($0.name, lowercased: wanted) }.map(\.value)
    }

    /// Whether `name` lowercased is `wanted`: byte by byte for ASCII names (all real ones), by
    /// `lowercased()` otherwise (where a character such as the Kelvin sign lowercases to ASCII).
    static func sameName(_ name: String, lowercased wanted: String) -> Bool {
        let bytes = name.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return name.lowercased() == wanted }
        guard bytes.count == wanted.utf8.count else { return false }
        return zip(bytes, wanted.utf8).allSatisfy { byte, other in
            (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) == other
        }
    }

    /// The elements of a comma-separated list field over all its occurrences (RFC 9110 §5.6.1: empty
    /// elements do not count).
    func listElements(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }.map { String($0.trimmed()) }.filter { !$0.isEmpty }
    }

    /// The first `Location` value, if any.
    var location: String? { values("Location").first }

    /// What to do with a response.
    enum Disposition: Sendable, Equatable {
        /// A 200 whose body is the image: its announced length, if any (wire bytes), and the content
        /// codings it was sent in, lowercased, in the order they were applied (identity left out).
        case image(announcedLength: Int?, codings: [String] = [])
        /// A redirect to follow (301, 302, 303, 307, 308), decided on its head: its body is never waited for.
        case redirect
        /// Refused before its body.
        case refused(Outcome)
    }

    /// The content codings `URLSession` decodes (and asks for).
    static let decodedCodings: Set<String> = ["gzip", "deflate", "br"]

    /// Decides what to do with this response, in this order: the status (a non-200 is `http-status`
    /// whatever it announces), the framing (`network`), then the codings (`content-encoding` for one
    /// `URLSession` does not decode), then the announced length against `cap` (`too-large`).
    ///
    /// The announced length is compared with the cap only for an identity body: with a content coding,
    /// `Content-Length` counts the encoded bytes, which say nothing certain about the decoded size the
    /// cap is about (a 10 MiB image gzips to less, a bomb to a thousandth). Such a body is cut the
    /// moment its decoded bytes pass the cap instead.
    func disposition(cap: Int) -> Disposition {
        if RedirectRule.followed.contains(status) { return .redirect }
        guard status == 200 else { return .refused(Outcome(.httpStatus, RedirectRule.statusDetail(status))) }

        let transferCodings = listElements("Transfer-Encoding")
        if !transferCodings.isEmpty && transferCodings.map({ $0.lowercased() }) != ["chunked"] {
            let given = values("Transfer-Encoding").map { Quoting.single($0) }.joined(separator: ", ")
            return .refused(
                Outcome(.network, "malformed response: Transfer-Encoding \(given); only chunked is a transfer coding HTTP/1.1 clients take")
            )
        }
        var length: Int?
        if transferCodings.isEmpty {
            let lengths = listElements("Content-Length")
            if let bad = lengths.first(where: { !$0.allSatisfy({ $0.isASCII && $0.isNumber }) || Int($0) == nil }) {
                return .refused(Outcome(.network, "malformed response: Content-Length \(Quoting.single(bad)) is not a number"))
            }
            let distinct = lengths.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            if distinct.count > 1 {
                let given = distinct.map { Quoting.single($0) }.joined(separator: " and ")
                return .refused(Outcome(.network, "malformed response: conflicting Content-Length values \(given)"))
            }
            length = distinct.first.flatMap { Int($0) }
        }
        let codings = listElements("Content-Encoding").map { $0.lowercased() }.filter { $0 != "identity" }
        if let unknown = codings.first(where: { !ResponseHead.decodedCodings.contains($0) }) {
            let given = values("Content-Encoding").map { Quoting.single($0) }.joined(separator: ", ")
            return .refused(
                Outcome(
                    .contentEncoding,
                    "response has Content-Encoding \(given): \(Quoting.single(unknown)) is a coding URLSession does not decode (it decodes gzip, deflate and br)"
                ))
        }
        if codings.isEmpty, let length, length > cap {
            return .refused(
                Outcome(
                    .tooLarge,
                    "announced Content-Length \(length) is over the \(DownloadLimits.describe(bytes: cap)) cap; refused before the body"))
        }
        return .image(announcedLength: length, codings: codings)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmed() -> Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }

    /// Without its last UTF-8 byte, which must be ASCII (so the cut is between characters' scalars).
    fileprivate func dropLastByte() -> Substring {
        self[..<utf8.index(before: utf8.endIndex)]
    }
}
