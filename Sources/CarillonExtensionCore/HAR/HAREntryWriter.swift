/// The HAR 1.2 entries of one recorded download, one per hop, with their `_carillon` extensions
/// (DESIGN-replay §5.3): the raw head, the decoded body's size and digest, the arrival samples, the
/// end state and the trace's cumulative timings beside HAR's durations.
enum HAREntryWriter {
    /// Where the final response's decoded body went.
    enum Body {
        case none
        /// Base64 of the decoded body, inline.
        case inline(String)
        /// A file beside the recording, relative to it (`bodies/<sha256>.<ext>`).
        case file(String)
    }

    /// The entries of `download`: the final one holds `body` and, when given, `wire` (the body as
    /// received, `_carillon.wire`); `relaxed`: each is marked as the request asked again with relaxed TLS rules.
    static func entries(
        _ download: RecordedDownload, body: Body, wire: Body = .none, relaxed: Bool = false, redact: (JSONValue) -> JSONValue
    ) -> [JSONValue] {
        var startMilliseconds = 0
        return download.transfer.hops.enumerated().map { index, hop in
            let last = index == download.transfer.hops.count - 1
            let started = download.startedAt.adding(.milliseconds(startMilliseconds))
            let timings = DownloadTrace.Timings.cumulative(
                microseconds: Array(hop.microseconds.prefix(4)), total: hop.microseconds.count > 4 ? hop.microseconds[4] : 0)
            startMilliseconds = hop.endMilliseconds
            let sent = index < download.sentRequests.count ? download.sentRequests[index] : []
            var carillon = HARCarillon.Entry()
            carillon.hop = index + 1
            carillon.remote = hop.remote
            carillon.headRaw = headRaw(hop, redact: redact)
            carillon.wire = last ? wireObject(download, wire) : nil
            carillon.wireBytes = hop.wireBytes
            carillon.decoded = last ? .init(bytes: download.bodyBytes, sha256: download.bodySHA256, lastPiece: download.lastPiece) : nil
            carillon.arrival = last ? download.arrival : []
            carillon.end = RecordedHop.End(curlCode: hop.end.curlCode, message: hop.end.message, cancelled: hop.end.cancelled)
            carillon.timings = timings
            carillon.relaxedTLS = relaxed
            return entry(
                hop, started: started, timings: timings,
                requestHeaders: sent.isEmpty ? configuredRequest(hop, download.requestHeaders) : sent.map { pair($0.name, $0.value) },
                body: last ? body : .none, decodedBytes: last ? download.bodyBytes : 0, carillon: carillon)
        }
    }

    /// The request as configured, when libcurl did not say what it sent: Host, then the fields.
    private static func configuredRequest(_ hop: RecordedHop, _ fields: [HTTPField]) -> [JSONValue] {
        [pair("Host", hostHeader(hop.url))] + fields.map { pair($0.name, $0.value) }
    }

    /// `_carillon.wire`: the body as received, its exact size and SHA-256, in a file or inline in
    /// base64 (as the decoded body is placed); null when it is the decoded body's bytes.
    private static func wireObject(_ download: RecordedDownload, _ wire: Body) -> HARCarillon.Entry.Wire? {
        guard let received = download.wire else { return nil }
        let place: HARCarillon.Entry.Place =
            switch wire {
            case .none: .notKept
            case .inline(let text): .inline(base64: text)
            case .file(let path): .file(path)
            }
        return .init(bytes: received.bytes, sha256: received.sha256, place: place)
    }

    /// `_carillon.head_raw`: base64 of the head's redacted text (a secret in a Set-Cookie line must not
    /// ride along encoded); synthesized by libcurl over HTTP/2 and HTTP/3.
    private static func headRaw(_ hop: RecordedHop, redact: (JSONValue) -> JSONValue) -> (base64: String, synthesized: Bool)? {
        guard let raw = hop.rawHead, case .string(let redacted) = redact(.string(String(decoding: raw, as: UTF8.self))) else {
            return nil
        }
        return (Base64.encode(Array(redacted.utf8)), hop.httpVersion == "2" || hop.httpVersion == "3")
    }

