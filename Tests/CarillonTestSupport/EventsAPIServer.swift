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

    /// Starts a server that accepts `key` (written to a file, never on a command line) as a mobile key
    /// for every app, knows the messages and keys of `fixture` (``EventsAPIFixture``; without one, it
    /// records every well-formed delivery id), and reads its clock from `now` (the real clock when nil).
    public init(key: String = "test-mobile-key", now: String? = nil, fixture: EventsAPIFixture? = nil) throws {
        let keyDirectory = TemporaryDirectory("events-api-key")
        let keyFile = try keyDirectory.write("key", key + "\n")
        defer { keyDirectory.remove() }
        var arguments = ["--key-file", keyFile] + (now.map { ["--now", $0] } ?? [])
        if let fixture { arguments += ["--fixture", try keyDirectory.write("fixture.json", try fixture.json())] }
        let started = try LocalServerProcess(script: "events_api.py", arguments: arguments)
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

    /// Scripts the next POST /v1/events answers, one fault per request (see TestAssets/Server/README.md).
    public func script(_ faults: [[String: Any]]) throws {
        try post("/_faults", faults)
    }

    /// Scripts the next GET /v1/messages/… answers, one fault per request (the same faults, plus
    /// `json`, `huge` and `raw_body` with status 200).
    public func scriptReads(_ faults: [[String: Any]]) throws {
        try post("/_faults/get", faults)
    }

    /// Sets the stand-in's clock (`YYYY-MM-DDTHH:MM:SS.fffZ`; nil: the real clock again).
    public func setClock(_ now: String?) throws {
        try post("/_clock", ["now": now.map { $0 as Any } ?? NSNull()])
    }

    private func post(_ path: String, _ object: Any) throws {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        _ = try Command.run(
            "/usr/bin/env",
            ["curl", "-sS", "--cacert", caFile, "--max-time", "5", "-X", "POST", "--data-binary", body, baseURL + path])
    }

    /// A GET of `path` with `key` (see ``request(_:_:key:body:maxTime:limit:)``).
    public func get(_ path: String, key: String?, maxTime: Int = 10, limit: Int = 1 << 20) throws -> APIAnswer {
        try request("GET", path, key: key, maxTime: maxTime, limit: limit)
    }

    /// One request as any client makes it, with the `curl` command (not the code under test): the
    /// status, the `Retry-After` header if any, and the body (at most `limit` bytes kept).
    public func request(
        _ method: String, _ path: String, key: String?, body: String? = nil, maxTime: Int = 10, limit: Int = 1 << 20
    ) throws -> APIAnswer {
        let scratch = TemporaryDirectory("events-api-request")
        defer { scratch.remove() }
        var arguments = ["curl", "-sS", "--cacert", caFile, "--max-time", String(maxTime), "-X", method]
        arguments += ["-D", scratch.file("headers"), "-o", scratch.file("body"), "-w", "%{http_code} %{size_download}"]
        if let key { arguments += ["-H", "Authorization: Bearer " + key] }
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        let result = try Command.run("/usr/bin/env", arguments + [baseURL + path])
        let words = result.standardOutput.split(separator: " ")
        let headers = (try? String(contentsOfFile: scratch.file("headers"), encoding: .utf8)) ?? ""
        let retryAfter = headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("retry-after:") }
        let handle = FileHandle(forReadingAtPath: scratch.file("body"))
        defer { try? handle?.close() }
        return APIAnswer(
            status: words.first.flatMap { Int($0) } ?? 0, size: words.dropFirst().first.flatMap { Int($0) } ?? 0,
            retryAfter: retryAfter.map { $0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces) },
            body: String(decoding: (try? handle?.read(upToCount: limit)) ?? Data(), as: UTF8.self),
            curlStatus: result.status)
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

/// What ``EventsAPIServer/request(_:_:key:body:maxTime:limit:)`` saw.
public struct APIAnswer: Sendable {
    /// The HTTP status (0 when none arrived).
    public var status: Int
    /// Bytes of body received.
    public var size: Int
    public var retryAfter: String?
    public var body: String
    /// `curl`'s own exit status (28: its `--max-time` ran out).
    public var curlStatus: Int32

    /// The body as a JSON object (empty when it is not one).
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }
}
