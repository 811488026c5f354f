import CarillonTestSupport
import Foundation
import Testing

/// The built `carillon-nse` run as a process against the local HTTPS server: stdout, stderr, status.
@Suite(.timeLimit(.minutes(2))) struct ProcessEndToEndTests {
    /// The sample catalogue with the server's address filled in, and the outcomes it must give.
    struct Catalogue {
        let directory: TemporaryDirectory
        /// Relative paths (`routing/01-….json`) in the order they are passed, and their expected columns.
        let expected: [(path: String, reason: String, delivered: String, receipt: String)]
        let groups = ["routing", "stamp", "download", "odd", "malformed"]

        init() throws {
            directory = TemporaryDirectory("catalogue")
            let server = TestServer.shared
            let source = Paths.testAssets("Payloads")
            for group in groups {
                try FileManager.default.createDirectory(atPath: directory.file(group), withIntermediateDirectories: true)
                for name in try FileManager.default.contentsOfDirectory(atPath: source + "/" + group) where name.hasSuffix(".json") {
                    var data = try Data(contentsOf: URL(fileURLWithPath: "\(source)/\(group)/\(name)"))
                    if let text = String(data: data, encoding: .utf8), text.contains("{{BASE_URL}}") {
                        data = Data(text.replacingOccurrences(of: "{{BASE_URL}}", with: server.baseURL).utf8)
                    }
                    try data.write(to: URL(fileURLWithPath: directory.file("\(group)/\(name)")))
                }
            }
            let table = try String(contentsOfFile: source + "/expected.tsv", encoding: .utf8)
            expected = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
                let columns = line.split(separator: "\t").map(String.init)
                return (columns[0], columns[1], columns[2], columns[3])
            }
        }
    }

    /// Workers share TLS sessions: the first payload runs alone, so the other workers' connections
    /// resume its session rather than each making a full handshake at the same moment.
    @Test(arguments: [4, 8])
    func workersResumeTheFirstPayloadsTLSSession(jobs: Int) async throws {
        // A server of this test's own, so that no other test's handshakes are counted.
        let server = try await onOwnThread { try TestServer() }
        let work = TemporaryDirectory("one-handshake")
        defer { work.remove() }
        try FileManager.default.createDirectory(atPath: work.file("payloads"), withIntermediateDirectories: true)
        for index in 0..<(jobs * 3) {
            // Distinct URLs: one download each (payloads naming one URL share its download).
            let payload = Payloads.routed(image: server.url(index % 2 == 0 ? "/img/png?n=\(index)" : "/img/jpeg?n=\(index)"))
            try Data(payload.utf8).write(to: URL(fileURLWithPath: work.file("payloads/\(index).json")))
        }
        let handshakes = {
            try await onOwnThread {
                let stats = try server.stats()
                return (all: stats["tls_handshakes"] as? Int ?? -1, resumed: stats["tls_resumed"] as? Int ?? -1)
            }
        }
        let before = try await handshakes()
        let result = try await tool([
            "process", "--ca-file", server.caFile, "--attachments", work.file("attachments"), "--jobs", String(jobs),
            work.file("payloads"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.jsonLines.map { $0["reason"] as? String } == Array(repeating: "attached", count: jobs * 3))
        let after = try await handshakes()
        // At most one connection per worker (each keeps its own). Without the wait for the first
        // payload none of them resumes (all start at once); with it, usually all but the first do, but
        // not always: libcurl 7.88 with this server sometimes makes a few full handshakes among
        // connections opened at the same moment, and `curl --parallel` does too (1-5 full of 8).
        let connections = after.all - before.all
        #expect((2...jobs).contains(connections), "\(connections) handshakes")
        #expect(after.resumed - before.resumed >= 1, "\(connections) handshakes, none resumed")
    }

    @Test(arguments: [1, 4])
    func theCatalogueGivesItsExpectedOutcomesInInputOrder(jobs: Int) async throws {
        let catalogue = try Catalogue()
        defer { catalogue.directory.remove() }
        let work = TemporaryDirectory("work")
        defer { work.remove() }
        let arguments =
            [
                "process", "--ca-file", TestServer.shared.caFile, "--container", work.file("container"),
                "--attachments", work.file("attachments"), "--budget", "2", "--jobs", String(jobs),
            ] + catalogue.groups.map { catalogue.directory.file($0) }
        let result = try await tool(arguments)

        // Malformed inputs make the status 1, and each gets one stderr line naming its file.
        #expect(result.status == 1)
        let malformed = catalogue.expected.filter { $0.reason == "invalid-payload" }
        var errorLines = result.standardError.split(separator: "\n")
        // Then the run's summary, last.
        #expect(
            errorLines.last?.hasPrefix("carillon-nse: summary: \(catalogue.expected.count) payloads: ") == true, "\(result.standardError)")
        errorLines.removeLast()
        #expect(errorLines.count == malformed.count, "\(result.standardError)")
        for entry in malformed {
            #expect(errorLines.contains { $0.hasPrefix("carillon-nse: \(catalogue.directory.file(entry.path)): ") })
        }

        let lines = result.jsonLines
        #expect(lines.count == catalogue.expected.count)
        for (line, entry) in zip(lines, catalogue.expected) {
            #expect(line["payload"] as? String == catalogue.directory.file(entry.path))
            #expect(line["reason"] as? String == entry.reason, "\(entry.path): \(line["detail"] ?? "")")
            #expect(line["delivered"] as? String == entry.delivered, "\(entry.path)")
            #expect(line["receipt"] as? String == entry.receipt, "\(entry.path)")
            Self.expectWellFormed(line)
        }
        // Every attachment listed exists with its size; nothing else is in the directory.
        let listed = lines.flatMap { ($0["attachments"] as? [[String: Any]]) ?? [] }
        #expect(listed.count == catalogue.expected.filter { $0.reason == "attached" }.count)
        for attachment in listed {
            let path = try #require(attachment["file"] as? String)
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(size == attachment["bytes"] as? Int)
        }
        #expect(work.contents("attachments").count == listed.count)
    }

    static func expectWellFormed(_ line: [String: Any]) {
        #expect(line["payload"] is String)
        #expect(line["routed"] is Bool)
        #expect(line["reason"] is String)
        #expect(line["detail"] is String)
        #expect(["modified", "original"].contains(line["delivered"] as? String))
        #expect(line["delivery_id"] is String || line["delivery_id"] is NSNull)
        #expect(["stored", "duplicate", "none", "failed"].contains(line["receipt"] as? String))
        #expect(line["attachments"] is [Any])
        #expect(line["elapsed_ms"] is NSNumber)
        #expect(line["warnings"] is [String])
        #expect(line["image_url"] is String || line["image_url"] is NSNull)
        #expect(line["trace"] is NSNull || TraceLineTests.isWellFormedTrace(line["trace"]), "\(line["trace"] ?? "")")
        for attachment in (line["attachments"] as? [[String: Any]]) ?? [] {
            #expect(["jpeg", "png", "gif"].contains(attachment["type"] as? String))
            #expect(attachment["file"] is String && attachment["bytes"] is Int)
        }
    }

    /// The two Info.plist exceptions, end to end: each changes what it should and nothing else.
    @Test(
        arguments: [
            ([], ["tls", "attached", "tls"]),
            (["--no-forward-secrecy"], ["attached", "attached", "tls"]),
            (["--tls-minimum", "1.3"], ["tls", "tls", "tls"]),
            (["--tls-minimum", "1.0", "--no-forward-secrecy"], ["attached", "attached", "tls"]),
        ] as [([String], [String])])
    func theATSExceptionsChangeWhatTheyShould(options: [String], reasons: [String]) async throws {
        let directory = TemporaryDirectory("ats")
        defer { directory.remove() }
        let server = TestServer.shared
        for (index, listener) in ["ats_rsa_kex", "ats_tls12_ecdhe", "ats_ten_years"].enumerated() {
            try directory.write("\(index).json", Payloads.routed(image: server.url("/img/png", onATSListener: listener)))
        }
        let arguments = ["process", "--ca-file", server.caFile, "--attachments", directory.file("att")] + options + [directory.path]
        let result = try await onOwnThread { try Command.tool(arguments) }
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.jsonLines.map { $0["reason"] as? String ?? "?" } == reasons, "\(result.standardOutput)")
    }

    @Test func aDirectoryMeansItsJSONFilesSorted() async throws {
        let directory = TemporaryDirectory("sorted")
        defer { directory.remove() }
        try directory.write("b.json", #"{"aps":{"alert":"b","mutable-content":1}}"#)
        try directory.write("a.json", #"{"aps":{"alert":"a","mutable-content":1}}"#)
        try directory.write("c.txt", "not a payload")
        try directory.write(".hidden.json", "{}")
        try FileManager.default.createDirectory(atPath: directory.file("sub.json"), withIntermediateDirectories: true)
        let result = try await tool(["process", "--attachments", directory.file("att"), directory.path])
        // A directory named like a payload is no payload: skipped, with one line naming it, and exit 1.
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(directory.file("sub.json")): a directory, not a payload file; skipped"))
        #expect(result.jsonLines.map { $0["payload"] as? String } == [directory.file("a.json"), directory.file("b.json")])
    }

    @Test func aMissingFileIsReportedAndTheOthersStillRun() async throws {
        let directory = TemporaryDirectory("missing")
        defer { directory.remove() }
        let good = try directory.write("good.json", #"{"aps":{"alert":"x","mutable-content":1}}"#)
        let missing = directory.file("missing.json")
        let result = try await tool(["process", "--attachments", directory.file("att"), missing, good])
        #expect(result.status == 1)
        #expect(
            result.standardError.hasPrefix(
                "carillon-nse: \(missing): cannot read: No such file or directory\ncarillon-nse: summary: 2 payloads: "))
        #expect(result.standardError.split(separator: "\n").count == 2)
        let lines = result.jsonLines
        #expect(lines.count == 2)
        #expect(lines[0]["reason"] as? String == "invalid-payload")
        #expect(lines[1]["reason"] as? String == "no-image")
    }

    @Test func aHugeFileIsRefusedUnread() async throws {
        let directory = TemporaryDirectory("huge")
        defer { directory.remove() }
        let path = directory.file("huge.json")
        // 100 MB, sparse: the tool must refuse it from its size, not by reading it.
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 100_000_000)
        try handle.close()
        let result = try await tool(["process", path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("huge.json: file is 100000000 bytes, over the 1048576-byte limit"))
        #expect(result.jsonLines.first?["reason"] as? String == "invalid-payload")
    }

    @Test func allReadablePayloadsExitZeroEvenWhenTheyFallBack() async throws {
        let directory = TemporaryDirectory("fallbacks")
        defer { directory.remove() }
        let server = TestServer.shared
        try directory.write("404.json", Payloads.routed(image: server.url("/status/404")))
        try directory.write("silent.json", #"{"aps":{"content-available":1}}"#)
        let result = try await tool(["process", "--ca-file", server.caFile, "--attachments", directory.file("att"), directory.path])
        #expect(result.status == 0)
        #expect(
            result.standardError.hasPrefix("carillon-nse: summary: 2 payloads: 1 http-status, 1 not-mutable; elapsed_ms median "),
            "\(result.standardError)")
        #expect(result.jsonLines.map { $0["reason"] as? String } == ["http-status", "not-mutable"])
    }

    @Test func standardInputWorksBetweenFiles() async throws {
        let directory = TemporaryDirectory("stdin")
        defer { directory.remove() }
        let file = try directory.write("file.json", #"{"aps":{"alert":"x","mutable-content":1}}"#)
        let input = Data(#"{"aps":{"alert":"x"}}"#.utf8)
        let result = try await tool(["process", "--attachments", directory.file("att"), file, "-", file], input: input)
        #expect(result.status == 0)
        #expect(result.jsonLines.map { $0["payload"] as? String } == [file, "-", file])
        #expect(result.jsonLines.map { $0["reason"] as? String } == ["no-image", "not-mutable", "no-image"])
    }

    @Test func aReceiptThatCannotBeWrittenIsReportedAndTheImageStillProceeds() async throws {
        let directory = TemporaryDirectory("receipt-failure")
        defer { directory.remove() }
        let server = TestServer.shared
        // A container whose receipts directory is a regular file: the container is fine (so this is no
        // usage error), but no receipt can be stored in it (this fails for root too, unlike a permission bit).
        let container = directory.file("container")
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        _ = try directory.write("container/CarillonReceipts", "")
        let payload = try directory.write("p.json", Payloads.routed(image: server.url("/img/png")))
        let result = try await tool([
            "process", "--ca-file", server.caFile, "--container", container, "--attachments", directory.file("att"), payload,
        ])
        #expect(result.status == 0)
        let line = try #require(result.jsonLines.first)
        #expect(line["receipt"] as? String == "failed")
        #expect(line["reason"] as? String == "attached")
        #expect((line["warnings"] as? [String])?.contains { $0.contains("CarillonReceipts") } == true, "\(line)")
        // Counted on standard error, even for one payload and in every format.
        #expect(result.standardError.contains("summary: 1 receipt failed"), "\(result.standardError)")
        for format in ["text", "junit"] {
            let again = try await tool([
                "process", "--ca-file", server.caFile, "--container", container, "--attachments", directory.file("att"), "--format", format,
                payload, payload,
            ])
            #expect(again.status == 0)
            #expect(again.standardError.contains("; 2 receipts failed"), "\(format): \(again.standardError)")
        }
    }

    @Test func theExpiryOptionDeliversTheOriginalWhileADownloadStalls() async throws {
        let directory = TemporaryDirectory("expire")
        defer { directory.remove() }
        let server = TestServer.shared
        try directory.write("stall.json", Payloads.routed(image: "https://127.0.0.1:\(server.handshakeStallPort)/img.png"))
        let result = try await tool([
            "process", "--ca-file", server.caFile, "--attachments", directory.file("att"), "--expire-after", "0.3",
            directory.file("stall.json"),
        ])
        let line = try #require(result.jsonLines.first)
        #expect(line["reason"] as? String == "expired")
        #expect(line["delivered"] as? String == "original")
        let elapsed = try #require(line["elapsed_ms"] as? Double)
        #expect(elapsed >= 300 && elapsed < 400, "\(elapsed)")
        #expect(directory.contents("att").isEmpty)
    }
}
