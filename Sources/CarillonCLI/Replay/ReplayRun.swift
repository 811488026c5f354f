@_spi(Tooling) import CarillonExtensionCore

/// One recording replayed by the core (``CaptureReplay``): each image's line printed as `process` prints
/// it, with the `replay` object from the line builder, and its card added to the report.
struct ReplayRun {
    let plan: ReplayCommand.Plan
    let replay: CaptureReplay
    let io: ToolIO

    /// What the run came to.
    struct Result {
        var allRead = true
        var changed = false
        var reasons: [Reason] = []
    }

    /// Whether a refused handshake names the extension's Info.plist exception rather than an option: under
    /// `--app` (without `--tls-minimum` or `--no-forward-secrecy`), or for a recording made so (its detail
    /// names the extension's Info.plist) that no such option overrides, so that `--check` of it stays stable.
    static func wordsForApp(_ plan: ReplayCommand.Plan, recorded: JSONValue?) -> Bool {
        if plan.pipeline.wordsForApp { return true }
        guard plan.settings.overrides.isDisjoint(with: [.minimumTLS, .forwardSecrecy]),
            let detail = recorded?["detail"]?.stringValue
        else { return false }
        return detail.contains(Outcome.appWordingMark)
    }

    /// Replays every image `target` asks about, adding each one's card to `report` when there is one.
    func replayAll(_ target: ReplayTarget, report: inout ReplayReport?) -> Result {
        var result = Result()
        let images: [ReplayImage]
        switch replay.images(target) {
        case .success(let found): images = found
        case .failure(let problem):
            say(problem)
            result.allRead = false
            return result
        }
        for image in images {
            let problem = replay.replay(image) { replayed in
                // An insecure-HTTP exception's warning is the core's (from the configuration it replayed
                // under); a refusal's words for --app are the CLI's, as process words them.
                var replayed = replayed
                if Self.wordsForApp(plan, recorded: replayed.recordedVerdict) { replayed.result.wordRefusalForApp() }
                print(replayed, report: &report)
                result.reasons.append(replayed.result.outcome.reason)
                guard plan.check else { return }
                if replayed.recordedVerdict == nil { result.allRead = false }
                if ReplayCheck.differs(recorded: replayed.recordedVerdict, now: replayed.result, file: replay.file, io: io) {
                    result.changed = true
                }
            }
            if let problem {
                say(problem)
                result.allRead = false
            }
        }
        return result
    }

    /// The line (or text block) of one replayed image, and its report card.
    private func print(_ replayed: ReplayedImage, report: inout ReplayReport?) {
        let object = ReplayObject.json(replayed.facts)
        let keptFiles = plan.settings.configuration.keepsAttachments
        let payload = replayed.payload
        if plan.format == .text {
            let block = TextBlock.make(
                .file(replayed.name, named: true), result: replayed.result, payloadWarnings: payload.warnings, userInfo: payload.userInfo,
                keptFiles: keptFiles)
            io.standardOutput.write(block + ReplayText.lines(object))
        } else {
            let line = ResultLine.make(
                .file(replayed.name, named: true), result: replayed.result, payloadWarnings: payload.warnings, keptFiles: keptFiles,
                replay: object)
            io.standardOutput.write(line + "\n")
        }
        // Before the runtime finishes: without --attachments its image goes with it.
        report?.add(name: replayed.name, result: replayed.result, warnings: payload.warnings + replayed.result.warnings, replay: object)
    }

    /// One stderr line naming the file and what could not be replayed.
    private func say(_ problem: ReplayProblem) {
        let words: String
        switch problem {
        case .noEntry(let index, let count): words = "no entry \(index) (the file has \(count))"
        case .noImageEntry: words = "no image entry (see --list)"
        case .noEntryForURL(let url, let nearest):
            let named = nearest.map { "entry \($0.index) ('\($0.request.url)')" }
            words = "no entry for '\(url)'" + (named.isEmpty ? "" : "; nearest: " + named.joined(separator: ", "))
        }
        io.standardError.line("\(CarillonTool.name): \(replay.file): \(words)")
    }
}
