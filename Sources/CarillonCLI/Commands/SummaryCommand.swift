@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse summary merge SUMMARY.json...`: N shards' campaign summaries read as one.
enum SummaryCommand: Command {
    static let name = "summary"
    static let summary = "Merge the campaign summaries of N shards (process --summary) into one."
    static let options: [OptionSpec] = []

    static let arguments = [
        ArgumentSpec(name: "merge", value: .choices(["merge"]), about: "What to do with the summaries: merge them (the one action)."),
        ArgumentSpec(name: "SUMMARY.json", value: .file, about: "A campaign summary written by process --summary.", repeats: true),
    ]

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "The merged summary was printed."),
        ExitStatus(code: 1, meaning: "A file could not be read or is not a campaign summary."),
        ExitStatus(code: 64, meaning: "Bad usage."),
    ]

    static let overview = """
        Reads the campaign summaries that 'process --shard K/N --summary FILE.json' runs wrote and prints
        one summary of the whole campaign on standard output, in the same format: each distinct image once
        (payload counts and reasons added up, the first decided verdict kept with its detail, bytes, type,
        size and trace, up to five first payloads), the counts per reason and the totals summed, and the
        shards listed.
        """

    /// The summary files to merge, in order.
    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> [String] {
        guard arguments.positionals.first == "merge" else { throw UsageError(message: "expected 'merge SUMMARY.json...'") }
        let paths = Array(arguments.positionals.dropFirst())
        guard !paths.isEmpty else { throw UsageError(message: "no SUMMARY.json given") }
        return paths
    }

    static func run(_ paths: [String], io: ToolIO) -> Int32 {
        var documents: [(name: String, value: JSONValue)] = []
        for path in paths {
            do {
                let bytes = try FileSystem.readFile(path, limit: 256 * 1_048_576, policy: .namedByUser)
                documents.append((Quoting.display(path), try JSONParser.parse(bytes)))
            } catch {
                io.standardError.line("\(CarillonTool.name): \(Quoting.display(path)): cannot read a summary: \(error)")
                return CarillonTool.exitDataError
            }
        }
        do throws(SummaryMerge.Failure) {
            io.standardOutput.write(JSONWriter.string(try SummaryMerge.merge(documents)) + "\n")
            return CarillonTool.exitSuccess
        } catch {
            io.standardError.line("\(CarillonTool.name): \(error.message)")
            return CarillonTool.exitDataError
        }
    }
}
