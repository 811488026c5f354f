@_spi(Tooling) import CarillonExtensionCore

/// The campaign summary's JSON (SPEC §6a): every distinct image with its verdict, then the counts per
/// reason and the totals. `summary merge` reads N of them back (``SummaryMerge``).
///
/// ```json
/// {"format":"carillon-campaign-summary","version":1,"shards":["0/2"],
///  "totals":{"payloads":4000,"images":6,"images_failed":2,"payloads_attached":3100,"payloads_failed":120},
///  "reasons":{"attached":3100,"no-image":780,...},
///  "images":[{"url":"https://…","verdict":"pass","reason":"attached","detail":"…","payloads":700,
///             "first_payloads":["c.jsonl:1",…],"bytes":1234,"type":"png","width":64,"height":64,
///             "reasons":{"attached":700},"trace":{…}}]}
/// ```
enum CampaignSummary {
    static let format = "carillon-campaign-summary"

    /// The document for one run; `shard` is `K/N` when the run was one. `requests` (SPEC §12) is added
    /// only when some input was a request.
    static func document(_ images: CampaignImages, shard: PayloadStream.Shard?, requests: RequestTally = RequestTally()) -> JSONValue {
        let entries: [JSONValue] = images.images.map { image in
            .object([
                (key: "url", value: .string(image.url)),
                (key: "verdict", value: .string(verdict(image))),
                (key: "reason", value: .string(image.outcome.reason.code)),
                (key: "detail", value: .string(image.outcome.printedDetail)),
                (key: "payloads", value: .number(String(image.payloads))),
                (key: "first_payloads", value: .array(image.firstPayloads.map { .string($0) })),
                (key: "bytes", value: image.byteCount.map { .number(String($0)) } ?? .null),
                (key: "type", value: image.type.map { .string($0.rawValue) } ?? .null),
                (key: "width", value: image.trace?.image.map { .number(String($0.width)) } ?? .null),
                (key: "height", value: image.trace?.image.map { .number(String($0.height)) } ?? .null),
                (key: "reasons", value: counts(image.reasons)),
                (key: "trace", value: TraceJSON.value(image.trace)),
            ])
        }
        let failedImages = images.images.filter { verdict($0) == "fail" }.count
        let attached = images.reasons[.attached] ?? 0
        let failed = images.images.reduce(0) { $0 + $1.payloads - ($1.reasons[.attached] ?? 0) }
        var extra: [(key: String, value: JSONValue)] = []
        if requests.requests > 0 { extra.append((key: "requests", value: requestCounts(requests))) }
        return .object(
            [
                (key: "format", value: .string(format)),
                (key: "version", value: .number("1")),
                (key: "shards", value: .array(shard.map { [.string("\($0.index)/\($0.count)")] } ?? [])),
                (
                    key: "totals",
                    value: .object([
                        (key: "payloads", value: .number(String(images.payloads))),
                        (key: "images", value: .number(String(images.count))),
                        (key: "images_failed", value: .number(String(failedImages))),
                        (key: "payloads_attached", value: .number(String(attached))),
                        (key: "payloads_failed", value: .number(String(failed))),
                    ])
                ),
                (key: "reasons", value: counts(images.reasons)),
                (key: "images", value: .array(entries)),
            ] + extra)
    }

    /// SPEC §12's counts: requests, APNs' refusals by reason, extensions that do not run, images not shown.
    static func requestCounts(_ requests: RequestTally) -> JSONValue {
        .object([
            (key: "requests", value: .number(String(requests.requests))),
            (key: "payload_files", value: .number(String(requests.plainPayloads))),
            (
                key: "refused",
                value: .object(requests.refusals.sorted { $0.key < $1.key }.map { (key: $0.key, value: .number(String($0.value))) })
            ),
            (key: "extension_not_run", value: .number(String(requests.extensionNotRun))),
            (key: "not_shown", value: .number(String(requests.notShown))),
        ])
    }

    /// `pass` (attached), `fail` (any other verdict), or `undecided` (every payload expired first).
    static func verdict(_ image: CampaignImages.Image) -> String {
        guard image.decided else { return "undecided" }
        return image.outcome.reason == .attached ? "pass" : "fail"
    }

    /// Reason codes with their counts, most frequent first (ties by code).
    static func counts(_ tally: [Reason: Int]) -> JSONValue {
        let sorted = tally.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.code < $1.key.code }
        return .object(sorted.map { (key: $0.key.code, value: .number(String($0.value))) })
    }
}

/// Writes `--summary`: atomically (a temporary file, fsync, rename, the directory fsynced), so a kill at
/// any instant leaves the older summary or the whole new one, never part of one.
enum CampaignSummaryFile {
    /// Builds, writes and says on standard error where and how fast; false (after saying why) when it
    /// cannot.
    static func write(_ document: @autoclosure () -> JSONValue, to path: String, io: ToolIO) -> Bool {
        let started = ContinuousClock.now
        let bytes = Array((JSONWriter.string(document()) + "\n").utf8)
        do throws(FileSystemError) {
            _ = try FileSystem.publishAtomically(bytes, to: path, mode: 0o644, replace: true)
            let milliseconds = (ContinuousClock.now - started).inMilliseconds
            io.standardError.line(
                "\(CarillonTool.name): campaign summary: \(Quoting.display(path)) (\(bytes.count) bytes,"
                    + " written in \(ResultLine.milliseconds(milliseconds)) ms)")
            return true
        } catch {
            io.standardError.line("\(CarillonTool.name): cannot write summary '\(Quoting.display(path))': \(error.description)")
            return false
        }
    }
}
