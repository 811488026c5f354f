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
}
