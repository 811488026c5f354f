@_spi(Tooling) import CarillonExtensionCore

/// The `trace` object of a `process` line (SPEC §6). Its field names are a contract (README).
@_spi(Tooling) public enum TraceJSON {
    public static func value(_ trace: DownloadTrace?) -> JSONValue {
        var output = JSONValueBuilder()
        write(trace, to: &output)
        return output.value
    }

    /// ``value(_:)`` written to `output` (the line's text is written without making the value).
    static func write<Output: JSONOutput>(_ trace: DownloadTrace?, to output: inout Output) {
        guard let trace else { return output.null() }
        output.beginObject()
        output.key("request_headers")
        output.beginObject()
        for header in trace.requestHeaders {
            output.key(header.name)
            output.string(header.value)
        }
        output.endObject()
        output.key("hops")
        output.beginArray()
        for hop in trace.hops { write(hop, to: &output) }
        output.endArray()
        output.key("body_bytes")
        output.integer(trace.bodyBytes)
        output.key("budget_ms")
        output.integer(trace.budget.wholeMilliseconds)
        output.key("phase")
        output.string(trace.phase.rawValue)
        output.key("image")
        if let image = trace.image {
            output.beginObject()
            output.key("type")
            output.string(image.type.rawValue)
            output.key("width")
            output.integer(image.width)
            output.key("height")
            output.integer(image.height)
            output.key("frames")
            output.integer(image.frames)
            output.endObject()
        } else {
            output.null()
        }
        output.endObject()
    }

    private static func write<Output: JSONOutput>(_ hop: DownloadTrace.Hop, to output: inout Output) {
        output.beginObject()
        output.key("url")
        output.string(hop.url)
        output.key("status")
        output.integer(orNull: hop.status)
        output.key("http_version")
        output.string(orNull: hop.httpVersion)
        output.key("remote")
        output.string(orNull: hop.remote)
        output.key("location")
        output.string(orNull: hop.location)
        output.key("content_type")
        output.string(orNull: hop.contentType)
        output.key("content_length")
        output.integer(orNull: hop.contentLength)
        output.key("content_encoding")
        output.string(orNull: hop.contentEncoding)
        output.key("wire_bytes")
        output.integer(hop.wireBytes)
        output.key("decoded_bytes")
        output.integer(hop.decodedBytes)
        output.key("tls")
        if let tls = hop.tls {
            output.beginObject()
            output.key("version")
            output.string(tls.version)
            output.key("cipher")
            output.string(tls.cipher)
            output.endObject()
        } else {
            output.null()
        }
        let timings = hop.timings
        output.key("timings_ms")
        output.beginObject()
        milliseconds("dns", timings.dns, to: &output)
        milliseconds("connect", timings.connect, to: &output)
        milliseconds("tls", timings.tls, to: &output)
        milliseconds("first_byte", timings.firstByte, to: &output)
        milliseconds("total", timings.total, to: &output)
        output.endObject()
        output.endObject()
    }

    private static func milliseconds<Output: JSONOutput>(_ key: String, _ time: Double?, to output: inout Output) {
        output.key(key)
        if let time { output.milliseconds(time) } else { output.null() }
    }

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
