import CarillonTestSupport
import Foundation
import Testing

/// `image_url` and `trace` in the built tool's `process` lines: the field names are a contract
/// (README), checked here key by key and in order.
@Suite(.timeLimit(.minutes(1))) struct TraceLineTests {
    static let traceKeys = ["request_headers", "hops", "body_bytes", "budget_ms", "phase", "image"]
    static let hopKeys = [
        "url", "status", "http_version", "remote", "location", "content_type", "content_length", "content_encoding", "wire_bytes",
        "decoded_bytes", "tls", "timings_ms",
    ]
    static let timingKeys = ["dns", "connect", "tls", "first_byte", "total"]

    /// The keys of every JSON object in `text` that follows `"key":`, in order, read from the raw
    /// text (JSONSerialization's dictionaries lose the order).
    static func orderedKeys(of key: String, in text: String) -> [[String]] {
        var results: [[String]] = []
        var rest = Substring(text)
        while let range = rest.range(of: "\"\(key)\":{") {
            var depth = 1
            var keys: [String] = []
            var index = range.upperBound
            var inString = false
            var current = ""
            var expectKey = true
            while index < rest.endIndex && depth > 0 {
                let character = rest[index]
                if inString {
                    if character == "\\" {
                        index = rest.index(after: index)
                    } else if character == "\"" {
                        inString = false
                        if depth == 1 && expectKey { keys.append(current) }
                    } else {
                        current.append(character)
                    }
                } else {
                    switch character {
                    case "\"":
                        inString = true
                        current = ""
                    case "{", "[": depth += 1
                    case "}", "]": depth -= 1
                    case ":": if depth == 1 { expectKey = false }
                    case ",": if depth == 1 { expectKey = true }
                    default: break
                    }
                }
                index = rest.index(after: index)
            }
            results.append(keys)
            rest = rest[index...]
        }
        return results
    }

    static func isWellFormedTrace(_ value: Any?) -> Bool {
        guard let trace = value as? [String: Any], Set(trace.keys) == Set(traceKeys),
            let hops = trace["hops"] as? [[String: Any]], !hops.isEmpty,
            ["dns", "connect", "tls", "waiting", "body", "done"].contains(trace["phase"] as? String)
        else { return false }
        return hops.allSatisfy { hop in
            guard Set(hop.keys) == Set(hopKeys), let timings = hop["timings_ms"] as? [String: Any],
                Set(timings.keys) == Set(timingKeys)
            else { return false }
            let steps = timingKeys.compactMap { timings[$0] as? Double }
            return steps == steps.sorted()
        }
    }

    @Test func aRedirectChainIsTracedHopByHop() async throws {
        let server = TestServer.shared
        let directory = TemporaryDirectory("trace-line")
        defer { directory.remove() }
        try directory.write("chain.json", Payloads.routed(image: server.url("/redirect/hops/2")))
        let result = try await tool([
            "process", "--ca-file", server.caFile, "--attachments", directory.file("att"), "--budget", "3", directory.file("chain.json"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(Self.orderedKeys(of: "trace", in: text) == [Self.traceKeys])
        #expect(Self.orderedKeys(of: "timings_ms", in: text) == Array(repeating: Self.timingKeys, count: 3))
        #expect(Self.orderedKeys(of: "image", in: text) == [["type", "width", "height", "frames"]])
        let line = try #require(result.jsonLines.first)
        #expect(line["image_url"] as? String == server.url("/redirect/hops/2"))
        #expect(Self.isWellFormedTrace(line["trace"]))
        let trace = try #require(line["trace"] as? [String: Any])
        let hops = try #require(trace["hops"] as? [[String: Any]])
        #expect(hops.map { $0["status"] as? Int } == [302, 302, 200])
        #expect(hops.map { $0["location"] as? String } == ["/redirect/hops/1", "/redirect/hops/0", nil])
        #expect(hops.map { $0["tls"] is NSNull } == [false, true, true])
        #expect(trace["body_bytes"] as? Int == 11_352)
        #expect(trace["budget_ms"] as? Int == 3_000)
        #expect(trace["phase"] as? String == "done")
        let image = try #require(trace["image"] as? [String: Any])
        // /img/png is TestAssets/Images/sample.png (16×12), padded to 11352 bytes by the server.
        #expect(
            image["type"] as? String == "png" && image["width"] as? Int == 16 && image["height"] as? Int == 12
                && image["frames"] as? Int == 1)
    }

    @Test func noDownloadMeansNoTrace() async throws {
        let directory = TemporaryDirectory("trace-none")
        defer { directory.remove() }
        try directory.write("a.json", Payloads.routed(image: "http://127.0.0.1/img.png"))
        try directory.write("b.json", Payloads.routed(image: nil))
        let result = try await tool(["process", "--attachments", directory.file("att"), directory.path])
        let lines = result.jsonLines
        #expect(lines.count == 2)
        #expect(lines.first?["image_url"] as? String == "http://127.0.0.1/img.png")
        #expect(lines.first?["trace"] is NSNull)
        #expect(lines.last?["image_url"] is NSNull)
        #expect(lines.last?["trace"] is NSNull)
    }
}
