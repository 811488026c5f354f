@_spi(Tooling) import CarillonExtensionCore

/// One line of `replay --list`: what an entry is, to choose one with `--entry`; an entry the reader set
/// aside is listed too, with why.
enum ReplayListLine {
    /// Every line of the file, by place in it: the entries read and those set aside.
    static func lines(_ archive: HARArchive) -> [JSONValue] {
        let read = archive.entries.map { (index: $0.index, line: make($0, archive: archive)) }
        let setAside = archive.setAside.map { entry in
            (
                index: entry.index,
                line: JSONValue.object([(key: "index", value: .number(String(entry.index))), (key: "set_aside", value: .string(entry.why))])
            )
        }
        return (read + setAside).sorted { $0.index < $1.index }.map(\.line)
    }

    static func make(_ entry: HAREntry, archive: HARArchive) -> JSONValue {
        let content = entry.response?.content
        let body: JSONValue =
            switch HARBodyReading.read(entry, exporter: archive.exporter, cap: 0) {
            case .missing, .undetermined: false
            default: content?.text == nil && content?.file == nil ? false : true
            }
        func number(_ value: Int?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
        return .object([
            (key: "index", value: number(entry.index)),
            (key: "started", value: .string(entry.startedText)),
            (key: "method", value: .string(entry.request.method)),
            (key: "status", value: number(entry.response?.status)),
            (key: "url", value: .string(entry.request.url)),
            (key: "mime", value: entry.mimeType.map { .string($0) } ?? .null),
            (key: "image", value: .bool(entry.isImage)),
            (key: "body", value: body),
            (key: "size", value: number(content?.size)),
            (key: "http_version", value: entry.response?.message.httpVersion.map { .string($0) } ?? .null),
            (key: "from_cache", value: entry.hints.fromCache.map { .string($0) } ?? .null),
        ])
    }
}
