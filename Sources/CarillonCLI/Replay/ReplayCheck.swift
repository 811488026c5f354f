@_spi(Tooling) import CarillonExtensionCore

/// `replay --check`: the new verdict against the one a carillon recording holds (reason, detail and
/// warnings, the detail as printed; never timings or file names).
enum ReplayCheck {
    /// Whether they differ; each difference is one stderr line naming the file. A recording without a
    /// verdict says so on stderr and counts as not differing.
    static func differs(recorded: JSONValue?, now result: ServiceResult, file: String, io: ToolIO) -> Bool {
        guard let recorded, recorded.isObject else {
            io.standardError.line("\(CarillonTool.name): \(file): holds no recorded verdict (not a carillon recording): nothing to check")
            return false
        }
        var differences: [String] = []
        let pairs: [(String, JSONValue?, JSONValue)] = [
            ("reason", recorded["reason"], .string(result.outcome.reason.code)),
            ("detail", recorded["detail"], .string(result.outcome.printedDetail)),
            ("warnings", recorded["warnings"], .array(result.warnings.map { .string($0) })),
        ]
        for (name, was, now) in pairs where was != now {
            differences.append("\(name): recorded \(was.map(JSONWriter.string) ?? "nothing"), now \(JSONWriter.string(now))")
        }
        for difference in differences { io.standardError.line("\(CarillonTool.name): \(file): --check: \(difference)") }
        return !differences.isEmpty
    }
}
