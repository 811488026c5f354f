import Foundation

/// The system calls of an `strace -f -ttt -T -y` log, each with its thread, when it started and ended,
/// and what it returned: enough to say which call finished before which other began.
struct SyscallTrace {
    struct Call {
        let thread: Int
        let name: String
        /// The text between the parentheses (with `-y`, a descriptor reads `3</its/path>`).
        let arguments: String
        /// What it returned (`0`, `-1 EIO (...)`); nil when it never returned (the process was killed).
        let result: String?
        let started: Double
        let ended: Double

        var succeeded: Bool { result == "0" }

        /// The quoted strings among the arguments: a `link`'s or `rename`'s two paths.
        var quotedArguments: [String] {
            arguments.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .compactMap { $0.offset % 2 == 1 ? String($0.element) : nil }
        }
    }

    let calls: [Call]

    /// Parses the log at `path`; lines that are not a call (signals, exits) are skipped.
    init(contentsOf path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var unfinished: [Int: (name: String, arguments: String, started: Double)] = [:]
        var calls: [Call] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, let thread = Int(fields[0]), let time = Double(fields[1]) else { continue }
            let rest = String(fields[2])
            if rest.hasPrefix("<... ") {
                // `<... fsync resumed>) = 0 <0.004396>`: the end of a call begun on an earlier line.
                guard let begun = unfinished.removeValue(forKey: thread) else { continue }
                calls.append(
                    Call(
                        thread: thread, name: begun.name, arguments: begun.arguments, result: Self.result(of: rest),
                        started: begun.started, ended: time))
            } else if let open = rest.firstIndex(of: "(") {
                let name = String(rest[..<open])
                if rest.hasSuffix("<unfinished ...>") {
                    let arguments = rest[rest.index(after: open)...].dropLast(" <unfinished ...>".count)
                    unfinished[thread] = (name, String(arguments), time)
                    continue
                }
                guard let close = rest.range(of: ") = ", options: .backwards) else { continue }
                let duration = rest.range(of: " <", options: .backwards).flatMap { Double(rest[$0.upperBound...].dropLast()) }
                calls.append(
                    Call(
                        thread: thread, name: name, arguments: String(rest[rest.index(after: open)..<close.lowerBound]),
                        result: Self.result(of: rest), started: time, ended: time + (duration ?? 0)))
            }
        }
        // A call still unfinished when the log ends never returned.
        for (thread, begun) in unfinished {
            calls.append(
                Call(thread: thread, name: begun.name, arguments: begun.arguments, result: nil, started: begun.started, ended: .infinity))
        }
        self.calls = calls
    }

    /// `0` from `…) = 0 <0.000506>`; nil for `= ?` (never returned).
    private static func result(of rest: String) -> String? {
        guard let equals = rest.range(of: ") = ", options: .backwards) else { return nil }
        var value = rest[equals.upperBound...]
        if let timing = value.range(of: " <", options: .backwards) { value = value[..<timing.lowerBound] }
        return value == "?" ? nil : String(value)
    }
}
