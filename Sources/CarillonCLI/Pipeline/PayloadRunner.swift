@_spi(Tooling) import CarillonExtensionCore
import Dispatch
import Synchronization

/// Runs payloads through the extension, `jobs` at a time, printing each result line in input order as
/// soon as it and all before it are done.
struct PayloadRunner: Sendable {
    let runtime: ExtensionRuntime
    let expireAfter: Duration
    let io: ToolIO
    var format = OutputFormat.json
    /// Whether to keep each payload's ``ReportEntry`` for `--report`.
    var collectsReport = false
    /// Whether to tally distinct images for `--summary`.
    var campaign = false
    /// `--fail-on`, which decides a JUnit test case's failure.
    var failOn: FailOn? = nil
    /// `--record`: writes each payload's download as a HAR file.
    var recorder: Recorder? = nil
    /// SPEC §12: what the app says of where an image shows, and the device's previews setting.
    var presentationFacts = PresentationFacts.unknown
    var previews: ShowPreviews? = nil
    /// `--app`: a refused handshake names the extension's Info.plist exception, not an option.
    var wordsForApp = false
    /// `--bundle`: each record carries what the bundle keeps of it (``BundleRecord``).
    var bundles = false
    /// The tally's records, in order (the bundle writes them).
    var onRecord: (@Sendable (PayloadRecord) -> Void)? = nil
    /// The shard the progress line names.
    var shard: Shard? = nil

    /// How each payload is shown: JSON Lines (the default, for scripts) or a readable block.
    enum OutputFormat: String, CaseIterable, Sendable {
        case json, text, junit
    }

    /// What a run came to.
    struct Report {
        /// False when any input was unreadable or not a JSON object.
        var allRead: Bool
        /// Each processed payload's reason and elapsed milliseconds, in input order.
        var outcomes: [(reason: Reason, elapsedMilliseconds: Double)]
        /// The report's cards, grouped by image and bounded; empty unless the runner collects them.
        var groups = ReportGroups()
        /// Per distinct image, when the runner tallies them.
        var images: CampaignImages? = nil
        /// JUnit failures and errors (``JUnitXML/verdict(reason:namesImage:failOn:)``).
        var testFailures = 0
        var testErrors = 0
        /// Payloads whose receipt was not stored (`"receipt":"failed"`).
        var receiptFailures = 0
        /// The requests among the inputs (SPEC §12).
        var requests = RequestTally()
    }

    /// Processes every payload of the stream. Results are printed in input order as they and all
    /// before them are done; at most ``window`` payloads are taken ahead of the last one printed, so
    /// memory does not grow with the input's length.
    func run(_ stream: PayloadStream, jobs: Int) -> Report {
        let tally = RunTally(collectsReport: collectsReport, campaign: campaign, onRecord: onRecord)
        let permits = DispatchSemaphore(value: Self.window(jobs: jobs))
        let printer = OrderedPrinter(io: io, tally: tally, progress: progressDisplay(stream, tally: tally)) { permits.signal() }
        // A pipe stage's writer may wait for each answer: each line goes out as soon as it is decided.
        let eachLine = stream.readsStandardInput
        let allRead = Atomic<Bool>(true)
        let firstFinished = DispatchSemaphore(value: 0)
        // `leads`: this worker signals `firstFinished` after its first payload (or when it has none).
        let work: @Sendable (_ leads: Bool) -> Void = { leads in
            var signalled = !leads
            defer { if !signalled { firstFinished.signal() } }
            var size = 1
            while true {
                // One permit waited for, the rest of the batch only if free now: no worker blocks while
                // holding permits, so the window can never be used up by half-taken batches.
                permits.wait()
                var taken = 1
                while taken < size, permits.wait(timeout: .now()) == .success { taken += 1 }
                // Once standard output is gone, nothing more can reach the reader: the run ends.
                let batch = io.standardOutput.failure == nil ? stream.next(upTo: taken) : []
                for _ in batch.count..<taken { permits.signal() }
                guard !batch.isEmpty else { return }
                let (slowest, read) = runBatch(batch, stream: stream, printer: printer, permits: permits, eachLine: eachLine)
                if !read { allRead.store(false, ordering: .relaxed) }
                size = WorkerBatch.next(after: size, slowest: slowest)
                if !signalled {
                    firstFinished.signal()
                    signalled = true
                }
            }
        }
        if jobs == 1 {
            // One at a time: on this thread, with each download on it too (no hand-off at all).
            work(false)
        } else {
            let group = DispatchGroup()
            for worker in 0..<jobs {
                // A queue of its own per worker: workers block while a notification is processed, and
                // blocking the shared global queue starves it (libdispatch on Linux then adds one thread
                // a second, which stalled --jobs 4 runs by whole seconds).
                DispatchQueue(label: "carillon-nse.process.\(worker)").async(group: group) { work(worker == 0) }
                // The others start once the first payload is done (at most a second later): its TLS
                // handshake then leaves a session that their connections resume (the pool shares one
                // session cache) instead of each making a full handshake at the same moment, as
                // curl --parallel waits for its first connection. A slow first image delays the others'
                // start by at most that second (and a stalled one, which runs on, by exactly that).
                if worker == 0 { _ = firstFinished.wait(timeout: .now() + .seconds(1)) }
            }
            group.wait()
        }
        printer.finish()
        return tally.report(allRead: allRead.load(ordering: .relaxed))
    }

