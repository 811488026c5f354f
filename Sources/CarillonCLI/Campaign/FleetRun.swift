@_spi(Tooling) import CarillonExtensionCore

/// The steps a run on a fleet adds to ``PipelineRun`` (SPEC §6c): Bazel's status file touched before
/// the payloads, the bundle opened before them and finished after them.
enum FleetRun {
    /// Touches Bazel's `TEST_SHARD_STATUS_FILE` (creates it if missing, never truncates it), which tells
    /// Bazel the test read its shard; false (after saying why) when it cannot be.
    static func touchStatusFile(_ path: String?, io: ToolIO) -> Bool {
        guard let path else { return true }
        do throws(FileSystemError) {
            try FileSystem.touch(path)
            return true
        } catch {
            io.standardError.line(
                "\(CarillonTool.name): cannot touch \(RunnerShard.bazelStatusFile) '\(Quoting.display(path))': \(error.reason)")
            return false
        }
    }

    /// The run's bundle, started; nil without `--bundle`; a failure (after saying why) when it cannot be.
    static func openBundle(_ plan: PipelinePlan, io: ToolIO) -> Result<ShardBundle?, FileSystemError> {
        guard let path = plan.fleet.bundlePath else { return .success(nil) }
        do throws(FileSystemError) {
            return .success(try ShardBundle(path: path, header: ShardBundle.header(plan, started: .now()), sharesImages: plan.sharesImages))
        } catch {
            io.standardError.line("\(CarillonTool.name): cannot write bundle '\(Quoting.display(path))': \(error.description)")
            return .failure(error)
        }
    }

    /// Ends the bundle of a run that read its whole input and wrote every line; a run cut short (its
    /// reader gone) leaves none. False when it could not be written.
    static func finishBundle(
        _ bundle: ShardBundle, plan: PipelinePlan, report: PayloadRunner.Report, stream: PayloadStream, inputStatus: Int32, io: ToolIO
    ) -> Bool {
        guard stream.progress.ended, io.standardOutput.failure == nil else {
            bundle.discard()
            return true
        }
        let shard = plan.shard ?? Shard(index: 0, count: 1)!
        let summary = CampaignSummary.document(report.images ?? CampaignImages(), shard: plan.shard)
        let input = stream.inputIdentity(whole: inputStatus == CarillonTool.exitSuccess)
        return bundle.finish(summary: summary, input: input, records: report.outcomes.count, shard: shard, io: io)
    }
}
