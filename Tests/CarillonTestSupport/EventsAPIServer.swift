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

    /// Starts a server that accepts `key` (written to a file in `directory`, never on a command line).
    public init(key: String = "test-mobile-key", now: String? = nil) throws {
        let keyDirectory = TemporaryDirectory("events-api-key")
        let keyFile = try keyDirectory.write("key", key + "\n")
        defer { keyDirectory.remove() }
        let started = try LocalServerProcess(
            script: "events_api.py", arguments: ["--key-file", keyFile] + (now.map { ["--now", $0] } ?? []))
        port = started.port
        caFile = started.caFile
        baseURL = started.baseURL
        process = started.process
        input = started.input
        self.key = key
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
