@_spi(Tooling) import CarillonExtensionCore

/// `merge`'s run (SPEC §6c), as the steps it takes: every bundle read whole and checked, the shards
/// checked to be one campaign, then the records taken in input order from the bundles side by side —
/// each line written and each record handed to the same tally an unsharded run uses — and what that
/// run writes when it is over.
struct BundleMerge {
    let plan: MergeCommand.Plan
    let io: ToolIO

    /// The merge's exit status.
    func run() -> Int32 {
        guard let bundles = openAll(), let owners = checkCampaign(bundles) else { return CarillonTool.exitDataError }
        for line in VerdictSpread.lines(bundles.map { ($0.header.shard, $0.summary) }) {
            io.standardError.line("\(CarillonTool.name) merge: \(line)")
        }
        guard let output = MergeOutput.open(plan, io: io) else { return CarillonTool.exitDataError }
        let tally = RunTally(collectsReport: plan.reportPath != nil, campaign: true)
        var digests: [String: String] = [:]
        guard let allRead = mergeRecords(bundles, owners: owners, output: output, tally: tally, digests: &digests) else {
            output.discard()
            return CarillonTool.exitDataError
        }
        var status = bundles[0].end.input.whole && allRead ? CarillonTool.exitSuccess : CarillonTool.exitDataError
        let report = tally.report(allRead: allRead)
        if !output.finish(report: report, seconds: longestShard(bundles), io: io) { status = CarillonTool.exitDataError }
        let identical = report.images.map { IdenticalImages.find($0) { digests[$0.url] } } ?? []
        if report.outcomes.count >= 2 {
            let images = report.images.map { "; \($0.count) distinct image\($0.count == 1 ? "" : "s")" } ?? ""
            io.standardError.line(
                "\(CarillonTool.name): summary: \(RunSummary(report.outcomes).line)\(images)\(report.requests.summaryClause)")
        }
        RequestNotes.print(report, identical: identical, previews: false, failOn: plan.failOn, io: io)
        if let path = plan.summaryPath, let images = report.images,
            !CampaignSummaryFile.write(
                CampaignSummary.document(images, shard: nil, requests: report.requests), to: path, io: io)
        {
            status = CarillonTool.exitDataError
        }
        if !writeReport(report, bundles: bundles) { status = CarillonTool.exitDataError }
        guard status == CarillonTool.exitSuccess, let failOn = plan.failOn,
            report.outcomes.contains(where: { failOn.matches($0.reason) }) || failOn.matches(report.requests.conditions)
        else { return status }
        return CarillonTool.exitFailOn
    }

    /// Every bundle read and checked whole; nil (after naming the file and what is wrong) when one is not.
    private func openAll() -> [ResultBundleFile]? {
        var bundles: [ResultBundleFile] = []
        for path in plan.bundles {
            do throws(ResultBundleError) {
                bundles.append(try ResultBundleFile.open(path))
            } catch {
                io.standardError.line("\(CarillonTool.name) merge: \(Quoting.display(path)): \(error.description)")
                return nil
            }
        }
        return bundles
    }

    /// The shards checked to be one whole campaign; the bundle holding each position (by index), or nil
    /// after saying why not.
    private func checkCampaign(_ bundles: [ResultBundleFile]) -> [Int32]? {
        let names = bundles.map { Quoting.display($0.path) }
        let described = zip(names, bundles).map { ShardCoverage.Bundle(name: $0, header: $1.header, input: $1.end.input) }
        if let problem = ShardCoverage.check(described) {
            io.standardError.line("\(CarillonTool.name) merge: \(problem.message)")
            return nil
        }
        let payloads = bundles[0].end.input.payloads
        if let problem = ShardCoverage.checkPositions(zip(names, bundles).map { ($0, $1.positions) }, payloads: payloads) {
            io.standardError.line("\(CarillonTool.name) merge: \(problem.message)")
            return nil
        }
        var owners = [Int32](repeating: 0, count: payloads)
        for (index, bundle) in bundles.enumerated() { for position in bundle.positions { owners[position] = Int32(index) } }
        return owners
    }

    /// Every record in input order through the output and the tally, each image's digest into `digests`
    /// by URL; whether every payload was read, or nil (after saying why) when a bundle could not be read on.
    private func mergeRecords(
        _ bundles: [ResultBundleFile], owners: [Int32], output: MergeOutput, tally: RunTally, digests: inout [String: String]
    ) -> Bool? {
        var readers: [ResultBundleFile.Records] = []
        var allRead = true
        var current = 0
        do throws(ResultBundleError) {
            for (index, bundle) in bundles.enumerated() {
                current = index
                readers.append(try bundle.records())
            }
            for (position, owner) in owners.enumerated() {
                let index = Int(owner)
                current = index
                // The line is parsed only for a record the tally takes whole (an image's verdict, a card).
                guard let record = try readers[index].next(), record.position == position, let payload = BundledPayload(record.data),
                    let decoded = BundleRecord.decode(
                        payload, line: record.line, whole: tally.wantsWhole(image: payload.routedImage, reason: payload.reason),
                        failOn: plan.failOn, collectsReport: plan.reportPath != nil, attachmentPath: { "\(index):\($0)" })
                else { throw ResultBundleError("the record at position \(position) is not one carillon-nse writes") }
                if let image = payload.routedImage, let digest = payload.imageSHA256, digests[image] == nil { digests[image] = digest }
                allRead = allRead && decoded.read
                output.write(decoded)
                tally.add(decoded.record)
            }
            return allRead
        } catch {
            io.standardError.line("\(CarillonTool.name) merge: \(Quoting.display(bundles[current].path)): \(error.description)")
            return nil
        }
    }

    /// The longest shard's time, from its start to its end: the campaign's, as JUnit states it.
    private func longestShard(_ bundles: [ResultBundleFile]) -> Double {
        let longest = bundles.map { $0.end.finished.millisecondsSinceEpoch - $0.header.started.millisecondsSinceEpoch }.max() ?? 0
        return Double(max(0, longest)) / 1000
    }

    /// `--report`, as the unsharded run's: its app name and budgets from the bundles, each image shown
    /// read from the bundle that holds it.
    private func writeReport(_ report: PayloadRunner.Report, bundles: [ResultBundleFile]) -> Bool {
        guard let path = plan.reportPath else { return true }
        let header = bundles[0].header
        let milliseconds = { (name: String, fallback: Double) in
            header.options.first { $0.name == name }.flatMap { Double($0.value.split(separator: " ").first ?? "") } ?? fallback
        }
        let page = HTMLReport(
            appName: header.appName ?? HTMLReport.defaultAppName,
            budgetMilliseconds: milliseconds("--budget", 20_000), expireMilliseconds: milliseconds("--expire-after", 30_000))
        return ReportFile.write(page, groups: report.groups, outcomes: report.outcomes, to: path, io: io) { attachment in
            let parts = attachment.path.split(separator: ":")
            guard parts.count == 2, let bundle = Int(parts[0]), let index = Int(parts[1]), bundles.indices.contains(bundle),
                let data = try? bundles[bundle].attachment(index), let image = BundledImage(data)
            else { return nil }
            return image.bytes
        }
    }
}
