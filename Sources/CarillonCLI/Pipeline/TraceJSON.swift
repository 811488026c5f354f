@_spi(Tooling) import CarillonExtensionCore

/// The `trace` object of a `process` line (SPEC §6). Its field names are a contract (README).
@_spi(Tooling) public enum TraceJSON {
    public static func value(_ trace: DownloadTrace?) -> JSONValue {
        guard let trace else { return .null }
        return [
            "request_headers": .object(trace.requestHeaders.map { (key: $0.name, value: .string($0.value)) }),
            "hops": .array(trace.hops.map(hop)),
            "body_bytes": .number(String(trace.bodyBytes)),
            "budget_ms": .number(String(trace.budget.wholeMilliseconds)),
            "phase": .string(trace.phase.rawValue),
            "image": trace.image.map { image in
                [
                    "type": .string(image.type.rawValue), "width": .number(String(image.width)),
                    "height": .number(String(image.height)), "frames": .number(String(image.frames)),
                ]
            } ?? .null,
        ]
    }

    static func hop(_ hop: DownloadTrace.Hop) -> JSONValue {
        let timings = hop.timings
        return [
            "url": .string(hop.url),
            "status": number(hop.status),
            "http_version": string(hop.httpVersion),
            "remote": string(hop.remote),
            "location": string(hop.location),
            "content_type": string(hop.contentType),
            "content_length": number(hop.contentLength),
            "content_encoding": string(hop.contentEncoding),
            "wire_bytes": .number(String(hop.wireBytes)),
            "decoded_bytes": .number(String(hop.decodedBytes)),
            "tls": hop.tls.map { ["version": .string($0.version), "cipher": .string($0.cipher)] } ?? .null,
            "timings_ms": [
                "dns": milliseconds(timings.dns), "connect": milliseconds(timings.connect), "tls": milliseconds(timings.tls),
                "first_byte": milliseconds(timings.firstByte), "total": milliseconds(timings.total),
            ],
        ]
    }

    private static func number(_ value: Int?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
    private static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    private static func milliseconds(_ value: Double?) -> JSONValue { value.map { .number(ResultLine.milliseconds($0)) } ?? .null }

    /// The trace of a line written by ``value(_:)``, read back (a `merge` of bundles: SPEC §6c): what the
    /// line holds, to the thousandth of a millisecond it prints; nil for `null` or anything else.
    static func decode(_ value: JSONValue?) -> DownloadTrace? {
        guard let value, case .array(let hopValues)? = value["hops"], let bodyBytes = integer(value["body_bytes"]),
            let budget = integer(value["budget_ms"]), case .string(let phaseText)? = value["phase"],
            let phase = DownloadTrace.Phase(rawValue: phaseText)
        else { return nil }
        var headers: [HTTPField] = []
        if case .object(let members)? = value["request_headers"] {
            for member in members { if case .string(let text) = member.value { headers.append(.init(name: member.key, value: text)) } }
        }
        let hops = hopValues.compactMap(decodeHop)
        guard hops.count == hopValues.count else { return nil }
        var image: DownloadTrace.Image?
        if let imageValue = value["image"], case .string(let typeText)? = imageValue["type"], let type = ImageType(rawValue: typeText),
            let width = integer(imageValue["width"]), let height = integer(imageValue["height"]), let frames = integer(imageValue["frames"])
        {
            image = DownloadTrace.Image(type: type, width: width, height: height, frames: frames)
        }
        return DownloadTrace(
            hops: hops, requestHeaders: headers, bodyBytes: bodyBytes, budget: .milliseconds(budget), phase: phase, image: image)
    }

    private static func decodeHop(_ value: JSONValue) -> DownloadTrace.Hop? {
        guard case .string(let url)? = value["url"], let timings = value["timings_ms"], let total = double(timings["total"]) else {
            return nil
        }
        var tls: DownloadTrace.TLS?
        if let tlsValue = value["tls"], case .string(let version)? = tlsValue["version"], case .string(let cipher)? = tlsValue["cipher"] {
            tls = DownloadTrace.TLS(version: version, cipher: cipher)
        }
        return DownloadTrace.Hop(
            url: url, status: integer(value["status"]), httpVersion: value["http_version"]?.stringValue,
            remote: value["remote"]?.stringValue,
            location: value["location"]?.stringValue, contentType: value["content_type"]?.stringValue,
            contentLength: integer(value["content_length"]), tls: tls, contentEncoding: value["content_encoding"]?.stringValue,
            wireBytes: integer(value["wire_bytes"]) ?? 0, decodedBytes: integer(value["decoded_bytes"]) ?? 0,
            timings: DownloadTrace.Timings(
                dns: double(timings["dns"]), connect: double(timings["connect"]), tls: double(timings["tls"]),
                firstByte: double(timings["first_byte"]), total: total))
    }

    private static func integer(_ value: JSONValue?) -> Int? {
        guard case .number(let text)? = value else { return nil }
        return Int(text)
    }

    private static func double(_ value: JSONValue?) -> Double? {
        guard case .number(let text)? = value else { return nil }
        return Double(text)
    }
}