    /// The progress line, on a terminal only.
    private func progressDisplay(_ stream: PayloadStream, tally: RunTally) -> ProgressDisplay? {
        guard io.standardErrorIsTerminal else { return nil }
        let started = ContinuousClock.now
        let total = stream.measureTotal()
        let shard = self.shard
        return ProgressDisplay(io: io) {
            let counts = tally.counts
            return ProgressLine.Snapshot(
                shard: shard, input: stream.progress, total: total, done: counts.done, images: counts.images, fellBack: counts.fellBack,
                elapsed: ContinuousClock.now - started)
        }
    }

    /// Processes a batch in order and prints it in one go; returns the slowest payload's time. After a
    /// slow payload (``WorkerBatch/slow``), or once standard output is gone, what is done is printed and
    /// the rest is given back to the stream, so that payloads never queue behind a slow one in a worker.
    /// Also says whether every payload done was read as a JSON object.
    private func runBatch(
        _ batch: [PayloadStream.Item], stream: PayloadStream, printer: OrderedPrinter, permits: DispatchSemaphore, eachLine: Bool
    ) -> (slowest: Duration, allRead: Bool) {
        var done: [OrderedPrinter.Done] = []
        done.reserveCapacity(batch.count)
        var slowest = Duration.zero
        var allRead = true
        for (offset, item) in batch.enumerated() {
            let started = ContinuousClock.now
            var (line, read, record) = process(item.input, index: item.index)
            record.position = item.position
            let took = ContinuousClock.now - started
            slowest = max(slowest, took)
            allRead = allRead && read
            if eachLine {
                printer.complete([(item.index, line, record)])
            } else {
                done.append((item.index, line, record))
            }
            let rest = batch[(offset + 1)...]
            if !rest.isEmpty && (took >= WorkerBatch.slow || io.standardOutput.failure != nil) {
                stream.giveBack(rest)
                for _ in rest { permits.signal() }
                break
            }
        }
        printer.complete(done)
        return (slowest, allRead)
    }

    /// How many payloads may be taken ahead of the last one printed: enough that a slow one does not
    /// idle the other workers for long, few enough that waiting lines stay small.
    static func window(jobs: Int) -> Int { max(64, jobs * 32) }

    /// One payload: its output, whether it was read as a JSON object, its reason and time, and its
    /// report card when the runner collects them.
    private func process(_ input: PayloadInput, index: Int) -> (String, Bool, PayloadRecord) {
        let notification: PayloadInput.Notification
        switch input.readNotification(io: io) {
        case .success(let read): notification = read
        case .failure(let error): return invalid(input, error)
        }
        let payload = notification.payload
        // The CLI plays iOS: time-will-expire comes `expireAfter` after delivery. The result
        // comes back once a cancelled download has removed its partial file.
        // Named as its line names it: a shared download's `shared_with` is that name.
        let request = NotificationRequest(identifier: input.name, payload: payload)
        var result = runtime.process(request, timeWillExpireAfter: expireAfter)
        if wordsForApp { result.wordRefusalForApp() }
        // SPEC §12: what the request that carried it comes to (nil for a payload file).
        let judged = notification.request.map { request in
            (
                request: request,
                judgement: RequestJudgement.judge(
                    request, payload: payload.userInfo, attached: result.outcome.reason == .attached, facts: presentationFacts,
                    previews: previews)
            )
        }
        let warnings =
            payload.warnings + PayloadHints.warnings(payload.userInfo)
            + (judged?.judgement.warnings ?? [])
        let requestRecord = judged.map { RequestTally.Record($0.judgement) }
        var verdict = JUnitXML.verdict(reason: result.outcome.reason, namesImage: result.imageURL != nil, failOn: failOn)
        // What failed is named: the outcome when --fail-on names it, else the request's condition.
        var failure: (type: String, message: String)?
        if let failOn, let judged, verdict != .failure, let found = RequestFailure.of(judged.judgement, failOn: failOn) {
            verdict = .failure
            failure = found
        }
        let requestValue = RequestLine.value(judged?.request, judged?.judgement)
        let keptFiles = runtime.configuration.keepsAttachments
        var lineValue: JSONValue?
        if format == .json && recorder != nil {
            let recorded = recording(input, payload, result, warnings).map { JSONValue.string(FileName.jsonText($0)) } ?? .null
            lineValue = ResultLine.value(
                input, result: result, payloadWarnings: warnings, keptFiles: keptFiles, request: requestValue, recording: recorded)
        } else if bundles {
            lineValue = ResultLine.value(input, result: result, payloadWarnings: warnings, keptFiles: keptFiles, request: requestValue)
        }
        let line =
            switch format {
            // Written straight to text when nothing keeps the line as a value.
            case .json:
                lineValue.map(JSONWriter.string)
                    ?? ResultLine.make(input, result: result, payloadWarnings: warnings, keptFiles: keptFiles, request: requestValue)
            case .text:
                TextBlock.make(
                    input, result: result, payloadWarnings: warnings, userInfo: payload.userInfo,
                    keptFiles: runtime.configuration.keepsAttachments,
                    requestLines: judged.map { RequestText.lines($0.request, $0.judgement) } ?? [])
            case .junit:
                JUnitXML.testCase(
                    name: input.name, classname: JUnitXML.classname(imageURL: result.imageURL),
                    seconds: result.elapsed.inMilliseconds / 1000,
                    verdict: verdict, reason: result.outcome.reason, detail: result.outcome.printedDetail, failure: failure)
            }
        if recorder != nil, format != .json { _ = recording(input, payload, result, warnings) }
        var entry = collectsReport ? ReportEntry(payload: input.name, result: result, warnings: warnings + result.warnings) : nil
        if let judged { entry?.sections.append(RequestSection.section(judged.request, judged.judgement)) }
        var record = PayloadRecord(
            name: input.name, outcome: result.outcome, elapsedMilliseconds: result.elapsed.inMilliseconds,
            image: result.routed ? result.imageURL : nil, sharedWith: result.sharedWith,
            trace: result.trace, attachment: result.content.attachments.first, entry: entry, verdict: verdict,
            receiptFailed: result.receipt.warning != nil)
        record.request = requestRecord
        if case .line = input { record.fromLines = true }
        if case .made = input, notification.request == nil { record.madeByTool = true }
        if bundles, let lineValue {
            record.bundleData = BundleRecord.payload(
                line: lineValue, content: result.content, read: true, request: requestRecord, input: input)
            record.bundleLine = Array((format == .json ? line : JSONWriter.string(lineValue)).utf8)
        }
        return (line, true, record)
    }

