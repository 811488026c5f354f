@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse check URL...`: would this image show? Each URL becomes the payload Carillon's server
/// sends for it and runs through `process`'s pipeline (SPEC §6b).
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "Check image URLs: each as the payload Carillon's server sends, through process's pipeline."

    /// The pipeline's options (``PipelineOptions``), but for `--container` (the payload carries no
    /// delivery_id, so no receipt) and `--lines` (no payload files).
    static let options: [OptionSpec] = PipelineOptions.specs.filter { !notOffered.contains($0.name) }

    private static let notOffered = [PipelineOptions.container.spec.name, CampaignOptions.lines.spec.name]

    static let arguments = [
        ArgumentSpec(name: "URL", value: .text, about: "An image URL, or - (standard input: URLs one per line).", repeats: true)
    ]

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "Every URL was read (an image that would not show is a normal outcome, as in process)."),
        ExitStatus(code: 1, meaning: "Standard input could not be read or held no URL, or the report could not be written."),
        ExitStatus(code: 2, meaning: "An outcome matched --fail-on, and every input was read."),
        ExitStatus(
            code: 64,
            meaning:
                "Bad usage: no URL, - given twice, an unreadable --ca-file or one without a certificate, a --report in a missing"
                + " directory, an --attachments that is not a directory, cannot be created or is not writable."),
    ]

    static let overview = """
        The quickest answer to "would this image show?": each URL becomes the payload Carillon's server
        sends for it (an alert, mutable-content 1, carillon.image = URL) and goes through the same
        pipeline as 'process' — the URL rules, the download under App Transport Security, verification
        and attachment — with the same options, output line (its payload is the URL), formats, report,
        summary and exit statuses. URL is an image URL, or - to read URLs one per line from standard
        input (blank lines skipped); a request pasted on standard input instead (a curl command, an APNs
        request text or an FCM message) is judged as process judges it. A URL the rules refuse is invalid-url or insecure-url, exit 0 as in
        process.

        There is no --container: Carillon's payload for a URL carries no delivery_id, so there is no
        receipt to store; each line says receipt "none" and warns that 'carillon' has no delivery_id.
        To check receipts too, write the payload and run 'carillon-nse process --container DIR'.
        """

    /// The most standard input read for `-`: about 600,000 URLs of 100 bytes.
    static let maximumStandardInputBytes = 64 * 1_048_576

    /// The pipeline's options and the URLs, checked.
    struct Plan {
        var pipeline: PipelinePlan
        /// The URL arguments, `-` among them at most once.
        var urls: [String]
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        let pipeline = try PipelinePlan.read(arguments)
        return Plan(pipeline: pipeline, urls: try inputArguments(arguments, naming: "URL"))
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        var status = CarillonTool.exitSuccess
        let inputs = payloads(for: plan.urls, io: io, status: &status)
        let stream = plan.pipeline.stream(inputs)
        return PipelineRun(plan: plan.pipeline, io: io).run(stream, inputsGiven: !plan.urls.isEmpty, status: status)
    }

    /// Each URL's payload, in order; `-` is replaced by the URLs on standard input (a failure to read it
    /// is said, and makes `status` 1).
    static func payloads(for arguments: [String], io: ToolIO, status: inout Int32) -> [PayloadInput] {
        var inputs: [PayloadInput] = []
        for argument in arguments {
            guard argument == "-" else {
                inputs.append(payload(for: argument))
                continue
            }
            do {
                let bytes = try io.readStandardInput(maximumStandardInputBytes)
                // A request pasted in (a curl command, an APNs request text, an FCM message: SPEC §12) is
                // judged as one, with its own payload; so is anything that opens a JSON object (a payload,
                // or a message that does not parse: the reader says why); anything else is URLs.
                if RequestReader.opensObject(bytes) || RequestReader.isRequest(bytes) {
                    inputs.append(.made(name: "-", bytes: bytes))
                } else {
                    inputs += urls(in: bytes).map(payload(for:))
                }
            } catch {
                io.standardError.line("\(CarillonTool.name): -: cannot read the URLs on standard input: \(error)")
                status = CarillonTool.exitDataError
            }
        }
        return inputs
    }

    /// The URLs of standard input: one a line, by the JSON Lines rule (``JSONLineSplitter``: a byte order
    /// mark at the start and a CR before each LF dropped, blank lines skipped), surrounding spaces and tabs
    /// removed.
    static func urls(in bytes: [UInt8]) -> [String] {
        var urls: [String] = []
        let take = { (line: JSONLineSplitter.Line) in
            let text = String(decoding: line.bytes, as: UTF8.self).trimmingWhitespace
            if !text.isEmpty { urls.append(text) }
        }
        var splitter = JSONLineSplitter(limit: bytes.count)
        bytes.withUnsafeBufferPointer { splitter.feed($0, take) }
        splitter.finish(take)
        return urls
    }

    /// The payload Carillon's server sends for an image: an alert, `mutable-content: 1` and
    /// `carillon.image`, named by its URL.
    static func payload(for url: String) -> PayloadInput {
        let payload = JSONValue.object([
            (
                key: "aps",
                value: .object([
                    (
                        key: "alert",
                        value: .object([(key: "title", value: .string("carillon-nse check")), (key: "body", value: .string(url))])
                    ),
                    (key: "mutable-content", value: .number("1")),
                ])
            ),
            (key: "carillon", value: .object([(key: "image", value: .string(url))])),
        ])
        return .made(name: url, bytes: Array(JSONWriter.string(payload).utf8))
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    fileprivate var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
