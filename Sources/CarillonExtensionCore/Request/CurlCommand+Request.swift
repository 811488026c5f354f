extension CurlCommand {
    /// The request curl sends for this command: its method, URL, header fields and body, the body built by
    /// each data option's own rule (curl(1)): `-d @file` strips CR and LF from the file, `data-binary
    /// @file` and `json @file` keep it exactly, `data-raw` has no `@` rule; pieces are joined with
    /// `&`, `json` pieces with nothing.
    ///
    /// - Throws: ``RequestProblem`` for no URL, an `@file` refused or unreadable, a header file that is not
    ///   header lines.
    package func request(files: RequestFiles) throws(RequestProblem) -> APNsRequest {
        guard let url = urls.first else { throw RequestProblem("the curl command names no URL") }
        var unresolved = url.unresolved
        var body: [UInt8] = []
        var previous: Data.Kind?
        for piece in data {
            unresolved += piece.value.unresolved
            if previous != nil && !(previous == .json && piece.kind == .json) { body.append(UInt8(ascii: "&")) }
            body += try Self.bytes(of: piece, files: files, standardInput: standardInput)
            previous = piece.kind
        }
        // A URL that starts with what the script leaves open has no known host or path at all.
        let openURL = url.unresolved.first { url.text.hasPrefix($0.source) }
        var target = RequestTarget(url: url.text)
        // A URL without a scheme is sent over http:// (curl(1): "it will then guess"), port 80.
        if target.scheme == nil && target.host != nil && openURL == nil { target.scheme = "http" }
        if get && !body.isEmpty {
            target.path += (target.path.contains("?") ? "&" : "?") + String(decoding: body, as: UTF8.self)
            body = []
        }
        let method = self.method?.text ?? (head ? "HEAD" : get ? "GET" : data.isEmpty ? "GET" : "POST")
        var request = APNsRequest(
            form: .curl, method: method, target: openURL == nil ? target : nil, headers: try fields(files: files, unresolved: &unresolved),
            body: body, httpVersion: httpVersion)
        if let openURL {
            request.notes.append(
                "the URL is \(Quoting.single(url.text, limit: 80)), and \(openURL.source) \(openURL.why): its host and path are unknown")
        }
        request.unresolved = unresolved
        if urls.count > 1 {
            request.notes.append("the command names \(urls.count) URLs; curl sends one request to each, and the first is judged")
        }
        if hasNext { request.notes.append("the command goes on with another transfer (curl's next option), which is not judged") }
        return request
    }

    /// A data option's bytes: its argument, or the file it names.
    /// `@-` reads the command's here-document, when it has one (a file cannot feed standard input).
    private static func bytes(
        of piece: Data, files: RequestFiles, standardInput: ShellScript.HereDocument?
    ) throws(RequestProblem) -> [UInt8] {
        let value = piece.value.bytes
        guard piece.kind != .raw, value.first == UInt8(ascii: "@") else { return value }
        let path = String(decoding: value.dropFirst(), as: UTF8.self)
        let option = "curl's " + (piece.kind == .data ? "data" : piece.kind == .binary ? "data-binary" : "json") + " option"
        try refuseUnresolved(piece.value, "\(option) @\(Quoting.display(path))")
        let contents: [UInt8]
        if path == "-", let standardInput {
            contents = try hereDocument(standardInput, "\(option) @-")
        } else {
            do {
                contents = try files.read(path)
            } catch {
                throw RequestProblem("\(option) @\(Quoting.display(path)): \(error.message)")
            }
        }
        // curl reads -d's file as text and drops every carriage return and newline (curl(1), --data).
        return piece.kind == .data ? contents.filter { $0 != 0x0D && $0 != 0x0A } : contents
    }

    /// A here-document's bytes (a slice of the script: bounded by it). One whose delimiter is not quoted
    /// and whose body holds `$` or a backquote would be expanded by the shell, which the tool never does.
    private static func hereDocument(_ document: ShellScript.HereDocument, _ what: String) throws(RequestProblem) -> [UInt8] {
        if !document.literal, document.body.contains(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "`") }) {
            throw RequestProblem(
                "\(what): the here-document's delimiter is not quoted and its body holds $ or `, which the shell would expand; not read"
                    + " (quote the delimiter: <<'EOF')")
        }
        return document.bytes
    }

    /// An `@file` whose name the script leaves open (a variable set outside it, an argument) is refused
    /// before anything is opened: its literal text names no file the script means.
    private static func refuseUnresolved(_ word: ShellExpansion.Word, _ what: String) throws(RequestProblem) {
        guard let open = word.unresolved.first else { return }
        throw RequestProblem("\(what): the file name holds \(open.source), which \(open.why); not read")
    }

    /// The header fields curl sends beside its own: `-A`, `oauth2-bearer`, `-u`, `json`'s two (which
    /// a `-H` of the same name replaces), then each `-H` in order (`Name;` sends an empty field, `Name:`
    /// sends none, `@file` reads one field a line).
    private func fields(files: RequestFiles, unresolved: inout [ShellExpansion.Unresolved]) throws(RequestProblem) -> [HTTPField] {
        var given: [HTTPField] = []
        for header in headers {
            unresolved += header.unresolved
            if header.bytes.first == UInt8(ascii: "@") {
                let path = String(decoding: header.bytes.dropFirst(), as: UTF8.self)
                try Self.refuseUnresolved(header, "-H @\(Quoting.display(path))")
                let contents: [UInt8]
                do {
                    contents = try files.read(path)
                } catch {
                    throw RequestProblem("-H @\(Quoting.display(path)): \(error.message)")
                }
                for line in contents.split(separator: 0x0A) {
                    if let field = Self.field(String(decoding: line.filter { $0 != 0x0D }, as: UTF8.self)) { given.append(field) }
                }
            } else if let field = Self.field(header.text) {
                given.append(field)
            }
        }
        var fields: [HTTPField] = []
        let named = Set(given.map { $0.name.lowercased() })
        if let userAgent, !named.contains("user-agent") {
            unresolved += userAgent.unresolved
            fields.append(.init(name: "User-Agent", value: userAgent.text))
        }
        if let bearer, !named.contains("authorization") {
            unresolved += bearer.unresolved
            fields.append(.init(name: "Authorization", value: "Bearer \(bearer.text)"))
        } else if let user, !named.contains("authorization") {
            unresolved += user.unresolved
            fields.append(.init(name: "Authorization", value: "Basic (user '\(user.text)')"))
        }
        if data.contains(where: { $0.kind == .json }) {
            if !named.contains("content-type") { fields.append(.init(name: "Content-Type", value: "application/json")) }
            if !named.contains("accept") { fields.append(.init(name: "Accept", value: "application/json")) }
        }
        return fields + given
    }

    /// A `-H` argument as curl reads it: `Name: value`, `Name;` (an empty value), `Name:` (none sent).
    static func field(_ text: String) -> HTTPField? {
        let bytes = Array(text.utf8)
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            let name = trimmed(bytes[..<colon])
            let value = trimmed(bytes[(colon + 1)...])
            return name.isEmpty || value.isEmpty ? nil : HTTPField(name: name, value: value)
        }
        if bytes.last == UInt8(ascii: ";") {
            let name = trimmed(bytes.dropLast()[...])
            return name.isEmpty ? nil : HTTPField(name: name, value: "")
        }
        return nil
    }

    /// `bytes` without leading and trailing spaces and tabs, as text.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingBlanks: String { CurlCommand.trimmed(Array(utf8)[...]) }
}
