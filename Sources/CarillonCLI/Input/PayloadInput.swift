@_spi(Tooling) import CarillonExtensionCore

/// One payload to process: a file or standard input, named as the output's `payload` field.
enum PayloadInput: Equatable {
    /// A file: named on the command line (which may be a pipe, such as `<(cat a.json)`), or listed in a
    /// directory that was (a regular file only). The path is lossless (``FileName``).
    case file(String, named: Bool)
    case standardInput
    /// One line of a JSON Lines file, read already (``PayloadStream``).
    case line(JSONLinePayload)
    /// A payload the tool made (`check`'s payload for an image URL), named as its line names it.
    case made(name: String, bytes: [UInt8])

    /// The `payload` field: the path as given, or `-`. Exact for a UTF-8 name, control characters and
    /// all (JSON escaping carries them); only bytes that are not UTF-8 show as `\xNN`
    /// (``FileName/jsonText(_:)``). Messages and `--format text` show it by ``Quoting/display(_:)``.
    var name: String {
        switch self {
        case .file(let path, _): return FileName.jsonText(path)
        case .standardInput: return "-"
        case .line(let line): return line.name
        case .made(let name, _): return name
        }
    }

    /// The exact bytes of a path that ``name`` shows escaped (a path that is not UTF-8); nil for any
    /// other.
    var nameBytes: [UInt8]? {
        if case .line(let line) = self { return line.nameBytes }
        guard case .file(let path, _) = self, FileName.hasEscapes(path) else { return nil }
        return FileName.bytes(path)
    }

    /// The start of an output line: `payload`, and `payload_base64` (the exact bytes) beside it for a
    /// name that ``name`` shows escaped.
    var jsonMembers: [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = [(key: "payload", value: .string(name))]
        if let bytes = nameBytes { members.append((key: "payload_base64", value: .string(Base64.encode(bytes)))) }
        return members
    }

    /// A command-line argument as payloads: `-`, a file, or a directory's `*.json` and `*.apns` files (and its JSON
    /// Lines files, `*.jsonl` and `*.ndjson`, whose lines ``PayloadStream`` reads, and the `*.http`, `*.curl`, `*.sh`
    /// and `*.txt` files that hold a request, SPEC §12), sorted.
    /// A path that does not exist is kept as a file, so that it gets its own line saying so. Entries of
    /// a directory that are not regular files (a FIFO, a socket, a directory named `*.json`) are
    /// skipped, each named in `skipped`: reading one could block the run.
    /// With `recursive`, subdirectories (not hidden, never through a link: no loop) are expanded in
    /// place, in the same sorted order. Without `jsonLines` (`open`, `present`: a file is one payload),
    /// a directory's JSON Lines files are not taken.
    static func expand(_ argument: String, recursive: Bool = false, jsonLines: Bool = true) -> Result<
        (inputs: [PayloadInput], skipped: [String]), ExpansionError
    > {
        if argument == "-" { return .success(([.standardInput], [])) }
        guard FileSystem.isDirectory(argument) else { return .success(([.file(argument, named: true)], [])) }
        do {
            var inputs: [PayloadInput] = []
            var skipped: [String] = []
            for entry in try DirectoryListing.entries(argument) where !entry.name.hasPrefix(".") {
                let path = FileSystem.join(argument, entry.name)
                if recursive && entry.kind == .directory {
                    switch expand(path, recursive: true, jsonLines: jsonLines) {
                    case .success(let nested):
                        inputs += nested.inputs
                        skipped += nested.skipped
                    case .failure(let error):
                        skipped.append(error.message)
                    }
                    continue
                }
                guard
                    isPayloadFile(entry.name) || (jsonLines && JSONLinePayload.isJSONLines(entry.name))
                        || (jsonLines && mayBeRequestFile(entry.name) && holdsRequest(path))
                else { continue }
                var kind = entry.kind
                if kind == .symbolicLink || kind == nil {
                    // A link to a payload is fine; what it points to decides.
                    var info = CStat()
                    kind = FileName.withCString(path, { system_stat($0, &info) }) == 0 ? FileSystem.Kind(mode: info.st_mode) : nil
                }
                switch kind {
                case .regularFile?: inputs.append(.file(path, named: false))
                case nil: inputs.append(.file(path, named: false))  // gone or dangling: its line says so
                case let other?: skipped.append("\(Quoting.display(path)): \(other.description), not a payload file; skipped")
                }
            }
            return .success((inputs, skipped))
        } catch {
            return .failure(ExpansionError(message: "\(Quoting.display(argument)): cannot read directory: \(error.reason)"))
        }
    }

    /// Whether a directory's entry is a payload file: `*.json`, or Xcode's `*.apns` (a payload with the
    /// Simulator's `Simulator Target Bundle` beside `aps`).
    static func isPayloadFile(_ name: String) -> Bool {
        name.hasSuffix(".json") || name.hasSuffix(".apns")
    }

    struct ExpansionError: Error {
        var message: String
    }

