import CarillonTestSupport
import Foundation
import Testing

/// `upload` end to end against the events API stand-in: every scripted fault, the key's secrecy, kills
/// with SIGKILL, and the clock rule. After each run: nothing lost (every event is still queued, recorded
/// by the API or set aside), nothing removed early (an event gone from the queue was recorded or set
/// aside), duplicates only as retries the API counted as repeats.
@Suite(.timeLimit(.minutes(3))) struct UploadEndToEndTests {
    /// A queue of `count` opened events (at = now), and their ids in queue order.
    static func makeQueue(_ count: Int, in work: TemporaryDirectory, at: String? = nil, from first: Int = 1) async throws -> [String] {
        try FileManager.default.createDirectory(atPath: work.file("payloads"), withIntermediateDirectories: true)
        var ids: [String] = []
        for number in first..<(first + count) {
            let id = TestDeliveryID.text(number)
            try work.write(String(format: "payloads/%06d.json", number), Payloads.routed(image: nil, deliveryID: id))
            ids.append(id)
        }
        let opened = try await tool(["open", "--queue", work.file("queue")] + (at.map { ["--at", $0] } ?? []) + [work.file("payloads")])
        #expect(opened.status == 0, "\(opened.standardError)")
        try FileManager.default.removeItem(atPath: work.file("payloads"))
        return ids
    }

    /// Runs `upload` against `server` with the key in the environment (or as given).
    static func upload(
        _ server: EventsAPIServer, _ work: TemporaryDirectory, _ extra: [String] = [], key: String? = nil
    ) async throws -> Command.Result {
        let arguments = ["upload", "--queue", work.file("queue"), "--endpoint", server.baseURL, "--ca-file", server.caFile] + extra
        let environment = ["CARILLON_MOBILE_KEY": key ?? server.key]
        return try await onOwnThread { try Command.run(Paths.tool, arguments, environment: environment) }
    }

    struct Record {
        var queued: Set<String>
        var recorded: [String: Int]
        var setAside: Set<String>
    }

    /// Checks the invariants and returns what is where.
    @discardableResult
    static func checkNothingLost(
        _ ids: [String], _ work: TemporaryDirectory, _ server: EventsAPIServer, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Record {
        func opened(_ directory: String) -> Set<String> {
            Set(QueueFiles.events(in: work.file(directory)).filter { $0.type == "opened" }.map(\.deliveryID))
        }
        let queued = opened("queue")
        let setAside = opened("queue/Quarantine")
        var recorded: [String: Int] = [:]
        for event in try server.recorded() {
            recorded[event["delivery_id"] as? String ?? "?"] = event["reports"] as? Int ?? 0
        }
        for id in ids where !queued.contains(id) {
            #expect(
                recorded[id] != nil || setAside.contains(id), "\(id) left the queue without a 2xx for it or a set-aside",
                sourceLocation: sourceLocation)
        }
        #expect(Set(recorded.keys).isSubset(of: Set(ids)), sourceLocation: sourceLocation)
        return Record(queued: queued, recorded: recorded, setAside: setAside)
    }

    static func outcomes(_ result: Command.Result) -> [String] {
        result.jsonLines.map { line in
            let status = (line["status"] as? Int).map(String.init) ?? "null"
            return "\(line["outcome"] as? String ?? "?") \(status) \(line["events"] as? Int ?? -1)"
        }
    }

    @Test func aCleanUploadSendsEveryBatchInOrderOnOneConnection() async throws {
        let work = TemporaryDirectory("upload-clean")
        defer { work.remove() }
        let server = try EventsAPIServer()
        let ids = try await Self.makeQueue(250, in: work)
        let before = try server.stats()["connections"] as? Int ?? 0
        let result = try await Self.upload(server, work)
        let after = try server.stats()["connections"] as? Int ?? 0
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.outcomes(result) == ["sent 200 100", "sent 200 100", "sent 200 50"])
        #expect(result.jsonLines.map { $0["batch"] as? Int } == [1, 2, 3])
        #expect(result.jsonLines.allSatisfy { $0["received"] as? Int == $0["events"] as? Int && $0["attempt"] as? Int == 1 })
        #expect(
            Set(result.jsonLines.flatMap { Array($0.keys) })
                == ["batch", "events", "attempt", "status", "outcome", "received", "retry_after_ms", "elapsed_ms", "detail"])
        // The second stats request is one connection; the upload's three requests are the other.
        #expect(after - before == 2, "three requests on one connection")
        let record = try Self.checkNothingLost(ids, work, server)
        #expect(record.queued.isEmpty)
        #expect(record.recorded.count == 250 && record.recorded.values.allSatisfy { $0 == 1 })
        // In queue order.
        #expect(try server.recorded().compactMap { $0["delivery_id"] as? String } == ids)
        #expect(result.standardError.contains("250 sent in 3 requests, 0 set aside, 0 kept in the queue"))
        // Nothing left: a second run sends nothing and succeeds.
        let again = try await Self.upload(server, work)
        #expect(again.status == 0 && again.standardOutput.isEmpty)
    }

    struct FaultCase: Sendable, CustomTestStringConvertible {
        var name: String
        var faults: String
        var extra: [String] = []
        var status: Int32
        var outcomes: [String]
        /// Events the API must end up recording (of 150), and how many of them were sent twice.
        var recorded: Int
        var repeats = 0
        var setAside = 0
        var stderr: String? = nil
        var testDescription: String { name }
    }

    static let faultCases: [FaultCase] = [
        FaultCase(
            name: "500 is retried", faults: #"[{"status":500}]"#, status: 0,
            outcomes: ["retry 500 100", "sent 200 100", "sent 200 50"], recorded: 150),
        FaultCase(
            name: "502, 504 and 408 are retried", faults: #"[{"status":502},{"status":504},{"status":408}]"#, status: 0,
            outcomes: ["retry 502 100", "retry 504 100", "retry 408 100", "sent 200 100", "sent 200 50"], recorded: 150),
        FaultCase(
            name: "429 is retried", faults: #"[{"status":429}]"#, status: 0,
            outcomes: ["retry 429 100", "sent 200 100", "sent 200 50"], recorded: 150),
        FaultCase(
            name: "a reset after the body is retried", faults: #"[{"reset":true}]"#, status: 0,
            outcomes: ["retry null 100", "sent 200 100", "sent 200 50"], recorded: 150),
        FaultCase(
            name: "an answer lost after recording is sent again and ignored", faults: #"[{"reset_after_record":true}]"#, status: 0,
            outcomes: ["retry null 100", "sent 200 100", "sent 200 50"], recorded: 150, repeats: 100),
        FaultCase(
            name: "a stall ends at the deadline with everything kept", faults: #"[{"stall":30}]"#, extra: ["--deadline", "2"], status: 1,
            outcomes: ["retry null 100"], recorded: 0, stderr: "deadline"),
        FaultCase(
            name: "401 stops at once", faults: #"[{"status":401}]"#, status: 1,
            outcomes: ["refused 401 100"], recorded: 0, stderr: "the API refused the mobile key (HTTP 401)"),
        FaultCase(
            name: "403 stops at once", faults: #"[{"status":403}]"#, status: 1,
            outcomes: ["refused 403 100"], recorded: 0, stderr: "the API refused the mobile key (HTTP 403)"),
        FaultCase(
            name: "413 splits the batch", faults: #"[{"status":413}]"#, status: 0,
            outcomes: ["split 413 100", "sent 200 50", "sent 200 50", "sent 200 50"], recorded: 150),
        FaultCase(
            name: "413 twice splits again", faults: #"[{"status":413},{"status":413}]"#, status: 0,
            outcomes: ["split 413 100", "split 413 50", "sent 200 25", "sent 200 25", "sent 200 50", "sent 200 50"], recorded: 150),
        FaultCase(
            name: "422 sets the batch aside and goes on", faults: #"[{"status":422,"body":"event rejected"}]"#, status: 1,
            outcomes: ["set-aside 422 100", "sent 200 50"], recorded: 50, setAside: 100),
        FaultCase(
            name: "retries run out with everything kept", faults: #"[{"status":500},{"status":503},{"status":500}]"#,
            extra: ["--max-attempts", "3"], status: 1,
            outcomes: ["retry 500 100", "retry 503 100", "retry 500 100"], recorded: 0, stderr: "3 attempts made (--max-attempts)"),
        FaultCase(
            name: "a wrong received count is a warning", faults: #"[{"received":3}]"#, status: 0,
            outcomes: ["sent 200 100", "sent 200 50"], recorded: 150, stderr: #"batch 1: the API answered {"received": 3} for 100 events"#),
    ]

    @Test(arguments: faultCases)
    func everyScriptedFault(_ c: FaultCase) async throws {
        let work = TemporaryDirectory("upload-fault")
        defer { work.remove() }
        let server = try EventsAPIServer()
        let ids = try await Self.makeQueue(150, in: work)
        let faults = try JSONSerialization.jsonObject(with: Data(c.faults.utf8)) as! [[String: Any]]
        try server.script(faults)
        let result = try await Self.upload(server, work, c.extra)
        #expect(result.status == c.status, "\(result.standardError)")
        #expect(Self.outcomes(result) == c.outcomes, "\(result.standardOutput)")
        let record = try Self.checkNothingLost(ids, work, server)
        #expect(record.recorded.count == c.recorded)
        #expect(record.recorded.values.filter { $0 == 2 }.count == c.repeats)
        #expect(record.setAside.count == c.setAside)
        #expect(record.queued.count == 150 - c.recorded - c.setAside)
        if let stderr = c.stderr { #expect(result.standardError.contains(stderr), "\(result.standardError)") }
        // A retry says how long it waited; the last line of a run that gave up says why.
        for line in result.jsonLines where line["outcome"] as? String == "retry" {
            #expect(line["retry_after_ms"] is Int || (line["detail"] as? String)?.hasPrefix("gave up") == true)
        }
        if c.setAside > 0 {
            // One reason beside each quarantined file (a file may hold several refused events: counted above).
            let reasons = work.contents("queue/Quarantine").filter { $0.hasSuffix(".reason") }
            #expect(!reasons.isEmpty && reasons.count <= c.setAside)
            let reason = try String(contentsOfFile: work.file("queue/Quarantine/" + reasons[0]), encoding: .utf8)
            #expect(reason.contains("POST /v1/events answered 422") && reason.contains("event rejected"), "\(reason)")
        }
        // What was kept goes out on the next run, and nothing is doubled in the API's record.
        if c.status != 0 {
            let again = try await Self.upload(server, work)
            #expect(again.status == (c.setAside > 0 ? 0 : 0), "\(again.standardError)")
            let final = try Self.checkNothingLost(ids, work, server)
            #expect(final.queued.isEmpty)
            #expect(final.recorded.count + final.setAside.count == 150)
        }
    }

    @Test(arguments: [("1", 1000...1000), ("date", 0...2000)])
    func retryAfterIsHonouredInBothForms(form: String, range: ClosedRange<Int>) async throws {
        let work = TemporaryDirectory("upload-retry-after")
        defer { work.remove() }
        let server = try EventsAPIServer()
        let ids = try await Self.makeQueue(20, in: work)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let value = form == "date" ? formatter.string(from: Date().addingTimeInterval(2)) : form
        try server.script([["status": 503, "retry_after": value]])
        let started = Date()
        let result = try await Self.upload(server, work)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.outcomes(result) == ["retry 503 20", "sent 200 20"])
        let wait = result.jsonLines.first?["retry_after_ms"] as? Int ?? -1
        #expect(range.contains(wait), "Retry-After \(value) gave \(wait) ms")
        #expect(Date().timeIntervalSince(started) * 1000 >= Double(wait), "the wait was made")
        #expect(try Self.checkNothingLost(ids, work, server).queued.isEmpty)
    }

    @Test func theKeyAppearsNowhereButTheAuthorizationHeader() async throws {
        let key = "k3y-S3CRET-0123456789abcdef"
        let work = TemporaryDirectory("upload-key")
        defer { work.remove() }
        let server = try EventsAPIServer(key: key)
        _ = try await Self.makeQueue(120, in: work)
        let keyFile = try work.write("key.txt", key + "\nsecond line ignored\n")
        var outputs: [Command.Result] = []
        // Refused (another key), set aside, retried, then sent with the file's key.
        outputs.append(try await Self.upload(server, work, key: "wrong-key"))
        try server.script([["status": 422, "body": "nope"], ["status": 500]])
        outputs.append(try await Self.upload(server, work, ["--key-file", keyFile]))
        outputs.append(try await Self.upload(server, work, ["--key-file", keyFile]))
        #expect(outputs[0].status == 1 && outputs[0].standardError.contains("refused the mobile key (HTTP 403)"))
        #expect(outputs[2].status == 0, "\(outputs[2].standardError)")
        #expect(try server.recorded().count == 20, "the 100 of the 422 batch are set aside, the other 20 sent")
        for output in outputs {
            #expect(!output.standardOutput.contains(key) && !output.standardError.contains(key))
        }
        // Nothing under the queue (events, .sequence, Quarantine and its reasons) holds it.
        let queue = work.file("queue")
        let files = FileManager.default.enumerator(atPath: queue)?.compactMap { $0 as? String } ?? []
        #expect(!files.isEmpty)
        for file in files {
            let data = (try? Data(contentsOf: URL(fileURLWithPath: queue + "/" + file))) ?? Data()
            #expect(!String(decoding: data, as: UTF8.self).contains(key), "\(file) holds the key")
        }
        // A bad key is described, never quoted.
        let badKeyFile = try work.write("bad.txt", "has a space-\(key)\n")
        let bad = try await Self.upload(server, work, ["--key-file", badKeyFile])
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("holds a space") && !bad.standardError.contains(key))
    }

    @Test(arguments: [
        (["--endpoint", "http://127.0.0.1:1"], "uses scheme 'http'; only https is allowed"),
        (["--endpoint", "https://user@127.0.0.1:1"], "user info"),
        (["--endpoint", "https://127.0.0.1:1/?x=1"], "query or fragment"),
        (["--endpoint", "https://127.0.0.1:1", "--key-file", "/nonexistent/key"], "--key-file '/nonexistent/key': no such file"),
        (["--endpoint", "https://127.0.0.1:1", "--max-attempts", "0"], "--max-attempts"),
        (["--endpoint", "https://127.0.0.1:1", "--deadline", "-1"], "--deadline"),
        (["--endpoint", "https://127.0.0.1:1", "--ca-file", "/nonexistent.pem"], "--ca-file"),
        ([String](), "option '--endpoint' is required"),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let work = TemporaryDirectory("upload-usage")
        defer { work.remove() }
        let result = try await onOwnThread {
            try Command.run(Paths.tool, ["upload", "--queue", work.file("queue")] + arguments, environment: ["CARILLON_MOBILE_KEY": "k"])
        }
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func noKeyIsAUsageError() async throws {
        let result = try await shell(#"unset CARILLON_MOBILE_KEY; "$TOOL" upload --queue /nonexistent --endpoint https://127.0.0.1:1"#)
        #expect(result.status == 64)
        #expect(result.standardError.contains("no mobile key: give --key-file FILE or set CARILLON_MOBILE_KEY"))
    }

    @Test func aKilledUploadLosesNothingAndRemovesNothingEarly() async throws {
        let work = TemporaryDirectory("upload-kill")
        defer { work.remove() }
        let server = try EventsAPIServer()
        let ids = try await Self.makeQueue(1000, in: work)
        // Each request waits 50 ms at the server, so kills land between and inside requests; after the
        // request counts, a few at random moments.
        let moments: [(posts: Int, extraDelay: Double)] = [
            (1, 0), (2, 0.02), (4, 0.045), (6, 0), (0, Double.random(in: 0...0.1)), (0, Double.random(in: 0...0.2)),
        ]
        var killedMidway = false
        for moment in moments {
            try server.script(Array(repeating: ["delay": 0.05], count: 10))
            let postsBefore = try server.stats()["posts"] as? Int ?? 0
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.tool)
            process.arguments = ["upload", "--queue", work.file("queue"), "--endpoint", server.baseURL, "--ca-file", server.caFile]
            process.environment = ProcessInfo.processInfo.environment.merging(["CARILLON_MOBILE_KEY": server.key]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while (try server.stats()["posts"] as? Int ?? 0) - postsBefore < moment.posts && process.isRunning && Date() < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            try await Task.sleep(for: .seconds(moment.extraDelay))
            kill(process.processIdentifier, SIGKILL)
            try await onOwnThread { process.waitUntilExit() }
            let record = try Self.checkNothingLost(ids, work, server)
            if !record.queued.isEmpty && record.queued.count < ids.count { killedMidway = true }
        }
        #expect(killedMidway, "no kill landed while part of the queue was sent and part not")
        let final = try await Self.upload(server, work)
        #expect(final.status == 0, "\(final.standardError)")
        let record = try Self.checkNothingLost(ids, work, server)
        #expect(record.queued.isEmpty)
        #expect(record.recorded.count == 1000, "every event reached the API once the queue was empty")
    }

    @Test func eventsTheAPIWillReTimeAreWarnedAboutByBatchesAndUpload() async throws {
        let work = TemporaryDirectory("upload-clock")
        defer { work.remove() }
        let server = try EventsAPIServer()
        let old = try await Self.makeQueue(1, in: work, at: "2020-01-01T00:00:00.000Z", from: 1)
        let future = try await Self.makeQueue(1, in: work, at: "2099-01-01T00:00:00.000Z", from: 2)
        let fine = try await Self.makeQueue(1, in: work, from: 3)
        let batches = try await tool(["batches", "--queue", work.file("queue")])
        #expect(batches.status == 0)
        for result in [batches, try await Self.upload(server, work)] {
            let warnings = result.standardError.split(separator: "\n").filter { $0.contains("warning:") }
            #expect(warnings.count == 2, "\(result.standardError)")
            #expect(warnings.contains { $0.contains(old[0]) && $0.contains("more than 30 days old") && $0.contains("receive time") })
            #expect(warnings.contains { $0.contains(future[0]) && $0.contains("in the future") })
            #expect(!result.standardError.contains(fine[0]))
        }
        let recorded = Dictionary(uniqueKeysWithValues: try server.recorded().map { ($0["delivery_id"] as! String, $0) })
        #expect(recorded[old[0]]?["replaced"] as? Bool == true)
        #expect(recorded[old[0]]?["sent_at"] as? String == "2020-01-01T00:00:00.000Z")
        #expect(recorded[future[0]]?["replaced"] as? Bool == true)
        #expect(recorded[fine[0]]?["replaced"] as? Bool == false)
    }
}
