import CarillonTestSupport
import Foundation
import Testing

/// The app's three sources of `received` — the extension's receipts through `drain`, `present`
/// (willPresent) and `scan` (Notification Center) — as the built tool runs them: one event per delivery
/// id, the first queued wins and keeps its `at`; and `present` killed at any moment loses and doubles
/// nothing.
@Suite(.timeLimit(.minutes(3))) struct ReceivedSourcesTests {
    enum Source: String, CaseIterable, Sendable {
        case drain, present, scan

        /// Each source's own instant, so the queued `at` says which one won.
        var at: String {
            switch self {
            case .drain: return "2026-08-20T09:00:01.000Z"
            case .present: return "2026-08-20T09:00:02.000Z"
            case .scan: return "2026-08-20T09:00:03.000Z"
            }
        }
    }

    static let orders: [[Source]] = [
        [.drain, .present, .scan], [.drain, .scan, .present], [.present, .drain, .scan],
        [.present, .scan, .drain], [.scan, .drain, .present], [.scan, .present, .drain],
    ]

    /// Runs one source for `id` in `work` and returns what it said about the event: "received" (queued
    /// by it) or "duplicate".
    static func run(_ source: Source, id: String, in work: TemporaryDirectory) async throws -> String? {
        let queue = work.file("queue")
        switch source {
        case .drain:
            // The receipt the extension would have written, at the drain's instant.
            let receipts = work.file("container/CarillonReceipts")
            try FileManager.default.createDirectory(
                atPath: receipts, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: work.file("container"))
            let receipt = "\(receipts)/\(id).receipt"
            try #"{"format":1,"delivery_id":"\#(id)","received_at":"\#(source.at)"}"#.appending("\n").write(
                toFile: receipt, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: receipt)
            let result = try await tool(["drain", "--container", work.file("container"), "--queue", queue])
            #expect(result.status == 0, "\(result.standardError)")
            if result.standardError.contains(": 1 queued, 0 already queued") { return "received" }
            if result.standardError.contains(": 0 queued, 1 already queued") { return "duplicate" }
            return nil
        case .present:
            let payload = try work.write("payload.json", Payloads.routed(image: nil, deliveryID: id))
            let result = try await tool(["present", "--queue", queue, "--at", source.at, payload])
            #expect(result.status == 0, "\(result.standardError)")
            return result.jsonLines.first?["queued"] as? String
        case .scan:
            let notifications = try work.write(
                "delivered.jsonl", #"{"date":"\#(source.at)","payload":\#(Payloads.routed(image: nil, deliveryID: id))}"# + "\n")
            let result = try await tool(["scan", "--queue", queue, notifications])
            #expect(result.status == 0, "\(result.standardError)")
            return result.jsonLines.first?["queued"] as? String
        }
    }

    /// The events of `batches`' bodies, as (type, delivery_id, at).
    static func queued(_ queue: String) async throws -> [[String]] {
        let batches = try await tool(["batches", "--queue", queue])
        #expect(batches.status == 0, "\(batches.standardError)")
        return batches.standardOutput.split(separator: "\n").flatMap { line -> [[String]] in
            guard let body = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let events = body["events"] as? [[String: Any]]
            else { return [["unreadable body"]] }
            return events.map { [$0["type"] as? String ?? "", $0["delivery_id"] as? String ?? "", $0["at"] as? String ?? ""] }
        }
    }

    @Test(arguments: orders)
    func theFirstSourceWinsAndKeepsItsTime(order: [Source]) async throws {
        let work = TemporaryDirectory("sources-\(order.map(\.rawValue).joined(separator: "-"))")
        defer { work.remove() }
        let id = TestDeliveryID.text(42)
        var said: [String?] = []
        for source in order { said.append(try await Self.run(source, id: id, in: work)) }
        #expect(said == ["received", "duplicate", "duplicate"], "\(order)")
        #expect(try await Self.queued(work.file("queue")) == [["received", id, order[0].at]])
        // The drain removed its receipt whether it queued the event or found it queued.
        #expect(work.contents("container/CarillonReceipts").filter { $0.hasSuffix(".receipt") }.isEmpty)
    }

    @Test func presentPrintsOneLinePerPayloadAndQueuesEitherWay() async throws {
        let work = TemporaryDirectory("present")
        defer { work.remove() }
        let stamped = try work.write("a.json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(1)))
        let plain = try work.write("b.json", #"{"aps":{"alert":"Hi"}}"#)
        let broken = try work.write("c.json", "{broken")
        let queue = work.file("queue")
        let result = try await tool([
            "present", "--queue", queue, "--at", "2026-08-20T09:16:44.120Z", stamped, plain, broken, work.file("missing.json"),
        ])
        #expect(result.status == 1, "an unreadable payload makes the status 1; the others are still handled")
        #expect(
            result.standardOutput == """
                {"payload":"\(stamped)","delivery_id":"\(TestDeliveryID.text(1))","queued":"received","presentation":["banner","list","sound","badge"]}
                {"payload":"\(plain)","delivery_id":null,"queued":"none","presentation":["banner","list","sound","badge"]}

                """)
        #expect(result.standardError.contains("\(plain): not a Carillon notification: no 'carillon' key; no received event"))
        #expect(result.standardError.contains("\(broken): not valid JSON"))
        #expect(result.standardError.contains("missing.json: cannot read"))

        let suppressed = try await tool(
            ["present", "--queue", queue, "--suppress", "-"],
            input: Data(Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(1)).utf8))
        #expect(suppressed.status == 0)
        #expect(
            suppressed.standardOutput
                == #"{"payload":"-","delivery_id":"\#(TestDeliveryID.text(1))","queued":"duplicate","presentation":[]}"# + "\n")
        #expect(try await Self.queued(queue) == [["received", TestDeliveryID.text(1), "2026-08-20T09:16:44.120Z"]])

        for bad in [
            ["present", "--queue", queue], ["present", stamped], ["present", "--queue", queue, "--at", "yesterday", stamped],
            ["present", "--queue", queue, "--suppress=yes", stamped],
        ] {
            let usage = try await tool(bad)
            #expect(usage.status == 64, "\(bad)")
            #expect(usage.standardOutput.isEmpty && usage.standardError.contains("carillon-nse present --help"))
        }
        let help = try await tool(["present", "--help"])
        #expect(help.status == 0 && help.standardOutput.contains("--suppress") && help.standardOutput.contains("presentation"))
    }

    @Test func scanNamesEachBadLineAndQueuesTheRest() async throws {
        let work = TemporaryDirectory("scan")
        defer { work.remove() }
        let queue = work.file("queue")
        func line(_ n: Int, _ date: String) -> String {
            #"{"date":"\#(date)","payload":\#(Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(n)))}"#
        }
        let file = try work.write(
            "delivered.jsonl",
            [
                line(2, "2026-08-20T09:00:02Z"),
                "",
                "not json",
                #"{"date":"2026-08-20T09:00:00","payload":{}}"#,
                line(1, "2026-08-20T11:00:01+02:00"),
                #"{"date":"2026-08-20T09:00:00Z","payload":{"aps":{"alert":"Hi"}}}"#,
            ].joined(separator: "\n"))
        let result = try await tool(["scan", "--queue", queue, file])
        #expect(result.status == 1, "a bad line makes the status 1; the others are still queued")
        #expect(
            result.standardOutput == """
                {"line":1,"delivery_id":"\(TestDeliveryID.text(2))","at":"2026-08-20T09:00:02.000Z","queued":"received"}
                {"line":5,"delivery_id":"\(TestDeliveryID.text(1))","at":"2026-08-20T09:00:01.000Z","queued":"received"}
                {"line":6,"delivery_id":null,"at":"2026-08-20T09:00:00.000Z","queued":"none"}

                """)
        #expect(result.standardError.contains("\(file):3: not valid JSON"))
        #expect(result.standardError.contains("\(file):4: \"date\" \"2026-08-20T09:00:00\" is not an ISO 8601 time"))
        #expect(result.standardError.contains("\(file):6: not a Carillon notification"))
        #expect(
            result.standardError.contains(
                "scanned \(file): 3 notifications: 2 queued, 0 already queued, 1 not stamped, 0 failed; 2 lines skipped"))
        // Queue order follows the delivery dates, not the lines.
        #expect(try await Self.queued(queue).map { $0[1] } == [TestDeliveryID.text(1), TestDeliveryID.text(2)])

        // Standard input, all already queued, and an empty Notification Center: exit 0.
        let again = try await tool(["scan", "--queue", queue, "-"], input: Data(line(1, "2026-08-21T00:00:00Z").utf8))
        #expect(again.status == 0)
        #expect(again.jsonLines.first?["queued"] as? String == "duplicate")
        let empty = try await tool(["scan", "--queue", queue, try work.write("empty.jsonl", "")])
        #expect(empty.status == 0 && empty.standardOutput.isEmpty)

        // Unreadable inputs are named; a file over the limit is not read at all.
        let missing = try await tool(["scan", "--queue", queue, work.file("missing.jsonl")])
        #expect(missing.status == 1 && missing.standardError.contains("missing.jsonl: cannot read"))
        let huge = work.file("huge.jsonl")
        #expect(truncate(try work.write("huge.jsonl", ""), off_t(16 * 1_048_576 + 1)) == 0)
        let tooLarge = try await tool(["scan", "--queue", queue, huge])
        #expect(tooLarge.status == 1 && tooLarge.standardError.contains("huge.jsonl: file is 16777217 bytes, over the 16777216-byte limit"))
        let directory = try await tool(["scan", "--queue", queue, work.path])
        #expect(directory.status == 1)

        for bad in [
            ["scan", "--queue", queue], ["scan", file], ["scan", "--queue", queue, file, file],
            ["scan", "--queue", queue, "--at", "x", file],
        ] {
            #expect(try await tool(bad).status == 64, "\(bad)")
        }
        // A queue that is a file is a usage error (SPEC §8), before anything is read.
        let notADirectory = try work.write("queue-file", "")
        let unwritable = try await tool(["scan", "--queue", notADirectory, file])
        #expect(
            unwritable.status == 64 && unwritable.standardOutput.isEmpty
                && unwritable.standardError.contains("--queue '\(notADirectory)': is a regular file, not a directory"))
        let presentUnwritable = try await tool(["present", "--queue", notADirectory, file])
        #expect(presentUnwritable.status == 64 && presentUnwritable.standardError.contains("is a regular file, not a directory"))

        let help = try await tool(["scan", "--help"])
        #expect(help.status == 0 && help.standardOutput.contains("NOTIFICATIONS"))
    }

    @Test func presentKilledAtAnyMomentLosesAndDoublesNothing() async throws {
        let work = TemporaryDirectory("kill-present")
        defer { work.remove() }
        let queue = work.file("queue")
        let ids = try ReceiptHandOffTests.writeStampedPayloads(300, into: work, subdirectory: "payloads")
        // Kill runs at varied moments, from before the first payload to well into the run. A line printed
        // "received" was printed after its event was durable, so it must be in the queue. `present`
        // queues its payloads in doubling groups (a few tens of fsyncs for 300), so a whole run is short
        // and, on a loaded machine, mostly start-up: the kill time adapts — later after a kill that
        // came before the first line, earlier after one that came after the last, varied in between.
        var printed: Set<String> = []
        var cutMidRun = 0
        var delay = 0.01
        for attempt in 0..<40 {
            let output = work.file("out-\(attempt).jsonl")
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.tool)
            process.arguments = ["present", "--queue", queue, "--at", "2026-08-20T09:16:44.120Z", work.file("payloads")]
            process.standardOutput = handle
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .seconds(attempt == 0 ? 0 : delay))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try handle.close()
            let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
            if !lines.isEmpty && lines.count < ids.count { cutMidRun += 1 }
            delay *= lines.isEmpty ? 1.5 : lines.count >= ids.count ? 0.6 : Double.random(in: 0.7...1.4)
            for line in lines.dropLast() where line.contains(#""queued":"received""#) {
                // The last line may be cut by the kill; every other is whole.
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                printed.insert(try #require(object["delivery_id"] as? String))
            }
            let queued = QueueFiles.receivedIDs(in: queue)
            for id in printed { #expect(queued.contains(id), "printed as queued but not in the queue: \(id)") }
        }
        #expect(cutMidRun > 0, "no kill landed in the middle of a run")
        let final = try await tool(["present", "--queue", queue, "--at", "2026-08-20T09:16:45.000Z", work.file("payloads")])
        #expect(final.status == 0, "\(final.standardError.prefix(500))")
        for line in final.jsonLines {
            let id = line["delivery_id"] as? String ?? ""
            #expect(line["queued"] as? String == (printed.contains(id) ? "duplicate" : line["queued"] as? String))
        }
        let events = try await Self.queued(queue)
        #expect(events.count == ids.count, "one event per payload, none doubled, none lost")
        #expect(Set(events.map { $0[1] }) == Set(ids))
        #expect(work.contents("queue/Quarantine").isEmpty, "no torn event file")
        // Every event queued before the last run keeps the first run's time.
        for event in events where printed.contains(event[1]) { #expect(event[2] == "2026-08-20T09:16:44.120Z") }
    }
}