    /// Reads the payload's bytes.
    func read(io: ToolIO, limit: Int) -> Result<[UInt8], ReadError> {
        switch self {
        case .line(let line):
            if let problem = line.problem { return .failure(ReadError(message: problem)) }
            return .success(line.bytes)
        case .made(_, let bytes):
            return .success(bytes)
        case .standardInput:
            do {
                return .success(try io.readStandardInput(limit))
            } catch let error as FileSystemError {
                return .failure(
                    ReadError(
                        message: error.errno == _EFBIG ? "larger than \(limit) bytes; not a push payload" : "cannot read: \(error.reason)"))
            } catch {
                return .failure(ReadError(message: "cannot read: \(error)"))
            }
        case .file(let path, let named):
            do {
                return .success(try FileSystem.readFile(path, limit: limit, policy: named ? .namedByUser : .regularFile))
            } catch {
                if error.errno == _EFBIG {
                    // A regular file's size is known before reading; a pipe or device was read up to the limit.
                    if (try? FileSystem.kind(path)) == .regularFile, let size = FileSystem.size(path) {
                        return .failure(
                            ReadError(message: "file is \(size) bytes, over the \(limit)-byte limit for a payload file; not read"))
                    }
                    return .failure(
                        ReadError(
                            message: "more than \(limit) bytes (the limit for a payload file) from a pipe or device; not a push payload"))
                }
                return .failure(ReadError(message: "cannot read: \(error.reason)"))
            }
        }
    }

    struct ReadError: Error {
        var message: String
        /// The request read, when the input is one whose body is not a payload (SPEC §12: its line still
        /// has `request`).
        var request: APNsRequest? = nil
    }

    /// Reads and parses the payload; the failure is the message for standard error and the output.
    func readPayload(io: ToolIO) -> Result<Payload, ReadError> {
        switch read(io: io, limit: ProcessCommand.maximumPayloadFileBytes) {
        case .failure(let error): return .failure(error)
        case .success(let bytes):
            do {
                return .success(try Payload(bytes: bytes))
            } catch {
                return .failure(ReadError(message: error.message))
            }
        }
    }

    /// Every payload the arguments name, read, in order, as `open` and `present` take them: an input that
    /// is unreadable or not a JSON object is said on standard error and skipped. `body` returns false to
    /// stop. Returns whether every input was found and read.
    static func forEachPayload(_ arguments: [String], io: ToolIO, _ body: (PayloadInput, Payload) -> Bool) -> Bool {
        var status = CarillonTool.exitSuccess
        for input in expandAll(arguments, jsonLines: false, io: io, status: &status) {
            switch input.readPayload(io: io) {
            case .success(let payload):
                guard body(input, payload) else { return status == CarillonTool.exitSuccess }
            case .failure(let error):
                io.standardError.line("\(CarillonTool.name): \(input.name): \(error.message)")
                status = CarillonTool.exitDataError
            }
        }
        return status == CarillonTool.exitSuccess
    }

    /// ``forEachPayload(_:io:_:)`` in groups that double in size — 1, 2, 4 … up to ``largestGroup`` —
    /// for commands that queue each group's events together: the first result comes as soon as one
    /// payload is read, and N payloads cost about log₂ N queue writes, not N.
    static func forEachGroup(_ arguments: [String], io: ToolIO, _ body: ([(input: PayloadInput, payload: Payload)]) -> Bool) -> Bool {
        var group: [(input: PayloadInput, payload: Payload)] = []
        var size = 1
        var going = true
        let allRead = forEachPayload(arguments, io: io) { input, payload in
            group.append((input, payload))
            guard group.count >= size else { return true }
            going = body(group)
            group = []
            size = min(size * 2, largestGroup)
            return going
        }
        if going && !group.isEmpty { _ = body(group) }
        return allRead
    }

    /// The most payloads queued together: the receipts' capacity, as a drain queues them.
    static let largestGroup = 1000

    /// Expands every argument, reporting directories that cannot be read (and setting `status` to 1).
    /// A directory without any payload, or a run that found none at all, is said on standard error
    /// and makes the status 1: an empty run that exits 0 looks like a pass.
    static func expandAll(
        _ arguments: [String], recursive: Bool = false, jsonLines: Bool = true, io: ToolIO, status: inout Int32
    ) -> [PayloadInput] {
        var inputs: [PayloadInput] = []
        for argument in arguments {
            switch expand(argument, recursive: recursive, jsonLines: jsonLines) {
            case .success(let expanded):
                inputs += expanded.inputs
                if expanded.inputs.isEmpty && argument != "-" {
                    let hint = recursive ? "" : " (--recursive descends into subdirectories)"
                    let name = Quoting.display(argument)
                    io.standardError.line(
                        "\(CarillonTool.name): \(name): no *.json or *.apns file (nor a request in *.http, *.curl, *.sh or *.txt) in this directory\(hint)"
                    )
                    status = CarillonTool.exitDataError
                }
                for line in expanded.skipped {
                    io.standardError.line("\(CarillonTool.name): \(line)")
                    status = CarillonTool.exitDataError
                }
            case .failure(let error):
                io.standardError.line("\(CarillonTool.name): \(error.message)")
                status = CarillonTool.exitDataError
            }
        }
        if inputs.isEmpty && !arguments.isEmpty {
            io.standardError.line("\(CarillonTool.name): no payload found")
            status = CarillonTool.exitDataError
        }
        return inputs
    }
}
