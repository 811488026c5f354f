@_spi(Tooling) import CarillonExtensionCore

/// `--format text`: a short readable block per payload, for a person at a terminal (JSON Lines stay
/// the default, for scripts).
///
/// Every line is shown by the one escaping rule (``Quoting/display(_:)``): title, body, keys, the
/// delivery id, the image URL, the file name, the detail, the warnings and what the server sent
/// (`Location`, `Content-Type`) reach the terminal with no control character of their own.
enum TextBlock {
    /// The block of a payload that could not be read as one.
    /// `requestLines`: what its request came to, when it is a request whose body is not a payload.
    static func invalid(_ payload: PayloadInput, _ message: String, requestLines: [String] = []) -> String {
        ([Quoting.display("\(payload.name): \(Reason.invalidPayload.code) — \(message)")] + requestLines.map(Quoting.display))
            .joined(separator: "\n") + "\n"
    }

    /// The top-level key Xcode's `.apns` files name the Simulator's app with (APNs never sends it).
    static let simulatorTargetBundleKey = "Simulator Target Bundle"

    /// The block of a payload that ran; `userInfo` is the payload's, for what it says beside `aps`;
    /// `keptFiles` false: the attachment files last only for the run, and no file is named;
    /// `requestLines`: what its request came to (SPEC §12, ``RequestText``), after the delivery line.
    static func make(
        _ payload: PayloadInput, result: ServiceResult, payloadWarnings: [String], userInfo: JSONValue? = nil, keptFiles: Bool = true,
        requestLines: [String] = []
    ) -> String {
        var lines = ["\(payload.name): \(result.outcome.reason.code) — \(result.outcome.printedDetail)"]
        lines.append(
            "  delivered \(result.delivered.rawValue)\(result.routed ? "" : " (not routed: the extension never runs)"), receipt \(result.receipt.code)"
        )
        lines += requestLines
        if case .string(let bundle)? = userInfo?[simulatorTargetBundleKey] {
            lines.append("  simulator target bundle \(bundle) (Xcode's .apns: the app the Simulator delivers it to)")
        }
        if let url = result.imageURL { lines.append("  image_url \(url)") }
        if let trace = result.trace {
            for field in trace.requestHeaders { lines.append("  request \(field.name): \(field.value)") }
            for (index, hop) in trace.hops.enumerated() {
                lines.append("  hop \(index + 1): " + describe(hop))
            }
            var end =
                "  \(trace.bodyBytes) body bytes of a \(trace.budget.wholeMilliseconds) ms budget, ended in phase \(trace.phase.rawValue)"
            if let image = trace.image {
                end += "; \(image.type.rawValue) \(image.width)×\(image.height)" + (image.frames > 1 ? ", \(image.frames) frames" : "")
            }
            lines.append(end)
        }
        for attachment in result.content.attachments {
            let file = keptFiles ? "\(FileName.jsonText(attachment.path)) " : ""
            lines.append("  attached \(file)(\(attachment.type.rawValue), \(attachment.byteCount) bytes)")
        }
        for warning in payloadWarnings + result.warnings { lines.append("  warning: \(warning)") }
        return lines.map(Quoting.display).joined(separator: "\n") + "\n"
    }

    /// "302 from 127.0.0.1:443 over HTTP/1.1, TLSv1.3 TLS_AES_256_GCM_SHA384, → /next; dns 0.1 connect 0.3 tls 7.0 first byte 8.4 total 8.8 ms — https://…"
    static func describe(_ hop: DownloadTrace.Hop) -> String {
        var parts: [String] = [hop.status.map(String.init) ?? "no response"]
        if let remote = hop.remote { parts[0] += " from \(remote)" }
        if let version = hop.httpVersion { parts[0] += " over HTTP/\(version)" }
        if let tls = hop.tls {
            parts.append("\(tls.version) \(tls.cipher)")
        } else if hop.remote != nil {
            parts.append("connection reused or no handshake")
        }
        if let type = hop.contentType { parts.append(type) }
        if let length = hop.contentLength { parts.append("\(length) bytes announced") }
        if let coding = hop.contentEncoding {
            parts.append("\(coding): \(hop.wireBytes) bytes on the wire, \(hop.decodedBytes) decoded")
        }
        if let location = hop.location { parts.append("→ \(location)") }
        let timings = hop.timings
        let steps: [(String, Double?)] = [
            ("dns", timings.dns), ("connect", timings.connect), ("tls", timings.tls), ("first byte", timings.firstByte),
        ]
        let shown =
            steps.compactMap { name, value in value.map { "\(name) \(ResultLine.milliseconds($0))" } } + [
                "total \(ResultLine.milliseconds(timings.total)) ms"
            ]
        return parts.joined(separator: ", ") + "; " + shown.joined(separator: " ") + " — " + hop.url
    }
}
