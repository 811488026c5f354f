@_spi(Tooling) import CarillonExtensionCore

extension FuzzChecks {
    // MARK: - FuzzHARImport

    /// The cap the fuzz target reads with: small, so that the bound is reached by inputs libFuzzer makes.
    static let harFileCap = 1 << 20
    /// The body cap: small, for the same reason.
    static let harBodyCap = 4096

    /// `HARReader.read` and `HARBodyReading.read` on a HAR file (`FuzzHARImport`): never a trap; a
    /// refusal has a message; carillon's `_carillon` reads back as written; what is read is normalised (entries in start order, no pseudo-header among
    /// the headers, versions mapped to "1.0", "1.1", "2", "3" or nil, bodies within the cap); and the
    /// same file with its entries in reverse order, or with unknown `_` fields added everywhere, reads
    /// to the same entries and the same bodies.
    public static func harImport(_ bytes: [UInt8]) throws(FuzzFailure) {
        let archive: HARArchive
        do {
            archive = try HARReader(maximumBytes: harFileCap).read(bytes)
        } catch {
            try check(!error.message.isEmpty, "a HAR refused without a message")
            return
        }
        try harNormalised(archive)
        try harCarillonSettles(archive)
        let summary = harSummary(archive)
        // The variants need the document as JSON: only for plain (not compressed) files the parser reads.
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let document = try? JSONParser.parse(text, maximumDepth: HARReader.maximumDepth),
            case .object(var root) = document, let logIndex = root.lastIndex(where: { $0.key == "log" }),
            case .object(var log) = root[logIndex].value,
            let entriesIndex = log.lastIndex(where: { $0.key == "entries" }), case .array(let entries) = log[entriesIndex].value
        else { return }

        log[entriesIndex].value = .array(entries.reversed())
        root[logIndex].value = .object(log)
        let reversed = try harVariant(.object(root), "reversed")
        try check(harSummary(reversed) == summary, "the entries in reverse order read differently")

        log[entriesIndex].value = .array(entries.map(addingUnknownFields))
        log.append((key: "_fuzzUnknown", value: ["x": [1, "y"]]))
        root[logIndex].value = .object(log)
        let extended = try harVariant(.object(root), "with unknown _ fields")
        try check(harSummary(extended) == summary, "unknown _ fields changed what was read")
    }

    /// carillon's own `_carillon` members, read once and written, read and write back to the same text:
    /// the one type that owns the keys decodes what it encodes (a first reading may round a time or drop
    /// a member of a wrong type; a second changes nothing).
    private static func harCarillonSettles(_ archive: HARArchive) throws(FuzzFailure) {
        if let carillon = archive.carillon {
            let once = carillon.json
            guard let again = HARCarillon(once) else { throw FuzzFailure(message: "log._carillon as written is not read back") }
            try check(JSONWriter.string(again.json) == JSONWriter.string(once), "log._carillon read back is not what was written")
        }
        for entry in archive.entries {
            guard let carillon = entry.carillon else { continue }
            let once = carillon.json
            guard let again = HARCarillon.Entry(once) else {
                throw FuzzFailure(message: "an entry's _carillon as written is not read back")
            }
            try check(again.json == once, "entry \(entry.index)'s _carillon read back is not what was written")
        }
    }

    private static func harVariant(_ document: JSONValue, _ name: String) throws(FuzzFailure) -> HARArchive {
        do {
            return try HARReader(maximumBytes: Int.max).read(Array(JSONWriter.string(document).utf8))
        } catch {
            throw FuzzFailure(message: "the file \(name) was refused: \(error.message)")
        }
    }

    private static func addingUnknownFields(_ entry: JSONValue) -> JSONValue {
        guard case .object(var members) = entry else { return entry }
        members.append((key: "_fuzzUnknown", value: ["nested": ["a": 1]]))
        for index in members.indices where members[index].key == "response" {
            if case .object(var response) = members[index].value {
                response.append((key: "_fuzzUnknown", value: true))
                members[index].value = .object(response)
            }
        }
        return .object(members)
    }

    private static func harNormalised(_ archive: HARArchive) throws(FuzzFailure) {
        let versions: Set<String?> = [nil, "1.0", "1.1", "2", "3"]
        var previous: Timestamp?
        var undatedSeen = false
        for entry in archive.entries {
            if let started = entry.started {
                try check(!undatedSeen, "a dated entry after an undated one")
                if let previous { try check(previous <= started, "entries out of start order") }
                previous = started
            } else {
                undatedSeen = true
            }
            for message in [entry.request] + (entry.response.map { [$0.message] } ?? []) {
                try check(versions.contains(message.httpVersion), "httpVersion mapped to \(message.httpVersion ?? "nil")")
                try check(!message.headers.contains { $0.name.hasPrefix(":") }, "a pseudo-header among the headers")
                try check(message.pseudoHeaders.allSatisfy { $0.name.hasPrefix(":") }, "an ordinary header set aside")
            }
            if case .bytes(let body, _) = HARBodyReading.read(entry, exporter: archive.exporter, cap: harBodyCap) {
                // Base64 is let through up to ⌈cap/3⌉·4 + 4 characters: at most 3⌈cap/3⌉ + 3 bytes.
                try check(body.count <= harBodyCap + 5, "a body of \(body.count) bytes passed a cap of \(harBodyCap)")
            }
        }
    }

    /// What must not depend on the entries' order or on foreign fields: each dated entry with a start of
    /// its own (ties keep file order, which reversing changes), in order, with its body's verdict.
    private static func harSummary(_ archive: HARArchive) -> [String] {
        var starts: [Timestamp: Int] = [:]
        for entry in archive.entries { if let started = entry.started { starts[started, default: 0] += 1 } }
        return archive.entries.compactMap { entry in
            guard let started = entry.started, starts[started] == 1 else { return nil }
            var body: String
            switch HARBodyReading.read(entry, exporter: archive.exporter, cap: harBodyCap) {
            case .bytes(let bytes, let note): body = "bytes \(bytes.count) \(bytes.hashValue) \(note ?? "")"
            case .file(let name): body = "file \(name)"
            case .overCap(let atLeast, _): body = "over \(atLeast)"
            case .missing(let why): body = "missing " + why
            case .undetermined(let why): body = "undetermined " + why
            }
            // The words name the entry by its place in the file, which reversing changes.
            body = body.replacing("entry \(entry.index)", with: "entry #")
            let response = entry.response.map { "\($0.status) \($0.headers.count) \($0.message.httpVersion ?? "-")" } ?? "none"
            return "\(entry.startedText) \(entry.request.method) \(entry.request.url) \(response) \(body)"
        }
    }
}
