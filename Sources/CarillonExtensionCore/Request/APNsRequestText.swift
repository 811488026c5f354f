/// An APNs request written as text, in the three ways people write one:
/// - a request line and header lines, a blank line, the body (`POST /3/device/TOKEN HTTP/2`, or an
///   absolute URL as the target; `Host:` or `:authority` names the host);
/// - HTTP/2 pseudo-header lines instead of a request line (`:method: POST`, `:path: /3/device/…`;
///   `name = value` as well as `name: value`);
/// - the HEADERS and DATA frames of Apple's "Sending notification requests to APNs" (`HEADERS`, its
///   `- END_STREAM`/`+ END_HEADERS` flag lines, `name = value` lines, then `DATA`, its flags, the body).
///
/// The body is the bytes after the blank line (or `DATA`'s flags) without one final line break: what a
/// person's file holds beyond what would be sent.
package enum APNsRequestText {
    /// Whether `bytes` start the way a request text does (after blank lines): `HEADERS`, a pseudo-header
    /// line, or a request line (`METHOD target[ HTTP/x]`, the method in capitals).
    package static func recognises(_ bytes: [UInt8]) -> Bool {
        // The first line that is not blank, looked at as bytes: a request line or a header line is short.
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, RequestReader.isSpace(bytes[start]) { start += 1 }
        var end = start
        while end < bytes.count, end - start < 4096, bytes[end] != 0x0A { end += 1 }
        while end > start, RequestReader.isSpace(bytes[end - 1]) { end -= 1 }
        let line = bytes[start..<end]
        guard let first = line.first else { return false }
        if first == UInt8(ascii: ":") || line.elementsEqual("HEADERS".utf8) { return true }
        // METHOD target[ HTTP/x]: capitals, one space, a target that is a path or a URL.
        guard first >= 0x41 && first <= 0x5A, let space = line.firstIndex(of: 0x20), space - start <= 16,
            line[start..<space].allSatisfy({ $0 >= 0x41 && $0 <= 0x5A })
        else { return false }
        return requestLine(String(decoding: line, as: UTF8.self)) != nil
    }

    /// Reads the request.
    ///
    /// - Throws: ``RequestProblem`` naming the line at fault: a header line without a name, no method or
    ///   no path.
    package static func read(_ bytes: [UInt8]) throws(RequestProblem) -> APNsRequest {
        var lines = Lines(bytes)
        guard let first = lines.nextNonBlank() else { throw RequestProblem("no request line") }
        var method: String?
        var target: RequestTarget?
        var version: String?
        let frames = first.text == "HEADERS"
        if let (requestMethod, targetText, requestVersion) = requestLine(first.text) {
            method = requestMethod
            target = RequestTarget(url: targetText)
            version = requestVersion
        } else if !frames {
            lines.rewind(to: first)
        }
        var fields: [HTTPField] = []
        while let line = lines.next() {
            let text = line.text.trimmingBlanks
            if text.isEmpty && !frames { break }
            if frames && (text.hasPrefix("+ ") || text.hasPrefix("- ") || text.isEmpty) { continue }
            if frames && text == "DATA" {
                lines.skipFlagLines()
                break
            }
            guard let field = headerField(text) else {
                throw RequestProblem("line \(line.number): \(Quoting.single(text, limit: 60)) is not a header line (name: value)")
            }
            fields.append(field)
        }
        var request = try assemble(method: method, target: target, fields: fields, body: lines.rest)
        request.httpVersion = version.flatMap { $0 == "2" || $0 == "2.0" ? nil : $0 }
        return request
    }

    /// The request from the parts read: pseudo-headers become the method and target; `Host` the host.
    private static func assemble(method: String?, target: RequestTarget?, fields: [HTTPField], body: [UInt8])
        throws(RequestProblem) -> APNsRequest
    {
        var method = method
        var target = target
        var headers: [HTTPField] = []
        var authority: String?
        var scheme: String?
        for field in fields {
            switch field.name.lowercased() {
            case ":method": method = field.value
            case ":path": target = RequestTarget(scheme: target?.scheme, host: target?.host, port: target?.port, path: field.value)
            case ":authority": authority = field.value
            case ":scheme": scheme = field.value.lowercased()
            case "host":
                authority = authority ?? field.value
                headers.append(field)
            default: headers.append(field)
            }
        }
        guard let method else { throw RequestProblem("no method: neither a request line nor a :method line") }
        guard var resolved = target else { throw RequestProblem("no path: neither a request line nor a :path line") }
        if resolved.host == nil, let authority {
            let parsed = RequestTarget(url: "https://" + authority)
            resolved.host = parsed.host
            resolved.port = parsed.port
        }
        resolved.scheme = resolved.scheme ?? scheme ?? (resolved.host == nil ? nil : "https")
        return APNsRequest(form: .apnsText, method: method, target: resolved, headers: headers, body: withoutFinalLineBreak(body))
    }

    /// `name: value`, `:pseudo: value`, or `name = value`.
    static func headerField(_ text: String) -> HTTPField? {
        let searchFrom = text.hasPrefix(":") ? text.index(after: text.startIndex) : text.startIndex
        let colon = text[searchFrom...].firstIndex(of: ":")
        let equals = text[searchFrom...].firstRange(of: " = ")?.lowerBound
        guard let split = [colon, equals].compactMap({ $0 }).min() else { return nil }
        let name = String(text[..<split]).trimmingBlanks
        let valueStart = text.index(split, offsetBy: split == equals ? 3 : 1)
        let value = String(text[valueStart...]).trimmingBlanks
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        return HTTPField(name: name, value: value)
    }

    /// `METHOD target[ HTTP/x]`: the method in capital letters, then the target, then the version.
    static func requestLine(_ line: String) -> (method: String, target: String, version: String?)? {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 || parts.count == 3, let method = parts.first, method.count <= 16,
            method.allSatisfy({ $0.isASCII && $0.isUppercase }), parts[1].hasPrefix("/") || parts[1].contains("://")
        else { return nil }
        if parts.count == 3 {
            guard parts[2].hasPrefix("HTTP/") else { return nil }
            return (String(method), String(parts[1]), String(parts[2].dropFirst(5)))
        }
        return (String(method), String(parts[1]), nil)
    }

    /// `body` without one final `\n` or `\r\n`.
    static func withoutFinalLineBreak(_ body: [UInt8]) -> [UInt8] {
        guard body.last == 0x0A else { return body }
        return Array(body.dropLast(body.count >= 2 && body[body.count - 2] == 0x0D ? 2 : 1))
    }

    /// The text's lines, read one at a time, the rest available as bytes.
    private struct Lines {
        let bytes: [UInt8]
        var position = 0
        var number = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        struct Line {
            var text: String
            var number: Int
            var start: Int
        }

        mutating func next() -> Line? {
            guard position < bytes.count else { return nil }
            let start = position
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            position = min(end + 1, bytes.count)
            number += 1
            let content = bytes[start..<end].last == 0x0D ? bytes[start..<(end - 1)] : bytes[start..<end]
            return Line(text: String(decoding: content, as: UTF8.self), number: number, start: start)
        }

        mutating func nextNonBlank() -> Line? {
            while let line = next() {
                if !line.text.trimmingBlanks.isEmpty { return line }
            }
            return nil
        }

        mutating func rewind(to line: Line) {
            position = line.start
            number = line.number - 1
        }

        /// After `DATA`: its `+ END_STREAM`-style flag lines.
        mutating func skipFlagLines() {
            while position < bytes.count {
                let saved = (position, number)
                guard let line = next() else { return }
                let text = line.text.trimmingBlanks
                if !(text.hasPrefix("+ ") || text.hasPrefix("- ")) {
                    (position, number) = saved
                    return
                }
            }
        }

        var rest: [UInt8] { Array(bytes[position...]) }
    }
}
