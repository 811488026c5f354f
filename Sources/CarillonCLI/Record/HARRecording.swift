@_spi(Tooling) import CarillonExtensionCore

/// One recording's HAR 1.2 document (DESIGN-replay §5.3, `_carillon` format 1): the entries a
/// download made (``HAREntryWriter``) and `log._carillon` (payload, options, connections, verdict), every
/// string redacted (``Redaction``) before anything is written unless secrets are kept.
struct HARRecording {
    let payload: Payload
    let verdictLine: String
    let keepsSecrets: Bool
    let configuration: DownloadConfiguration
    /// The secret values met so far; every string written is redacted against them.
    private(set) var secrets: Set<String> = []

    init(payload: Payload, verdictLine: String, keepsSecrets: Bool, configuration: DownloadConfiguration) {
        self.payload = payload
        self.verdictLine = verdictLine
        self.keepsSecrets = keepsSecrets
        self.configuration = configuration
        guard !keepsSecrets else { return }
        for field in configuration.requestHeaders.fields where Redaction.isSecretField(field.name, extra: true) {
            secrets.insert(field.value)
        }
        if let image = HARRecording.imageURL(payload.userInfo) { secrets.formUnion(Redaction.secrets(inURL: image)) }
    }

    /// The payload's `carillon.image`, if a string.
    static func imageURL(_ userInfo: JSONValue) -> String? {
        guard case .object(let members) = userInfo, let carillon = members.first(where: { $0.key == "carillon" })?.value,
            case .object(let fields) = carillon, case .string(let image) = fields.first(where: { $0.key == "image" })?.value
        else { return nil }
        return image
    }

    /// The whole document for a download this payload made, and the same request made with relaxed
    /// TLS rules after its handshake was refused (`relaxed`: its entries marked `relaxed_tls`).
    /// Publishes a body over `inlineLimit` to `bodies/<sha256>.<ext>`; a smaller one goes inline, in
    /// base64. The body as received, when kept (it differs from the decoded one), is placed the same
    /// way, as `bodies/<sha256>.wire`.
    mutating func har(_ download: RecordedDownload, relaxed: RecordedDownload? = nil, inlineLimit: Int, bodies: String)
        throws(FileSystemError) -> JSONValue
    {
        if !keepsSecrets {
            collectSecrets(download)
            if let relaxed { collectSecrets(relaxed) }
        }
        defer {
            relaxed?.stagedBody?.discard()
            relaxed?.wire?.staged?.discard()
        }
        var entries = try HARRecording.entries(download, inlineLimit: inlineLimit, bodies: bodies, redact: redact)
        if let relaxed {
            let more = try HARRecording.entries(relaxed, inlineLimit: inlineLimit, bodies: bodies, redact: redact)
            entries += more.map { RelaxedTLSEntries.marked($0) }
        }
        return redact(document(entries: entries, carillon: carillonLog(download, relaxed: relaxed)))
    }

    /// One download's entries, its final body and its body as received placed beside or inside the file.
    private static func entries(
        _ download: RecordedDownload, inlineLimit: Int, bodies: String, redact: (JSONValue) -> JSONValue
    ) throws(FileSystemError) -> [JSONValue] {
        defer { download.wire?.staged?.discard() }
        let ext = HAREntryWriter.fileExtension(download.transfer.hops.last?.fields ?? [])
        let body = try HARRecording.place(
            download.stagedBody, bytes: download.bodyBytes, name: "\(download.bodySHA256).\(ext)", inlineLimit: inlineLimit,
            bodies: bodies)
        let wire = try download.wire.map { wire throws(FileSystemError) in
            try HARRecording.place(wire.staged, bytes: wire.bytes, name: "\(wire.sha256).wire", inlineLimit: inlineLimit, bodies: bodies)
        }
        return HAREntryWriter.entries(download, body: body, wire: wire ?? .none, redact: redact)
    }

    /// A staged body's place: over `inlineLimit`, published as `bodies/<name>`; else inline, in base64.
    /// The staged file is gone after.
    private static func place(
        _ staged: FileSystem.StagedFile?, bytes: Int, name: String, inlineLimit: Int, bodies: String
    ) throws(FileSystemError) -> HAREntryWriter.Body {
        guard let staged else { return .none }
        defer { staged.discard() }
        guard bytes > inlineLimit else {
            return .inline(Base64.encode(try FileSystem.readFile(staged.temporaryPath, limit: inlineLimit + 1)))
        }
        // Renamed whole into place, never synced: a recording is evidence, not a receipt (SPEC §7).
        _ = try staged.publish(to: FileSystem.join(bodies, name), replace: true)
        return .file("bodies/" + name)
    }

