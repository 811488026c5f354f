@_spi(Tooling) import CarillonExtensionCore

/// `replay --check`: the new verdict against the one a carillon recording holds (reason, detail and
/// warnings, the detail as printed, and the trace's facts: each hop's status, version, type, coding,
/// byte counts and TLS, the body's size, the phase and the image; never timings or file names).
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
        for (name, was, now) in pairs + traceFacts(recorded: recorded["trace"], now: TraceJSON.value(result.trace))
        where timeless(was) != timeless(now) {
            differences.append("\(name): recorded \(was.map(JSONWriter.string) ?? "nothing"), now \(JSONWriter.string(now))")
        }
        for difference in differences { io.standardError.line("\(CarillonTool.name): \(file): --check: \(difference)") }
        return !differences.isEmpty
    }

    /// `value` with every "N ms" of its text as "… ms": a detail's elapsed time is the clock's, not a fact
    /// the recording fixes (the budget reads the same either way).
    static func timeless(_ value: JSONValue?) -> JSONValue? {
        guard case .string(let text)? = value else { return value }
        var out = ""
        var digits = ""
        for character in text {
            if character.isASCII && (character.isNumber || (character == "." && !digits.isEmpty)) {
                digits.append(character)
                continue
            }
            out += digits
            digits = ""
            out.append(character)
            if out.hasSuffix(" ms"), let number = out.dropLast(3).lastIndex(where: { !($0.isNumber || $0 == ".") }) {
                let start = out.index(after: number)
                let end = out.index(out.endIndex, offsetBy: -3)
                if start < end { out.replaceSubrange(start..<end, with: "…") }
            }
        }
        return .string(out + digits)
    }

    /// The trace facts a replay must reproduce, recorded beside now, named as `trace.hops[1].status`
    /// (hops counted from 1); none when the recording holds no trace.
    static func traceFacts(recorded: JSONValue?, now: JSONValue) -> [(String, JSONValue?, JSONValue)] {
        guard let recorded, recorded.isObject else { return [] }
        var facts: [(String, JSONValue?, JSONValue)] = ["body_bytes", "phase", "image"].map { key in
            ("trace.\(key)", recorded[key], now[key] ?? .null)
        }
        guard case .array(let was)? = recorded["hops"], case .array(let hops)? = now["hops"] else { return facts }
        facts.append(("trace.hops", .number(String(was.count)), .number(String(hops.count))))
        let keys = ["status", "http_version", "content_type", "content_encoding", "wire_bytes", "decoded_bytes", "tls"]
        for (index, (before, after)) in zip(was, hops).enumerated() {
            // A redirect's body is not recorded (only the final response's is): its decoded size is the live run's alone.
            let redirect = (before["status"]?.doubleValue).map { (300..<400).contains($0) } ?? false
            let compared = index == hops.count - 1 && !redirect ? keys : keys.filter { $0 != "decoded_bytes" }
            facts += compared.map { key in ("trace.hops[\(index + 1)].\(key)", before[key], after[key] ?? .null) }
        }
        return facts
    }
}
