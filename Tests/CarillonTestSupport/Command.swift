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
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let output = Pipe(), error = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        // Read both pipes while the process runs, so that neither can fill and block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) { errorData = error.fileHandleForReading.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
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
