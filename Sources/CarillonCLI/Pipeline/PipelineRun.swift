@_spi(Tooling) import CarillonExtensionCore

/// A checked ``PipelinePlan`` run over a stream of payloads, step by step: the runtime, the JUnit
/// spool, the payloads, then what a run says when it is over (the summary line, the campaign summary,
/// the report) and `--fail-on`. `process` and `check` differ only in where their payloads come from.
struct PipelineRun {
    let plan: PipelinePlan
    let io: ToolIO

    /// Runs every payload of `stream` and returns the exit status, starting from `status` (1 when an
    /// input was already found unreadable). `inputsGiven`: whether any input was named, for "no
    /// payload found".
    func run(_ stream: PayloadStream, inputsGiven: Bool, status: Int32) -> Int32 {
        let inputStatus = status
        var status = status
        if !FleetRun.touchStatusFile(plan.fleet.statusFile, io: io) { status = CarillonTool.exitDataError }
        let runtime = makeRuntime()
        // Last, once the report has read the images it shows: the run's own files go with it.
        defer { runtime.finish() }
        guard let output = openOutput() else { return CarillonTool.exitDataError }
        let started = ContinuousClock.now
        guard case .success(let bundle) = FleetRun.openBundle(plan, io: io) else { return CarillonTool.exitDataError }
        plan.recorder?.sayWhatIsKept(io: io)
        for note in plan.appNotes { io.standardError.line("\(CarillonTool.name): --app: \(note)") }
        let report = runPayloads(stream, runtime: runtime, output: output, bundle: bundle)
        plan.recorder?.transport.discardRemaining()
        if let spool = output.spool, !JUnitSpool.print(spool, report: report, since: started, io: io) {
            status = CarillonTool.exitDataError
        }
        if !report.allRead { status = CarillonTool.exitDataError }
        if !sayWhetherPayloadsWereFound(stream, inputsGiven: inputsGiven) { status = CarillonTool.exitDataError }
        printSummaryLine(report)
        // In a campaign (JSON Lines, or --summary), before the run's own files go: the images' bytes are
        // compared in their attachment files.
        let campaign = plan.summaryPath != nil || report.requests.fromLines
        let identical = campaign ? report.images.map { IdenticalImages.find($0) } ?? [] : []
        RequestNotes.print(report, identical: identical, previews: plan.previews != nil, failOn: plan.failOn, io: io)
        if !writeCampaignSummary(report) { status = CarillonTool.exitDataError }
        if !writeReport(report) { status = CarillonTool.exitDataError }
        if let bundle, !FleetRun.finishBundle(bundle, plan: plan, report: report, stream: stream, inputStatus: inputStatus, io: io) {
            status = CarillonTool.exitDataError
        }
        return failOnStatus(report, status: status)
    }

    /// The extension's runtime for the plan's configuration.
    private func makeRuntime() -> ExtensionRuntime {
        // A run killed before it could remove its own directory left it under $TMPDIR: this one removes it.
        if !plan.configuration.keepsAttachments { AbandonedRunDirectories.sweep(in: PipelinePlan.temporaryDirectory()) }
        guard let recorder = plan.recorder else {
            return ExtensionRuntime(configuration: plan.configuration, sharesImages: plan.sharesImages)
        }
        return ExtensionRuntime(configuration: plan.configuration, recording: recorder.transport, sharesImages: plan.sharesImages)
    }

    /// Where result lines go: standard output, or for JUnit a spool printed once the counts are known.
    private struct Output {
        var io: ToolIO
        var spool: JUnitSpool?
    }

    /// The output; nil (after saying why) when the JUnit spool cannot be made.
    private func openOutput() -> Output? {
        guard plan.format == .junit else { return Output(io: io, spool: nil) }
        do throws(FileSystemError) {
            // JUnit's counts come first: its test cases are spooled until the run is over.
            let spool = try JUnitSpool(in: PipelinePlan.temporaryDirectory())
            var spooled = io
            spooled.standardOutput = spool.stream
            return Output(io: spooled, spool: spool)
        } catch {
            io.standardError.line("\(CarillonTool.name): cannot create the JUnit spool: \(error.description)")
            return nil
        }
    }

