import Foundation

/// Runs a process to completion and collects its output and status.
public enum Command {
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
        /// Standard output's lines, each parsed as a JSON object.
        public var jsonLines: [[String: Any]] {
            standardOutput.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }
    }

    /// Runs `executable` with `arguments`, feeding `input` to its standard input.
    ///
    /// Standard input, output and error are files in a scratch directory, not pipes: Foundation's
    /// `Process` can hand a pipe created on one thread to a child being spawned on another at the same
    /// moment, and a long-lived child (a test server) holding a pipe's write end would keep its reader
    /// from ever seeing the end. A file has no end to wait for: the child's exit is the end.
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil) throws -> Result {
        let scratch = try TemporaryDirectory("command")
        defer { scratch.remove() }
        let inputPath = scratch.file("stdin"), outputPath = scratch.file("stdout"), errorPath = scratch.file("stderr")
        try (input ?? Data()).write(to: URL(fileURLWithPath: inputPath))
        for path in [outputPath, errorPath] { FileManager.default.createFile(atPath: path, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let stdin = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
        let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        defer { try? stdin.close(); try? stdout.close(); try? stderr.close() }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        let outputData = (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data()
        let errorData = (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data()
        return Result(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs the built `carillon-nse`.
    public static func tool(_ arguments: [String], input: Data? = nil) throws -> Result {
        try run(Paths.tool, arguments, input: input)
    }
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "test") throws {
        let base = NSTemporaryDirectory() + "carillon-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` inside the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }

    /// The names in the directory (or a subdirectory), sorted; empty when it does not exist.
    public func contents(_ subdirectory: String = "") -> [String] {
        let directory = subdirectory.isEmpty ? path : file(subdirectory)
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Payload JSON for tests.
public enum Payloads {
    /// A routed payload with a Carillon stamp and, optionally, an image URL.
    public static func routed(image: String?, deliveryID: String = "01937b21-0000-7000-8000-000000000000", extra: String = "") -> String {
        let imagePart = image.map { #","image":"\#($0)""# } ?? ""
        return #"{"aps":{"alert":{"title":"Hello","body":"World"},"mutable-content":1\#(extra)},"carillon":{"delivery_id":"\#(deliveryID)"\#(imagePart)}}"#
    }

    /// A canonical delivery id made from a number.
    public static func deliveryID(_ number: Int) -> String {
        let digits = String(number)
        return "01937b21-0000-7000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }
}
