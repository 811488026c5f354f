@_spi(Tooling) import CarillonExtensionCore

/// A sent log read for `readback`: its lines, each numbered, or the first bad one named `FILE:LINE`.
struct SentLogFile {
    /// The lines, with their 1-based numbers.
    var lines: [(number: Int, line: SentLogLine)] = []
    /// A torn last line, said (it was skipped: its events were still queued when the crash came).
    var warnings: [String] = []

    /// Why the log cannot be used, naming the file (and the line).
    struct Problem: Error {
        var message: String
    }

    /// Reads `path` (at most `limit` bytes).
    static func read(_ path: String, limit: Int) -> Result<SentLogFile, Problem> {
        let name = Quoting.display(path)
        guard FileSystem.exists(path) else { return .failure(Problem(message: "\(name): no such sent log")) }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, limit: limit, policy: .namedByUser)
        } catch {
            return .failure(Problem(message: "\(name): cannot read: \(error.reason)"))
        }
        var file = SentLogFile()
        var number = 0
        var start = bytes.startIndex
        while start < bytes.endIndex {
            number += 1
            guard let end = bytes[start...].firstIndex(of: 0x0A) else {
                file.warnings.append(
                    "\(name):\(number): a torn last line (no newline: a crash cut it short); skipped, its events were still queued")
                break
            }
            do {
                file.lines.append((number, try SentLogLine(parsing: bytes[start..<end])))
            } catch {
                return .failure(Problem(message: "\(name):\(number): \(error.message)"))
            }
            start = end + 1
        }
        return .success(file)
    }
}