    /// A shared download's other payload: only `log._carillon`, with `shared_with` naming the first one's file.
    func sharedHAR(with first: String?) -> JSONValue {
        var log = carillonLog(nil)
        if case .object(var members) = log {
            members.append((key: "shared_with", value: first.map { .string($0) } ?? .null))
            log = .object(members)
        }
        return redact(document(entries: [], carillon: log))
    }

    private func document(entries: [JSONValue], carillon: JSONValue) -> JSONValue {
        [
            "log": [
                "version": "1.2",
                "creator": ["name": "carillon-nse", "version": .string(CarillonVersion.current)],
                "pages": [],
                "entries": .array(entries),
                "_carillon": carillon,
            ]
        ]
    }

    private mutating func collectSecrets(_ download: RecordedDownload) {
        for field in download.sentRequests.joined() where Redaction.isSecretField(field.name, extra: true) {
            secrets.insert(field.value)
        }
        for hop in download.transfer.hops {
            secrets.formUnion(Redaction.secrets(inURL: hop.url))
            for field in hop.fields {
                if Redaction.isSecretField(field.name) { secrets.insert(field.value) }
                if field.name.lowercased() == "location" { secrets.formUnion(Redaction.secrets(inURL: field.value)) }
            }
        }
    }

    /// Every string of `value` redacted against ``secrets`` (bodies are base64 of redacted text or images).
    func redact(_ value: JSONValue) -> JSONValue {
        guard !secrets.isEmpty else { return value }
        switch value {
        case .string(let text): return .string(Redaction.redact(text, secrets: secrets))
        case .array(let items): return .array(items.map(redact))
        case .object(let members):
            return .object(members.map { member in (member.key, member.key == "text" ? member.value : redact(member.value)) })
        default: return value
        }
    }

    /// `log._carillon`: the format, the payload (alert text redacted), the options, the connections, the verdict.
    private func carillonLog(_ download: RecordedDownload?, relaxed: RecordedDownload? = nil) -> JSONValue {
        let limits = configuration.limits
        var members: [(key: String, value: JSONValue)] = [
            ("format", 1),
            ("recorded_at", .string((download?.startedAt ?? Timestamp.now()).iso8601)),
            ("payload", keepsSecrets ? payload.userInfo : Redaction.redactPayload(payload.userInfo)),
            ("payload_bytes", .number(String(payload.bytes.count))),
            ("payload_sha256", .string(SHA256.hex(payload.bytes))),
            (
                "options",
                [
                    "budget_ms": .number(String(limits.budget.wholeMilliseconds)),
                    "max_bytes": .number(String(limits.maximumBytes)),
                    "tls_minimum": .string(configuration.transportSecurity.minimumTLS.rawValue),
                    "forward_secrecy": .bool(configuration.transportSecurity.requiresForwardSecrecy),
                    "request_headers": .array(
                        configuration.requestHeaders.fields.map { field in
                            ["name": .string(field.name), "value": .string(field.value)]
                        }),
                ]
            ),
            ("environment", ["libcurl": .string(CarillonVersion.transferLibraries)]),
            ("secrets_kept", .bool(keepsSecrets)),
        ]
        if let download {
            members.append(("connections", .array(RelaxedTLSEntries.connections(download.transfer, relaxed: relaxed?.transfer))))
        }
        members.append(("verdict", verdict()))
        return .object(members)
    }

    /// The process line as printed, attachment paths dropped.
    private func verdict() -> JSONValue {
        guard case .object(let members) = try? JSONParser.parse(Array(verdictLine.utf8)) else { return .null }
        return .object(
            members.map { member in
                guard member.key == "attachments", case .array(let files) = member.value else { return member }
                return (
                    member.key,
                    .array(
                        files.map { file in
                            guard case .object(let fields) = file else { return file }
                            return .object(fields.filter { $0.key != "file" })
                        })
                )
            })
    }
}
