/// One recording's HAR 1.2 document (DESIGN-replay §5.3, `_carillon` format 1), written beside the
/// reader that reads it back: the entries a download made (``HAREntryWriter``) and `log._carillon`
/// (``HARCarillon``: payload, options, connections, verdict), every string redacted (``Redaction``)
/// before anything is written unless secrets are kept.
package struct HARRecording {
    let payload: Payload
    /// The verdict as the live run printed it.
    let verdict: JSONValue
    let keepsSecrets: Bool
    /// What the downloads ran under: the configuration, time-will-expire and the extra trust.
    let configuration: DownloadConfiguration
    let expireAfter: Duration?
    let trust: [[UInt8]]
    /// The secret values met so far; every string written is redacted against them.
    private(set) var secrets: Set<String> = []

    /// The recording of `payload`'s download through `transport`, whose verdict (the line as printed,
    /// as JSON) was `verdict`.
    package init(payload: Payload, verdict: JSONValue, keepsSecrets: Bool, transport: RecordingTransport) {
        self.payload = payload
        self.verdict = verdict
        self.keepsSecrets = keepsSecrets
        configuration = transport.configuration
        expireAfter = transport.expireAfter
        trust = transport.trust
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
    package mutating func har(_ download: RecordedDownload, relaxed: RecordedDownload? = nil, inlineLimit: Int, bodies: String)
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
            entries += try HARRecording.entries(relaxed, relaxed: true, inlineLimit: inlineLimit, bodies: bodies, redact: redact)
        }
        return redact(document(entries: entries, carillon: carillonLog(download, relaxed: relaxed)))
    }

    /// One download's entries, its final body and its body as received placed beside or inside the file.
    private static func entries(
        _ download: RecordedDownload, relaxed: Bool = false, inlineLimit: Int, bodies: String, redact: (JSONValue) -> JSONValue
    ) throws(FileSystemError) -> [JSONValue] {
        defer { download.wire?.staged?.discard() }
        let ext = HAREntryWriter.fileExtension(download.transfer.hops.last?.fields ?? [])
        let body = try HARRecording.place(
            download.stagedBody, bytes: download.bodyBytes, name: "\(download.bodySHA256).\(ext)", inlineLimit: inlineLimit,
            bodies: bodies)
        let wire = try download.wire.map { wire throws(FileSystemError) in
            try HARRecording.place(wire.staged, bytes: wire.bytes, name: "\(wire.sha256).wire", inlineLimit: inlineLimit, bodies: bodies)
        }
        return HAREntryWriter.entries(download, body: body, wire: wire ?? .none, relaxed: relaxed, redact: redact)
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

    /// A shared download's other payload: only `log._carillon`, with `shared_with` naming the first one's
    /// file (never absent: without that file there is nothing to replay).
    package func sharedHAR(with first: String) -> JSONValue {
        var log = carillonLog(nil)
        log.sharedWith = .some(first)
        return redact(document(entries: [], carillon: log))
    }

    private func document(entries: [JSONValue], carillon: HARCarillon) -> JSONValue {
        [
            "log": [
                "version": "1.2",
                "creator": ["name": "carillon-nse", "version": .string(CarillonVersion.current)],
                "pages": [],
                "entries": .array(entries),
                HARCarillon.member: carillon.json,
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
    private func carillonLog(_ download: RecordedDownload?, relaxed: RecordedDownload? = nil) -> HARCarillon {
        var log = HARCarillon()
        log.recordedAt = (download?.startedAt ?? Timestamp.now()).iso8601
        log.payload = keepsSecrets ? payload.userInfo : Redaction.redactPayload(payload.userInfo)
        log.payloadBytes = payload.bytes.count
        log.payloadSHA256 = SHA256.hex(payload.bytes)
        log.options = HARCarillon.Options(configuration, expireAfter: expireAfter, trust: trust)
        log.libcurl = CarillonVersion.transferLibraries
        log.secretsKept = keepsSecrets
        // The live connections (a refused one names its relaxed offer), then the relaxed request's, marked.
        if let download { log.connections = download.transfer.connections + (relaxed?.transfer.connections ?? []) }
        log.verdict = HARRecording.withoutAttachmentPaths(verdict)
        return log
    }

    /// The line as printed, attachment paths dropped (they name files of one run).
    static func withoutAttachmentPaths(_ line: JSONValue) -> JSONValue {
        guard case .object(let members) = line else { return .null }
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
