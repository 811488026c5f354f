import CarillonTestSupport
import Foundation
import Testing

/// `readback` end to end against the events API stand-in over TLS on loopback: the whole chain from a
/// payload to a verdict, the clock rule, first report wins, sampling, the hourly window, keys and scopes,
/// 404, retried and hostile answers, the sent log's bad lines, and kills during `upload --sent-log`.
@Suite(.timeLimit(.minutes(3))) struct ReadbackEndToEndTests {
    static let mobile = "carillon_mk_test_a"
    static let secret = "carillon_sk_test_a"
    static let secretWithoutScope = "carillon_sk_test_noscope"

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// App a's message `m1` (created `created` ago) with `count` iOS deliveries (ids 1...count), app b's
    /// message `b1`, and the keys.
    static func fixture(count: Int = 3, created: TimeInterval = 3600) -> EventsAPIFixture {
        EventsAPIFixture(
            keys: [
                .init(mobile, app: "a"), .init(secret, app: "a", scopes: ["deliveries:read"]), .init(secretWithoutScope, app: "a"),
                .init("carillon_sk_test_b", app: "b", scopes: ["deliveries:read"]),
            ],
            messages: [
                .init(
                    "m1", app: "a", createdAt: iso(Date().addingTimeInterval(-created)),
                    deliveries: (1...count).map { .init(TestDeliveryID.text($0)) }),
                .init("b1", app: "b", createdAt: iso(Date()), deliveries: [.init(TestDeliveryID.text(900))]),
            ])
    }

    static func readback(
        _ server: EventsAPIServer, _ extra: [String], message: String = "m1", key: String? = secret
    ) async throws -> Command.Result {
        let arguments = ["readback", "--endpoint", server.baseURL, "--ca-file", server.caFile, "--message", message] + extra
        return try await onOwnThread {
            try Command.run(Paths.tool, arguments, environment: key.map { ["CARILLON_SECRET_KEY": $0] } ?? ["CARILLON_SECRET_KEY": ""])
        }
    }

    static func upload(_ server: EventsAPIServer, _ work: TemporaryDirectory) async throws -> Command.Result {
        let arguments = [
            "upload", "--queue", work.file("queue"), "--endpoint", server.baseURL, "--ca-file", server.caFile, "--sent-log",
            work.file("sent.log"),
        ]
        return try await onOwnThread { try Command.run(Paths.tool, arguments, environment: ["CARILLON_MOBILE_KEY": mobile]) }
    }

    /// Queues an `opened` event for each delivery number, at `at`.
    static func open(_ numbers: [Int], at: String, in work: TemporaryDirectory) async throws {
        var files: [String] = []
        for number in numbers {
            files.append(try work.write("open-\(number).json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(number))))
        }
        let opened = try await tool(["open", "--queue", work.file("queue"), "--at", at] + files)
        #expect(opened.status == 0, "\(opened.standardError)")
    }

    static func verdicts(_ result: Command.Result) -> [String] {
        result.jsonLines.filter { $0["kind"] as? String == "verdict" }.map { $0["verdict"] as? String ?? "?" }
    }

    @Test func theWholeChainEndsRecordedWithTheTapsAndTheReceiptsTimes() async throws {
        let work = TemporaryDirectory("readback-chain")
        defer { work.remove() }
        let server = try EventsAPIServer(fixture: Self.fixture())
        let ids = [1, 2].map(TestDeliveryID.text)
        var payloads: [String] = []
        for (index, id) in ids.enumerated() {
            payloads.append(try work.write("p\(index).json", Payloads.routed(image: nil, deliveryID: id)))
        }
        let processed = try await tool(["process", "--container", work.file("container")] + payloads)
        #expect(processed.status == 0, "\(processed.standardError)")
        let drained = try await tool(["drain", "--container", work.file("container"), "--queue", work.file("queue")])
        #expect(drained.status == 0, "\(drained.standardError)")
        let receipts = Dictionary(uniqueKeysWithValues: drained.jsonLines.map { ($0["delivery_id"] as! String, $0["at"] as! String) })
        #expect(Set(receipts.keys) == Set(ids))
        let tap = Self.iso(Date().addingTimeInterval(-60))
        try await Self.open([1, 2], at: tap, in: work)
        // The device was offline: the API hears of the receipts two hours after they were observed.
        let later = Self.iso(Date().addingTimeInterval(2 * 3600))
        try server.setClock(later)
        let uploaded = try await Self.upload(server, work)
        #expect(uploaded.status == 0, "\(uploaded.standardError)")
        let read = try await Self.readback(server, ["--sent-log", work.file("sent.log"), "--opens"])
        #expect(read.status == 0, "\(read.standardOutput)\(read.standardError)")
        #expect(Self.verdicts(read) == Array(repeating: "recorded", count: 4))
        let deliveries = Dictionary(
            uniqueKeysWithValues: read.jsonLines.filter { $0["kind"] as? String == "delivery" }.map { ($0["id"] as! String, $0) })
        for id in ids {
            #expect(deliveries[id]?["opened_at"] as? String == tap, "opened_at is the tap's instant")
            #expect(deliveries[id]?["received_at"] as? String == receipts[id], "received_at is the receipt's time")
            #expect(deliveries[id]?["received_reported_at"] as? String == later, "the offline period shows")
        }
        let message = read.jsonLines.first { $0["kind"] as? String == "message" }
        #expect((message?["outcomes"] as? [String: Any])?["opened"] as? Int == 2)
        let text = try await Self.readback(server, ["--sent-log", work.file("sent.log"), "--format", "text"])
        #expect(text.standardOutput.contains("reported 72"), "the gap in seconds: \(text.standardOutput)")
        #expect(!read.standardOutput.contains(Self.secret) && !read.standardError.contains(Self.secret))
    }

    @Test func theClockRuleFirstReportAndSamplingAreVerdictsNotFailures() async throws {
        let work = TemporaryDirectory("readback-rules")
        defer { work.remove() }
        let server = try EventsAPIServer(fixture: Self.fixture(count: 52))
        try await Self.open([1], at: Self.iso(Date().addingTimeInterval(-40 * 86_400)), in: work)
        try await Self.open([2], at: Self.iso(Date().addingTimeInterval(86_400)), in: work)
        try await Self.open([3], at: Self.iso(Date().addingTimeInterval(-29 * 86_400)), in: work)
        try await Self.open([51], at: Self.iso(Date()), in: work)
        #expect(try await Self.upload(server, work).status == 0)
        // A second open of delivery 3, later: the first report stays.
        try await Self.open([3], at: Self.iso(Date()), in: work)
        #expect(try await Self.upload(server, work).status == 0)
        let read = try await Self.readback(server, ["--sent-log", work.file("sent.log")])
        #expect(read.status == 0, "\(read.standardOutput)\(read.standardError)")
        let byLine = read.jsonLines.filter { $0["kind"] as? String == "verdict" }.map {
            ($0["delivery_id"] as! String, $0["verdict"] as! String)
        }
        #expect(byLine.count == 5)
        #expect(byLine.contains { $0 == (TestDeliveryID.text(1), "substituted") }, "over 30 days old")
        #expect(byLine.contains { $0 == (TestDeliveryID.text(2), "substituted") }, "in the future")
        #expect(byLine.filter { $0.0 == TestDeliveryID.text(3) }.map(\.1) == ["recorded", "superseded"])
        #expect(byLine.contains { $0 == (TestDeliveryID.text(51), "not-sampled") }, "the 51st is outside the 50 sampled")
        #expect(read.standardError.contains("1 recorded, 2 substituted, 1 superseded, 1 not-sampled"), "\(read.standardError)")
    }

    @Test func aLostEventOrAnotherTimeExitsTwo() async throws {
        let work = TemporaryDirectory("readback-lost")
        defer { work.remove() }
        let server = try EventsAPIServer(fixture: Self.fixture())
        let tap = Self.iso(Date().addingTimeInterval(-60))
        try await Self.open([1], at: tap, in: work)
        #expect(try await Self.upload(server, work).status == 0)
        // What an API that lost delivery 2's open and re-timed delivery 1's would leave: lines it never kept
        // (an earlier line of the log holding the stored time would make the second one superseded).
        let log = try String(contentsOfFile: work.file("sent.log"), encoding: .utf8)
        let other = log.replacing(TestDeliveryID.text(1), with: TestDeliveryID.text(2))
        let shifted = log.replacing(#""at":"\#(tap)""#, with: #""at":"\#(Self.iso(Date().addingTimeInterval(-120)))""#)
        try (other + shifted).write(toFile: work.file("sent.log"), atomically: true, encoding: .utf8)
        let read = try await Self.readback(server, ["--sent-log", work.file("sent.log")])
        #expect(read.status == 2, "\(read.standardError)")
        #expect(Self.verdicts(read) == ["missing", "differs"])
        let differs = read.jsonLines.first { $0["verdict"] as? String == "differs" }
        #expect((differs?["detail"] as? String)?.contains("the API holds") == true, "both times are shown")
    }

    /// The clock hours from the creation's through the current one, within the first 48 hours after
    /// creation (49 when the creation is not on the hour).
    static func hoursInWindow(created: Date, now: Date) -> Int {
        func hour(_ date: Date) -> Int { Int(date.timeIntervalSince1970 * 1000) / 3_600_000 }
        return min(hour(now), hour(created.addingTimeInterval(48 * 3600 - 0.001))) - hour(created) + 1
    }

    @Test func theHourlyWindow() async throws {
        let work = TemporaryDirectory("readback-opens")
        defer { work.remove() }
        // Created three days ago: 48 hours; created two hours ago: through the current hour.
        for created in [3.0 * 86_400, 2.0 * 3600 + 60] {
            let server = try EventsAPIServer(fixture: Self.fixture(created: created))
            let hours = Self.hoursInWindow(created: Date().addingTimeInterval(-created), now: Date())
            let empty = try await Self.readback(server, ["--opens", "--format", "text"])
            #expect(empty.status == 0 && empty.standardOutput.contains("no recorded opens"), "\(empty.standardOutput)")
            try await Self.open([1], at: Self.iso(Date().addingTimeInterval(-created + 30)), in: work)
            #expect(try await Self.upload(server, work).status == 0)
            let read = try await Self.readback(server, ["--opens"])
            let rows = read.jsonLines.first { $0["kind"] as? String == "opens" }?["hours"] as? [[String: Any]] ?? []
            #expect(rows.count == hours, "\(read.standardOutput)")
            #expect(rows.first?["opened"] as? Int == 1)
            let text = try await Self.readback(server, ["--opens", "--format", "text"])
            #expect(text.standardOutput.contains("█ 1"), "\(text.standardOutput)")
        }
    }

    @Test(arguments: [
        (Optional(mobile), [String](), "it is a mobile key"),
        (Optional(secretWithoutScope), ["--opens"], "deliveries:read scope"),
        (Optional("carillon_sk_unknown"), [String](), "HTTP 401"),
    ])
    func wrongKeysSayWhichAndWhy(key: String?, extra: [String], words: String) async throws {
        let server = try EventsAPIServer(fixture: Self.fixture())
        let read = try await Self.readback(server, extra, key: key)
        #expect(read.status == 1)
        #expect(read.standardError.contains(words), "\(read.standardError)")
        #expect(!read.standardError.contains(key ?? "") && !read.standardOutput.contains(key ?? ""), "the key is never printed")
    }

    @Test func noKeyIsUsageAndAnotherAppsMessageIs404() async throws {
        let server = try EventsAPIServer(fixture: Self.fixture())
        let none = try await Self.readback(server, [], key: nil)
        #expect(none.status == 64 && none.standardError.contains("no secret key"), "\(none.standardError)")
        let foreign = try await Self.readback(server, [], message: "b1")
        #expect(foreign.status == 1 && foreign.standardError.contains("no message 'b1'"), "\(foreign.standardError)")
    }

    @Test func retriedAndHostileAnswers() async throws {
        let server = try EventsAPIServer(fixture: Self.fixture())
        try server.scriptReads([["status": 429, "retry_after": "1"], ["status": 503, "retry_after": "0"]])
        let started = Date()
        let retried = try await Self.readback(server, [])
        #expect(retried.status == 0, "\(retried.standardError)")
        #expect(Date().timeIntervalSince(started) >= 1, "Retry-After: 1 was honoured")
        #expect(retried.standardError.contains("HTTP 429; trying again in 1000 ms"), "\(retried.standardError)")

        try server.scriptReads(Array(repeating: ["status": 500], count: 3))
        let gaveUp = try await Self.readback(server, ["--max-attempts", "2"])
        #expect(gaveUp.status == 1 && gaveUp.standardError.contains("2 attempts made (--max-attempts)"), "\(gaveUp.standardError)")

        try server.scriptReads([["stall": 60]])
        let stallStart = Date()
        let stalled = try await Self.readback(server, ["--deadline", "2", "--max-attempts", "1"])
        #expect(stalled.status == 1, "\(stalled.standardError)")
        #expect(Date().timeIntervalSince(stallStart) < 15, "a stalled answer ends with the deadline")

        for (fault, words) in [
            (["raw_body": "{\"id\":", "status": 200, "content_type": "application/json"] as [String: Any], "not JSON"),
            (["json": ["id": "m1", "outcomes": ["opened": "two"]]], "outcomes.opened is not a count"),
            (["huge": 50_000_000], "larger than 1048576 bytes"),
            (["huge": 50_000_000, "no_length": true], "larger than 1048576 bytes"),
        ] {
            try server.scriptReads([fault])
            let began = Date()
            let read = try await Self.readback(server, [])
            #expect(read.status == 1, "\(read.standardError)")
            #expect(read.standardError.contains(words), "\(read.standardError)")
            #expect(Date().timeIntervalSince(began) < 15, "no hang")
        }
    }

    @Test func aBadSentLogLineIsNamedAndATornLastLineSaid() async throws {
        let work = TemporaryDirectory("readback-log")
        defer { work.remove() }
        let server = try EventsAPIServer(fixture: Self.fixture())
        let good =
            #"{"type":"opened","delivery_id":"\#(TestDeliveryID.text(1))","at":"2026-08-20T09:16:44.120Z","sent_at":"2026-08-20T10:00:00.000Z"}"#
        let bad = try work.write("bad.log", good + "\n{\"type\":\"opened\"}\n")
        let torn = try work.write("torn.log", good + "\n" + String(good.prefix(40)))
        let badRead = try await Self.readback(server, ["--sent-log", bad])
        #expect(badRead.status == 1 && badRead.standardError.contains("bad.log:2: "), "\(badRead.standardError)")
        let tornRead = try await Self.readback(server, ["--sent-log", torn])
        #expect(tornRead.standardError.contains("torn.log:2: a torn last line"), "\(tornRead.standardError)")
        #expect(Self.verdicts(tornRead) == ["missing"])
    }

    @Test func aKilledUploadLeavesOnlyWholeLinesForAcknowledgedEvents() async throws {
        let work = TemporaryDirectory("readback-kill")
        defer { work.remove() }
        let server = try EventsAPIServer(fixture: Self.fixture(count: 600))
        try await Self.open(Array(1...600), at: Self.iso(Date().addingTimeInterval(-60)), in: work)
        let moments: [(posts: Int, delay: Double)] = [(1, 0), (2, 0.02), (3, 0.045), (0, Double.random(in: 0...0.1))]
        for moment in moments {
            try server.script(Array(repeating: ["delay": 0.05], count: 10))
            let postsBefore = try server.stats()["posts"] as? Int ?? 0
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.tool)
            process.arguments = [
                "upload", "--queue", work.file("queue"), "--endpoint", server.baseURL, "--ca-file", server.caFile, "--sent-log",
                work.file("sent.log"),
            ]
            process.environment = ProcessInfo.processInfo.environment.merging(["CARILLON_MOBILE_KEY": Self.mobile]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while (try server.stats()["posts"] as? Int ?? 0) - postsBefore < moment.posts && process.isRunning && Date() < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            try await Task.sleep(for: .seconds(moment.delay))
            kill(process.processIdentifier, SIGKILL)
            try await onOwnThread { process.waitUntilExit() }
            let recorded = Set(try server.recorded().map { $0["delivery_id"] as? String ?? "?" })
            let text = (try? String(contentsOfFile: work.file("sent.log"), encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(text.isEmpty || text.hasSuffix("\n"), "only whole lines")
            for line in lines.dropLast() {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                let id = object?["delivery_id"] as? String ?? "?"
                #expect(recorded.contains(id), "\(id) logged without the API holding it")
            }
        }
        let final = try await Self.upload(server, work)
        #expect(final.status == 0, "\(final.standardError)")
        let read = try await Self.readback(server, ["--sent-log", work.file("sent.log")])
        #expect(read.status == 0, "\(read.standardError)")
        let logged = Set(read.jsonLines.filter { $0["kind"] as? String == "verdict" }.map { $0["delivery_id"] as! String })
        #expect(logged.count == 600, "every event is in the log once the queue is empty")
    }
}
