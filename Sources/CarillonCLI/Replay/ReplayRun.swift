@_spi(Tooling) import CarillonExtensionCore

/// One recording replayed: each image it is asked about goes through a runtime whose transport is the
/// recording (``RecordedTransport``), so the verdict comes from the same decisions as `process`; the
/// line is `process`'s, plus the `replay` object.
struct ReplayRun {
    let plan: ReplayCommand.Plan
    let archive: HARArchive
    let file: ReplayInput
    let io: ToolIO

    /// What the run came to.
    struct Result {
        var allRead = true
        var changed = false
        var reasons: [Reason] = []
    }

    /// One image to replay: the URL looked for, and the payload the extension receives.
    struct Target {
        var url: String
        var payload: [UInt8]
        var name: String
    }

    /// Replays every image asked about, adding each one's card to `report` when there is one.
    func replayAll(report: inout ReplayReport?) -> Result {
        var result = Result()
        guard let targets = targets() else {
            result.allRead = false
            return result
        }
        for target in targets {
            guard let one = replay(target, report: &report) else {
                result.allRead = false
                continue
            }
            result.reasons.append(one.reason)
            if one.changed { result.changed = true }
            if one.unchecked { result.allRead = false }
        }
        return result
    }

    /// The images asked about: `--payload`, `--url` or `--entry`; a carillon recording's own payload;
    /// or every image entry. Nil after a stderr line when the choice cannot be made.
    private func targets() -> [Target]? {
        if let path = plan.payloadPath {
            guard let bytes = try? FileSystem.readFile(path, limit: 1 << 20, policy: .namedByUser),
                let payload = try? Payload(bytes: bytes), let image = payload.userInfo["carillon"]?["image"]?.stringValue
            else {
                io.standardError.line("\(CarillonTool.name): \(path): not a payload with a carillon.image string")
                return nil
            }
            return [Target(url: image, payload: bytes, name: FileName.jsonText(file.path))]
        }
        if let url = plan.url { return [Target(url: url, payload: Self.payload(for: url), name: FileName.jsonText(file.path))] }
        if let index = plan.entry {
            guard let entry = archive.entry(atFileIndex: index) else {
                io.standardError.line("\(CarillonTool.name): \(file.path): no entry \(index) (the file has \(archive.entries.count))")
                return nil
            }
            return [Target(url: entry.request.url, payload: Self.payload(for: entry.request.url), name: name(entry))]
        }
        if let recorded = archive.carillon?["payload"], let image = recorded["carillon"]?["image"]?.stringValue {
            return [Target(url: image, payload: Array(JSONWriter.string(recorded).utf8), name: FileName.jsonText(file.path))]
        }
        var seen: Set<String> = []
        let images = archive.entries.sorted { $0.index < $1.index }.filter { $0.isImage && seen.insert($0.request.url).inserted }
        if images.isEmpty { io.standardError.line("\(CarillonTool.name): \(file.path): no image entry (see --list)") }
        return images.map { Target(url: $0.request.url, payload: Self.payload(for: $0.request.url), name: name($0)) }
    }

    /// The entries that answered the chain, in its order, as the recorded source chose them; the
    /// first entry when none did.
    static func entries(answered: [Int], transfer: HARTransfer) -> [Int] {
        answered.isEmpty ? Array(transfer.entries.prefix(1)) : answered.map { transfer.entries[$0] }
    }

    private func name(_ entry: HAREntry) -> String { FileName.jsonText(file.path) + "#\(entry.index)" }

    /// The payload Carillon's server sends for an image: an alert, mutable-content 1, the image.
    static func payload(for url: String) -> [UInt8] {
        let value: JSONValue = [
            "aps": ["alert": ["title": "Replay", "body": "An image from a capture"], "mutable-content": 1],
            "carillon": ["image": .string(url), "delivery_id": "00000000-0000-4000-8000-000000000000"],
        ]
        return Array(JSONWriter.string(value).utf8)
    }

    /// One image: its line printed; nil when the HAR has no entry for it (said on stderr).
    private func replay(_ target: Target, report: inout ReplayReport?) -> (reason: Reason, changed: Bool, unchecked: Bool)? {
        let finder = HARHopFinder(archive: archive, ignoredQuery: HARHopFinder.defaultIgnoredQuery.union(plan.ignoredQuery))
        guard let first = finder.firstEntry(for: target.url) else {
            let nearest = finder.nearest(to: target.url).map { "entry \($0.index) ('\($0.request.url)')" }
            io.standardError.line(
                "\(CarillonTool.name): \(file.path): no entry for '\(target.url)'"
                    + (nearest.isEmpty ? "" : "; nearest: " + nearest.joined(separator: ", ")))
            return nil
        }
        var configuration = plan.pipeline.configuration
        configuration.download = ReplayRecordedOptions.apply(
            archive.carillon?["options"], to: configuration.download, given: plan.given)
        let transfer = HARTransfer(
            archive: archive, first: first.entry, url: target.url, cap: configuration.download.limits.maximumBytes, latin1: plan.latin1,
            directory: file.directory, chain: plan.chain)
        let instant = plan.at ?? first.entry.started ?? Timestamp.now()
        let transport = RecordedTransport(
            transfer: transfer.transfer, configuration: configuration.download, at: instant.millisecondsSinceEpoch / 1000,
            match: finder.comparison.match)
        let runtime = ExtensionRuntime(configuration: configuration, replaying: transport)
        // The line is printed before this returns: without --attachments its files go with it, and the
        // run's directory stays for the next recording (ReplayCommand removes it at the end).
        defer { runtime.finishKeepingRunDirectory() }
        guard let payload = try? Payload(bytes: target.payload) else { return nil }
        var result = runtime.process(
            NotificationRequest(identifier: target.name, payload: payload), timeWillExpireAfter: plan.pipeline.expireAfter)
        let entries = Self.entries(answered: transport.answered, transfer: transfer).compactMap {
            archive.entry(atFileIndex: $0)
        }
        result.warnings += entries.flatMap(HARRequestComparison.warnings)
        result.warnings += PayloadRunner.appWarnings(result, configuration.download.transportSecurityPolicy)
        let object = ReplayObject.make(
            archive: archive, file: file.path, entries: entries, transfer: transfer, transport: transport,
            headers: configuration.download.requestHeaders, choice: first.warning, suppliedChain: !plan.chain.isEmpty)
        if plan.format == .text {
            let block = TextBlock.make(
                .file(target.name, named: true), result: result, payloadWarnings: payload.warnings, userInfo: payload.userInfo,
                keptFiles: configuration.keepsAttachments)
            io.standardOutput.write(block + ReplayText.lines(object))
        } else {
            let line = ResultLine.make(
                .file(target.name, named: true), result: result, payloadWarnings: payload.warnings,
                keptFiles: configuration.keepsAttachments)
            io.standardOutput.write(String(line.dropLast()) + ",\"replay\":" + JSONWriter.string(object) + "}\n")
        }
        // Before the runtime finishes: without --attachments its image goes with it.
        report?.add(name: target.name, result: result, warnings: payload.warnings + result.warnings, replay: object)
        var changed = false
        if plan.check { changed = ReplayCheck.differs(recorded: archive.carillon?["verdict"], now: result, file: file.path, io: io) }
        return (result.outcome.reason, changed, plan.check && archive.carillon?["verdict"] == nil)
    }
}