    private static func entry(
        _ hop: RecordedHop, started: Timestamp, timings: DownloadTrace.Timings, requestHeaders: [JSONValue], body: Body,
        decodedBytes: Int, carillon: HARCarillon.Entry
    ) -> JSONValue {
        let version = httpVersion(hop.httpVersion)
        let status = ResponseStatus(hop.statusLine)
        let location = hop.fields.first { $0.name.lowercased() == "location" }?.value ?? ""
        let mimeType = hop.fields.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        var content: [(key: String, value: JSONValue)] = [("size", .number(String(decodedBytes))), ("mimeType", .string(mimeType))]
        switch body {
        case .none: break
        case .inline(let text): content += [("text", .string(text)), ("encoding", "base64")]
        case .file(let path): content.append(("_file", .string(path)))
        }
        var members: [(key: String, value: JSONValue)] = [
            ("startedDateTime", .string(started.iso8601)),
            ("time", HARCarillon.milliseconds(timings.total)),
            (
                "request",
                [
                    "method": "GET", "url": .string(hop.url), "httpVersion": .string(version), "cookies": [],
                    "headers": .array(requestHeaders), "queryString": .array(queryString(hop.url)), "headersSize": -1, "bodySize": 0,
                ]
            ),
            (
                "response",
                [
                    "status": .number(String(status.code)), "statusText": .string(status.text), "httpVersion": .string(version),
                    "cookies": [], "headers": .array(hop.fields.map { pair($0.name, $0.value) }),
                    "content": .object(content), "redirectURL": .string(location),
                    "headersSize": .number(String(hop.rawHead?.count ?? -1)), "bodySize": .number(String(hop.wireBytes ?? -1)),
                ]
            ),
            ("cache", [:]),
            ("timings", harTimings(timings, newConnection: hop.newConnection)),
            ("serverIPAddress", .string(serverIP(hop.remote))),
        ]
        // HAR's `connection` is an optional string: left out when the request had none.
        if let connection = hop.connection { members.append(("connection", .string(connection))) }
        members.append((HARCarillon.member, carillon.json))
        return .object(members)
    }

    /// HAR's durations from the trace's cumulative figures: `connect` includes `ssl`; -1 where not
    /// applicable (a reused connection); send, wait and receive never negative.
    static func harTimings(_ timings: DownloadTrace.Timings, newConnection: Bool) -> JSONValue {
        let dns = timings.dns ?? 0
        let connect = timings.connect ?? dns
        let tls = timings.tls ?? connect
        let firstByte = timings.firstByte ?? tls
        return [
            "blocked": -1,
            "dns": newConnection ? HARCarillon.milliseconds(dns) : -1,
            "connect": newConnection ? HARCarillon.milliseconds(max(0, tls - dns)) : -1,
            "ssl": newConnection && timings.tls != nil ? HARCarillon.milliseconds(max(0, tls - connect)) : -1,
            "send": 0,
            "wait": HARCarillon.milliseconds(max(0, firstByte - tls)),
            "receive": HARCarillon.milliseconds(max(0, timings.total - firstByte)),
        ]
    }

    /// `bodies/<sha256>.<ext>`'s extension, from the response's `Content-Type`.
    static func fileExtension(_ fields: [HTTPField]) -> String {
        let type = fields.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
        for (mime, ext) in [("png", "png"), ("jpeg", "jpg"), ("jpg", "jpg"), ("gif", "gif"), ("webp", "webp"), ("heic", "heic")]
        where type.contains(mime) { return ext }
        return "bin"
    }

    private static func pair(_ name: String, _ value: String) -> JSONValue {
        ["name": .string(name), "value": .string(value)]
    }

    private static func httpVersion(_ version: String?) -> String {
        switch version {
        case "2": "HTTP/2"
        case "3": "HTTP/3"
        case let version?: "HTTP/\(version)"
        case nil: ""
        }
    }

    private static func hostHeader(_ url: String) -> String {
        (try? ImageURL(validating: url)).map { $0.host } ?? ""
    }

    private static func serverIP(_ remote: String?) -> String {
        guard let remote, let colon = remote.lastIndex(of: ":") else { return "" }
        return String(remote[..<colon]).trimmingBrackets()
    }

    private static func queryString(_ url: String) -> [JSONValue] {
        guard let question = url.firstIndex(of: "?") else { return [] }
        var query = url[url.index(after: question)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return HAREntryWriter.pair(String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// A status line's code and reason phrase ("HTTP/1.1 404 Not Found" → 404, "Not Found"); 0 and "" without one.
    struct ResponseStatus {
        var code = 0
        var text = ""

        init(_ line: String) {
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, let code = Int(parts[1]) else { return }
            self.code = code
            text = parts.count > 2 ? String(parts[2]) : ""
        }
    }
}

extension String {
    fileprivate func trimmingBrackets() -> String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
