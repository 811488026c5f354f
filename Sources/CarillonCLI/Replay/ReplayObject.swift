@_spi(Tooling) import CarillonExtensionCore

/// The `replay` object of a replay's line: where the verdict came from and what could not be checked.
enum ReplayObject {
    /// What a HAR never holds, whoever wrote it.
    static let neverInAHAR: [(check: String, why: String)] = [
        ("framing", "a HAR holds parsed headers, not the bytes received"),
        ("decoding", "a HAR body is already decoded: a coding that fails to decode cannot show"),
    ]

    static func make(
        archive: HARArchive, file: String, entries: [HAREntry], transfer: HARTransfer, transport: RecordedTransport,
        headers: RequestHeaders, choice: String?, suppliedChain: Bool
    ) -> JSONValue {
        var notChecked = archive.exporter == .carillon ? [] : neverInAHAR
        if archive.exporter != .carillon && !suppliedChain {
            notChecked.append(("ats", "the HAR has no certificate chain and no TLS facts"))
        } else if archive.exporter != .carillon {
            notChecked.append(("tls-version", "the HAR records no TLS version or cipher"))
        }
        for words in transport.unchecked where archive.exporter == .carillon { notChecked.append(("tls", words)) }
        if archive.exporter.mergesDuplicateHeaders {
            notChecked.append(("duplicate-headers", "\(archive.exporter.displayName) merges duplicate header fields"))
        }
        let skipped = Set(notChecked.map(\.check))
        let checked = ["status", "redirects", "headers", "decoding", "cap", "image", "ats"].filter { !skipped.contains($0) }
        var notes = archive.notes + transfer.entries.flatMap { transfer.notes[$0] ?? [] }
        if let choice { notes.append(choice) }
        for entry in entries { notes += HARRequestComparison.notes(entry, exporter: archive.exporter) }
        if archive.exporter.isProxy {
            notes.append("captured through \(archive.exporter.displayName): its TLS and HTTP version were the proxy's, not the origin's")
        }
        if suppliedChain {
            notes.append("the certificate chain was supplied with --chain: fetched later, it may not be the chain the device saw")
        }
        if archive.exporter != .carillon { notes.append("times are the capture network's") }
        let differs: [JSONValue] =
            entries.first.map { HARRequestComparison.differences($0, extensionHeaders: headers) }.map { list in
                list.map { difference in
                    .object([
                        (key: "header", value: .string(difference.header)),
                        (key: "recorded", value: difference.recorded.map { .string($0) } ?? .null),
                        (key: "extension", value: difference.extensionValue.map { .string($0) } ?? .null),
                        (key: "varies", value: .bool(difference.varies)),
                    ])
                }
            } ?? []
        return .object([
            (key: "source", value: .string(archive.exporter == .carillon ? "carillon" : "har")),
            (key: "file", value: .string(FileName.jsonText(file))),
            (key: "creator", value: .string(archive.creator)),
            (key: "entries", value: .array(entries.map { .number(String($0.index)) })),
            (key: "checked", value: .array(checked.map { .string($0) })),
            (
                key: "not_checked",
                value: .array(notChecked.map { .object([(key: "check", value: .string($0.check)), (key: "why", value: .string($0.why))]) })
            ),
            (key: "request_differs", value: .array(differs)),
            (key: "notes", value: .array(notes.map { .string($0) })),
        ])
    }
}
