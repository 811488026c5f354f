import Foundation

/// The local stand-in for the events API (`TestAssets/Server/events_api.py`), one per test that needs a
/// fresh record.
///
/// It binds 127.0.0.1 only, with certificates made at start-up by the `openssl` command; the tool trusts
/// them through `caFile`. It stops when this object goes (its standard input, a pipe held here, closes)
/// or when the test process ends.
public final class EventsAPIServer: @unchecked Sendable {
    public let port: Int
    public let caFile: String
    /// `https://127.0.0.1:PORT`: the `--endpoint`.
    public let baseURL: String
    /// The mobile key it accepts.
    public let key: String
    private let process: Process
    private let input: Pipe

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts a server that accepts `key` (written to a file in `directory`, never on a command line).
    public init(key: String = "test-mobile-key", now: String? = nil) throws {
        let keyDirectory = TemporaryDirectory("events-api-key")
        let keyFile = try keyDirectory.write("key", key + "\n")
        defer { keyDirectory.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", Paths.testAssets("Server/events_api.py"), "--exit-on-stdin-eof", "--key-file", keyFile]
            + (now.map { ["--now", $0] } ?? [])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty {
                throw StartError(description: "events_api.py exited before its ready line: \(String(decoding: line, as: UTF8.self))")
            }
            line.append(chunk)
        }
        guard let ready = try JSONSerialization.jsonObject(with: line) as? [String: Any],
            let port = ready["port"] as? Int, let caFile = ready["ca_file"] as? String, let baseURL = ready["base_url"] as? String
        else { throw StartError(description: "unexpected ready line: \(String(decoding: line, as: UTF8.self))") }
        self.port = port
        self.caFile = caFile
        self.baseURL = baseURL
        self.key = key
        self.process = process
        self.input = input
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
    }

    /// Scripts the next POST /v1/events answers, one fault per request (see events_api.py).
    public func script(_ faults: [[String: Any]]) throws {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: faults), as: UTF8.self)
        _ = try Command.run(
            "/usr/bin/env",
            ["curl", "-sS", "--cacert", caFile, "--max-time", "5", "-X", "POST", "--data-binary", body, baseURL + "/_faults"])
    }

    /// What the API recorded, in order: `type`, `delivery_id`, `at` (as stored), `sent_at`, `replaced`,
    /// `reported_at`, `reports`.
    public func recorded() throws -> [[String: Any]] {
        let text = try Curl.get(baseURL + "/v1/recorded", caFile: caFile)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return object?["events"] as? [[String: Any]] ?? []
    }

    /// `posts`, `connections`, `faults_left`, `server_ms`.
    public func stats() throws -> [String: Any] {
        let text = try Curl.get(baseURL + "/_stats", caFile: caFile)
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }
}
