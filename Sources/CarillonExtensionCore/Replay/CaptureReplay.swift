/// A capture replayed: each image it is asked about goes through a runtime whose transport is the
/// capture (``RecordedTransport``), so the verdict comes from the same decisions as a live run, with the
/// settings the capture was recorded under unless others were asked for. It opens no socket.
///
/// The caller reads the files and renders: this chooses the images (``images(_:)``), the entries that
/// answer each, the settings, and what the line's `replay` object says (``ReplayFacts``).
package struct CaptureReplay: Sendable {
    /// The capture, as read (a shared download's recording already lent its first's entries).
    package let archive: HARArchive
    /// The file as it was named, and the directory its `_file` names are relative to.
    package let file: String
    package let directory: String
    package let settings: ReplaySettings
    private let finder: HARHopFinder

    /// A replay of `archive`, read from `file` in `directory`, as `settings` ask.
    package init(archive: HARArchive, file: String, directory: String, settings: ReplaySettings) {
        self.archive = archive
        self.file = file
        self.directory = directory
        self.settings = settings
        finder = HARHopFinder(archive: archive, ignoredQuery: settings.comparison.ignoredQuery)
    }

    /// The notifications `target` asks for, in order.
    package func images(_ target: ReplayTarget) -> Result<[ReplayImage], ReplayProblem> {
        let name = FileName.jsonText(file)
        switch target {
        case .payload(let payload):
            return .success([ReplayImage(name: name, payload: payload, url: Self.imageURL(payload))])
        case .url(let url):
            return .success([ReplayImage(name: name, payload: Self.payload(for: url), url: url)])
        case .entry(let index):
            guard let entry = archive.entry(atFileIndex: index) else {
                return .failure(.noEntry(index: index, count: archive.entries.count))
            }
            return .success([image(entry)])
        case .capture:
            if let recorded = archive.carillon, let url = recorded.imageURL, let payload = recorded.payload.flatMap(Payload.init(recorded:))
            {
                return .success([ReplayImage(name: name, payload: payload, url: url)])
            }
            // One line per distinct image URL, as compared: the extension asks for a URL once.
            var seen: Set<String> = []
            let images = archive.entries.sorted { $0.index < $1.index }.filter {
                $0.isImage && seen.insert(finder.comparable($0.request.url)).inserted
            }
            return images.isEmpty ? .failure(.noImageEntry) : .success(images.map(image))
        }
    }

    /// Replays `image`, handing what it came to to `deliver` before the runtime's files go (without
    /// kept attachments, an attached image lasts until then); a problem when the capture has no entry
    /// for its URL.
    package func replay(_ image: ReplayImage, deliver: (ReplayedImage) -> Void) -> ReplayProblem? {
        var configuration = settings.configuration
        configuration.download = settings.download(recorded: archive.carillon?.options)
        var found: (transfer: HARTransfer, choice: String?, started: Timestamp?)?
        if let url = image.url {
            guard let first = finder.firstEntry(for: url) else { return .noEntryForURL(url, nearest: finder.nearest(to: url)) }
            let transfer = HARTransfer(
                archive: archive, first: first.entry, url: url, cap: configuration.download.limits.maximumBytes, latin1: settings.latin1,
                directory: directory, chain: settings.chain, comparison: finder.comparison)
            found = (transfer, first.warning, first.entry.started)
        }
        let instant = settings.at ?? found?.started ?? Timestamp.now()
        let expireAfter = settings.expiry(recorded: archive.carillon?.options)
        let transport = RecordedTransport(
            transfer: found?.transfer.transfer ?? RecordedTransfer(hops: []), configuration: configuration.download,
            at: instant.millisecondsSinceEpoch / 1000, match: finder.comparison.match, expireAfter: expireAfter)
        let runtime = ExtensionRuntime(configuration: configuration, replaying: transport)
        // Without kept attachments the run's directory stays for the next image, emptied: the caller
        // removes it at the run's end.
        defer { runtime.finishKeepingRunDirectory() }
        var result = runtime.process(
            NotificationRequest(identifier: image.name, payload: image.payload),
            timeWillExpireAfter: expireAfter)
        let entries = found.map { Self.entries(answered: transport.answered, transfer: $0.transfer) } ?? []
        let answered = entries.compactMap { archive.entry(atFileIndex: $0) }
        result.warnings += answered.flatMap(HARRequestComparison.warnings)
        var notes = entries.flatMap { found?.transfer.notes[$0] ?? [] }
        if let choice = found?.choice { notes.append(choice) }
        if transport.ranOutOfTime { notes.append(ReplayFacts.timesNote) }
        if transport.usedRecordedTrust, let trust = found?.transfer.transfer.trust {
            notes.append(
                "certificate chains were judged with the extra trust the recording was made with (\(trust.count) certificate"
                    + "\(trust.count == 1 ? "" : "s") of its extra CA file) beside the system's store")
        }
        let facts = ReplayFacts.make(
            archive: archive, file: FileName.jsonText(file), entries: answered, notes: notes, unchecked: transport.unchecked,
            headers: configuration.download.requestHeaders, suppliedChain: !settings.chain.isEmpty)
        deliver(
            ReplayedImage(
                name: image.name, payload: image.payload, result: result, facts: facts, recordedVerdict: archive.carillon?.verdict))
        return nil
    }

    /// The entries that answered the chain, in its order, as the recorded source chose them; the
    /// first entry when none did.
    static func entries(answered: [Int], transfer: HARTransfer) -> [Int] {
        answered.isEmpty ? Array(transfer.entries.prefix(1)) : answered.map { transfer.entries[$0] }
    }

    /// The image entry `entry` as a notification: the payload Carillon's server sends for its URL.
    private func image(_ entry: HAREntry) -> ReplayImage {
        ReplayImage(
            name: FileName.jsonText(file) + "#\(entry.index)", payload: Self.payload(for: entry.request.url), url: entry.request.url)
    }

    /// The image a payload would have the extension fetch, as written: nil when it is not routed or
    /// names no image URL the extension would request (its line then says why, with no download).
    static func imageURL(_ payload: Payload) -> String? {
        let stamp = CarillonStamp(userInfo: payload.userInfo)
        guard Routing.decide(payload.userInfo) == nil, case .url = stamp.image else { return nil }
        return stamp.imageText
    }

    /// The payload Carillon's server sends for an image: an alert, mutable-content 1, the image.
    static func payload(for url: String) -> Payload {
        let value: JSONValue = [
            "aps": ["alert": ["title": "Replay", "body": "An image from a capture"], "mutable-content": 1],
            "carillon": ["image": .string(url), "delivery_id": "00000000-0000-4000-8000-000000000000"],
        ]
        // An object, always: a payload.
        return Payload(recorded: value)!
    }
}