    /// The line and record of an input that could not be read as a payload or a request.
    /// A request whose body is not a payload is still judged, with no payload (SPEC §12): its line has
    /// `request`, and its record the request's conditions; it stays unreadable (exit 1, a JUnit error).
    private func invalid(_ input: PayloadInput, _ error: PayloadInput.ReadError) -> (String, Bool, PayloadRecord) {
        io.standardError.line("\(CarillonTool.name): \(input.name): \(error.message)")
        let judgement = error.request.map {
            RequestJudgement.judge($0, payload: nil, attached: false, facts: presentationFacts, previews: previews)
        }
        let warnings = judgement?.warnings ?? []
        let requestValue = RequestLine.value(error.request, judgement)
        // Not `bundles ? value : nil`: JSONValue takes `nil` as its literal, which would make that `.some(.null)`.
        let lineValue: JSONValue? =
            bundles ? .some(ResultLine.invalidValue(input, error.message, warnings: warnings, request: requestValue)) : .none
        let line =
            switch format {
            case .json:
                lineValue.map(JSONWriter.string) ?? ResultLine.invalid(input, error.message, warnings: warnings, request: requestValue)
            case .text:
                TextBlock.invalid(
                    input, error.message,
                    requestLines: error.request.flatMap { request in judgement.map { RequestText.lines(request, $0) } } ?? [])
            case .junit:
                JUnitXML.testCase(
                    name: input.name, classname: "no-image", seconds: 0, verdict: .error, reason: .invalidPayload, detail: error.message)
            }
        var entry = collectsReport ? ReportEntry(invalid: input.name, detail: error.message) : nil
        if let request = error.request, let judgement { entry?.sections.append(RequestSection.section(request, judgement)) }
        var record = PayloadRecord(
            name: input.name, outcome: Outcome(.invalidPayload, error.message), elapsedMilliseconds: 0, image: nil, sharedWith: nil,
            trace: nil, attachment: nil, entry: entry, verdict: .error)
        record.request = judgement.map { RequestTally.Record($0) }
        if bundles, let lineValue {
            record.bundleData = BundleRecord.payload(line: lineValue, content: nil, read: false, request: nil, input: input)
            record.bundleLine = Array((format == .json ? line : JSONWriter.string(lineValue)).utf8)
        }
        return (line, false, record)
    }

    /// Records the payload's download with ``recorder``, its verdict the JSON line as printed without
    /// `recording`; returns the file's path.
    private func recording(_ input: PayloadInput, _ payload: Payload, _ result: ServiceResult, _ warnings: [String]) -> String? {
        guard let recorder else { return nil }
        let line = ResultLine.value(input, result: result, payloadWarnings: warnings)
        return recorder.record(input, payload: payload, result: result, line: line, io: io)
    }
}
