/// Reads a HAR file (HAR 1.1 or 1.2, from any exporter) into a normalised ``HARArchive``, bounded:
/// the file is capped before it is parsed, compressed files (`.zhar`) are inflated under the same
/// cap, nesting is bounded by the project's own JSON parser, and bodies stay text until
/// ``HARBodyReading`` decodes one under its own cap.
///
/// A file that is not a HAR is an error naming what is wrong; an entry that cannot be read is set
/// aside with a note, so that one bad entry does not hide the others.
package struct HARReader: Sendable {
    /// The largest file read, compressed or not, and the most a compressed file may inflate to: 512 MiB.
    package static let defaultMaximumBytes = 512 << 20
    /// The deepest nesting accepted: a HAR needs six levels, a carillon payload a few more.
    package static let maximumDepth = 64

    /// The largest file read, and the most a compressed one may inflate to.
    package var maximumBytes: Int

    /// A reader with the given size cap.
    package init(maximumBytes: Int = HARReader.defaultMaximumBytes) {
        self.maximumBytes = maximumBytes
    }

    /// Reads `bytes`: a HAR file, or one compressed with zlib or gzip (`.zhar`).
    ///
    /// - Throws: ``HARReadError`` when the bytes are too many, do not inflate, are not UTF-8 JSON, or are
    ///   not a HAR (no `log`, no `entries`, another major version).
    package func read(_ bytes: [UInt8]) throws(HARReadError) -> HARArchive {
        guard bytes.count <= maximumBytes else {
            throw HARReadError("the file has \(bytes.count) bytes, more than the \(maximumBytes) a HAR may have here")
        }
        if HARInflate.isCompressed(bytes) {
            let inflated = try HARInflate.inflate(bytes, limit: maximumBytes)
            var archive = try readText(inflated)
            archive.notes.insert("the file was compressed (\(bytes.count) bytes, \(inflated.count) inflated)", at: 0)
            return archive
        }
        return try readText(bytes)
    }

    private func readText(_ bytes: [UInt8]) throws(HARReadError) -> HARArchive {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw HARReadError("the file is UTF-16; a HAR file is UTF-8")
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        let document: JSONValue
        do {
            document = try JSONParser.parse(body, maximumDepth: HARReader.maximumDepth)
        } catch {
            // The parser checks UTF-8 inside strings; a bad byte elsewhere is only found on the way out.
            if error.message.contains("UTF-8") || String(validating: body, as: UTF8.self) == nil {
                throw HARReadError("the file is not UTF-8 (\(error.description)); a HAR file is UTF-8")
            }
            throw HARReadError("not JSON: \(error.description)")
        }
        return try HARReader.archive(from: document)
    }

    /// The archive a parsed document describes.
    ///
    /// - Throws: ``HARReadError`` when it is not a HAR.
    static func archive(from document: JSONValue) throws(HARReadError) -> HARArchive {
        guard document.isObject else { throw HARReadError("not a HAR: the document is a JSON \(document.typeName), not an object") }
        guard let log = document["log"] else { throw HARReadError("not a HAR: it has no \"log\" object") }
        guard log.isObject else { throw HARReadError("not a HAR: \"log\" is a \(log.typeName), not an object") }
        let version = try HARReader.version(of: log)
        guard let entriesValue = log["entries"] else { throw HARReadError("not a HAR: \"log\" has no \"entries\" array") }
        guard case .array(let rawEntries) = entriesValue else {
            throw HARReadError("not a HAR: \"log.entries\" is a \(entriesValue.typeName), not an array")
        }
        let creator = log["creator"]
        let creatorName = creator?["name"]?.stringValue ?? ""
        let creatorVersion = creator?["version"]?.stringValue ?? ""
        var fieldNames: Set<String> = []
        for raw in rawEntries {
            if case .object(let members) = raw { fieldNames.formUnion(members.map(\.key).filter { $0.hasPrefix("_") }) }
        }
        let exporter = HARExporter.recognise(creatorName: creatorName, fieldNames: fieldNames)
        var entries: [HAREntry] = []
        var setAside: [(index: Int, why: String)] = []
        for (index, raw) in rawEntries.enumerated() {
            switch HAREntryDecoding.entry(raw, index: index, ownFields: exporter == .carillon) {
            case .success(let entry): entries.append(entry)
            case .failure(let problem): setAside.append((index, problem.message))
            }
        }
        let carillon = exporter == .carillon ? HARCarillon(log[HARCarillon.member]) : nil
        var archive = HARArchive(
            version: version, creatorName: creatorName, creatorVersion: creatorVersion, exporter: exporter,
            entries: HARReader.sorted(entries), carillon: carillon)
        archive.setAside = setAside
        return archive
    }

    /// `log.version`: "1.1" when empty or absent; another major version than 1 is refused.
    static func version(of log: JSONValue) throws(HARReadError) -> String {
        guard let value = log["version"] else { return "1.1" }
        guard let text = value.stringValue else {
            throw HARReadError("\"log.version\" is a \(value.typeName), expected a string such as \"1.2\"")
        }
        if text.isEmpty { return "1.1" }
        let major = text.split(separator: ".", maxSplits: 1).first.map(String.init) ?? text
        guard major == "1" else {
            throw HARReadError("HAR version \(Quoting.single(text)) is not supported: this reader reads major version 1")
        }
        return text
    }

    /// Entries by start time; entries without a readable start after the others, each group in file order.
    static func sorted(_ entries: [HAREntry]) -> [HAREntry] {
        entries.sorted { left, right in
            switch (left.started, right.started) {
            case (let a?, let b?): a != b ? a < b : left.index < right.index
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): left.index < right.index
            }
        }
    }
}
