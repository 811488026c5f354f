@_spi(Tooling) import CarillonExtensionCore

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
    /// received, `_carillon.wire`).
    static func entries(_ download: RecordedDownload, body: Body, wire: Body = .none, redact: (JSONValue) -> JSONValue) -> [JSONValue] {
        var startMilliseconds = 0
        return download.transfer.hops.enumerated().map { index, hop in
            let last = index == download.transfer.hops.count - 1
            let started = download.startedAt.adding(.milliseconds(startMilliseconds))
            let timings = DownloadTrace.Timings.cumulative(
                microseconds: Array(hop.microseconds.prefix(4)), total: hop.microseconds.count > 4 ? hop.microseconds[4] : 0)
            startMilliseconds = hop.endMilliseconds
            let sent = index < download.sentRequests.count ? download.sentRequests[index] : []
            return entry(
                hop, number: index + 1, started: started, timings: timings,
                requestHeaders: sent.isEmpty ? configuredRequest(hop, download.requestHeaders) : sent.map { pair($0.name, $0.value) },
                body: last ? body : .none, decoded: last ? (download.bodyBytes, download.bodySHA256, download.lastPiece) : nil,
                wire: last ? wireObject(download, wire) : .null, arrival: last ? download.arrival : [], redact: redact)
        }
    }

    /// The request as configured, when libcurl did not say what it sent: Host, then the fields.
    private static func configuredRequest(_ hop: RecordedHop, _ fields: [HTTPField]) -> [JSONValue] {
        [pair("Host", hostHeader(hop.url))] + fields.map { pair($0.name, $0.value) }
    }

    /// `_carillon.wire`: the body as received, its exact size and SHA-256, in a file or inline in
    /// base64 (as the decoded body is placed); null when it is the decoded body's bytes.
    private static func wireObject(_ download: RecordedDownload, _ wire: Body) -> JSONValue {
        guard let received = download.wire else { return .null }
        var members: [(key: String, value: JSONValue)] = [
            ("bytes", .number(String(received.bytes))), ("sha256", .string(received.sha256)),
        ]
        switch wire {
        case .none: members.append(("comment", "not kept"))
        case .inline(let text): members += [("encoding", "base64"), ("text", .string(text))]
        case .file(let path): members.append(("_file", .string(path)))
        }
        return .object(members)
    }

    private static func entry(
        _ hop: RecordedHop, number: Int, started: Timestamp, timings: DownloadTrace.Timings, requestHeaders: [JSONValue],
        body: Body, decoded: (bytes: Int, sha256: String, lastPiece: Int)?, wire: JSONValue, arrival: [(milliseconds: Double, bytes: Int)],
        redact: (JSONValue) -> JSONValue
    ) -> JSONValue {
        let version = httpVersion(hop.httpVersion)
        let status = ResponseStatus(hop.statusLine)
        let location = hop.fields.first { $0.name.lowercased() == "location" }?.value ?? ""
        let mimeType = hop.fields.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        var content: [(key: String, value: JSONValue)] = [
            ("size", .number(String(decoded?.bytes ?? 0))), ("mimeType", .string(mimeType)),
        ]
        switch body {
        case .none: break
        case .inline(let text): content += [("text", .string(text)), ("encoding", "base64")]
        case .file(let path): content.append(("_file", .string(path)))
        }
        let rawHead: JSONValue =
            hop.rawHead.map { raw in
                // Base64 of the redacted text: a secret in a Set-Cookie line must not ride along encoded.
                let text = redact(.string(String(decoding: raw, as: UTF8.self)))
                guard case .string(let redacted) = text else { return .null }
                return [
                    "encoding": "base64", "text": .string(Base64.encode(Array(redacted.utf8))),
                    "synthesized": .bool(hop.httpVersion == "2" || hop.httpVersion == "3"),
                ]
            } ?? .null
        let durations = harTimings(timings, newConnection: hop.newConnection)
        let entry: JSONValue = [
            "startedDateTime": .string(started.iso8601),
            "time": .number(number3(timings.total)),
            "request": [
                "method": "GET", "url": .string(hop.url), "httpVersion": .string(version), "cookies": [],
                "headers": .array(requestHeaders), "queryString": .array(queryString(hop.url)), "headersSize": -1, "bodySize": 0,
            ],
            "response": [
                "status": .number(String(status.code)), "statusText": .string(status.text), "httpVersion": .string(version),
                "cookies": [], "headers": .array(hop.fields.map { pair($0.name, $0.value) }),
                "content": .object(content), "redirectURL": .string(location),
                "headersSize": .number(String(hop.rawHead?.count ?? -1)), "bodySize": .number(String(hop.wireBytes ?? -1)),
            ],
            "cache": [:],
            "timings": durations,
            "serverIPAddress": .string(serverIP(hop.remote)),
            "connection": hop.connection.map { .string($0) } ?? .null,
            "_carillon": [
                "hop": .number(String(number)), "remote": hop.remote.map { .string($0) } ?? .null, "head_raw": rawHead, "wire": wire,
                "wire_bytes": hop.wireBytes.map { .number(String($0)) } ?? .null,
                "decoded": decoded.map { decoded in
                    [
                        "bytes": .number(String(decoded.bytes)), "sha256": .string(decoded.sha256),
                        "last_piece": .number(String(decoded.lastPiece)),
                    ]
                } ?? .null,
                "arrival": .array(arrival.map { [.number(number3($0.milliseconds)), .number(String($0.bytes))] }),
                "end": [
                    "curl_code": .number(String(hop.end.curlCode)), "curl_message": .string(hop.end.message),
                    "cancelled": .bool(hop.end.cancelled),
                ],
                "timings_ms": [
                    "dns": ms(timings.dns), "connect": ms(timings.connect), "tls": ms(timings.tls), "first_byte": ms(timings.firstByte),
                    "total": .number(number3(timings.total)),
                ],
            ],
        ]
        // HAR's `connection` is an optional string: left out when the request had none.
        guard hop.connection == nil, case .object(let members) = entry else { return entry }
        return .object(members.filter { $0.key != "connection" })
    }

    /// A connection of `log._carillon.connections`: its TLS facts and the chain as sent.
    static func connection(_ connection: RecordedConnection) -> JSONValue {
        [
            "id": .string(connection.id),
            "tls": connection.tls.map { tls in
                [
                    "version": .string(tls.version), "cipher": .string(tls.cipher), "group": tls.group.map { .string($0) } ?? .null,
                    "resumed": .bool(connection.resumed),
                    "certificate_requested": .bool(connection.certificateRequested),
                ]
            } ?? .null,
            "chain": ["encoding": "base64-der", "certs": .array(connection.chain.map { .string(Base64.encode($0)) })],
        ]
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
            "dns": newConnection ? .number(number3(dns)) : -1,
            "connect": newConnection ? .number(number3(max(0, tls - dns))) : -1,
            "ssl": newConnection && timings.tls != nil ? .number(number3(max(0, tls - connect))) : -1,
            "send": 0,
            "wait": .number(number3(max(0, firstByte - tls))),
            "receive": .number(number3(max(0, timings.total - firstByte))),
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

    private static func ms(_ value: Double?) -> JSONValue {
        value.map { .number(number3($0)) } ?? .null
    }

    private static func number3(_ value: Double) -> String {
        ResultLine.milliseconds(value)
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