    private func runPayloads(_ stream: PayloadStream, runtime: ExtensionRuntime, output: Output, bundle: ShardBundle?)
        -> PayloadRunner.Report
    {
        var runner = PayloadRunner(
            runtime: runtime, expireAfter: plan.expireAfter, io: output.io, format: plan.format, collectsReport: plan.reportPath != nil,
            campaign: true, failOn: plan.failOn, recorder: plan.recorder, presentationFacts: plan.presentationFacts, previews: plan.previews
        )
        runner.bundles = bundle != nil
        runner.wordsForApp = plan.wordsForApp
        runner.shard = plan.shard
        if let bundle { runner.onRecord = { bundle.add($0) } }
        return runner.run(stream, jobs: plan.jobs)
    }

    /// "no payload found" when inputs were named and none held a payload; false when that is an error
    /// (a shard may rightly get none).
    private func sayWhetherPayloadsWereFound(_ stream: PayloadStream, inputsGiven: Bool) -> Bool {
        guard stream.count == 0 && inputsGiven else { return true }
        let shard = plan.shard.map { " in shard \($0.index)/\($0.count)" } ?? ""
        io.standardError.line("\(CarillonTool.name): no payload found\(shard)")
        return plan.shard != nil
    }

    /// After two or more payloads: counts per reason, elapsed percentiles, distinct images; and in any
    /// run, in every format, the receipts that failed (each line says `"receipt":"failed"`, which JUnit
    /// and a quick look at the text view would not show).
    private func printSummaryLine(_ report: PayloadRunner.Report) {
        let failed = report.receiptFailures
        let receipts = failed == 0 ? "" : "; \(failed) receipt\(failed == 1 ? "" : "s") failed"
        guard report.outcomes.count >= 2 else {
            if failed > 0 { io.standardError.line("\(CarillonTool.name): summary: \(String(receipts.dropFirst(2)))") }
            return
        }
        let images = report.images.map { "; \($0.count) distinct image\($0.count == 1 ? "" : "s")" } ?? ""
        io.standardError.line(
            "\(CarillonTool.name): summary: \(RunSummary(report.outcomes).line)\(images)\(receipts)\(report.requests.summaryClause)")
    }

    /// `--summary FILE.json`; false when it could not be written.
    private func writeCampaignSummary(_ report: PayloadRunner.Report) -> Bool {
        guard let summaryPath = plan.summaryPath, let images = report.images else { return true }
        return CampaignSummaryFile.write(
            CampaignSummary.document(images, shard: plan.shard, requests: report.requests),
            to: summaryPath,
            io: io)
    }

    /// `--report FILE.html`, then where, how large and how fast; false when it could not be written.
    private func writeReport(_ report: PayloadRunner.Report) -> Bool {
        guard let reportPath = plan.reportPath else { return true }
        let page = HTMLReport(
            appName: plan.appName, budgetMilliseconds: plan.budget.inMilliseconds, expireMilliseconds: plan.expireAfter.inMilliseconds)
        return ReportFile.write(page, groups: report.groups, outcomes: report.outcomes, to: reportPath, io: io)
    }

    /// 2 when an outcome matched `--fail-on` and nothing else went wrong: an input that could not be
    /// read (1) says more than a matched outcome (2).
    private func failOnStatus(_ report: PayloadRunner.Report, status: Int32) -> Int32 {
        guard status == CarillonTool.exitSuccess, let failOn = plan.failOn,
            report.outcomes.contains(where: { failOn.matches($0.reason) }) || failOn.matches(report.requests.conditions)
        else { return status }
        return CarillonTool.exitFailOn
    }
}
