import CarillonTestSupport
import Foundation
import Testing

/// Receipts written by `process` (the extension) reaching the app's queue through `drain`, with real
/// processes killed at real moments.
@Suite(.timeLimit(.minutes(3))) struct ReceiptHandOffTests {
    /// Writes `count` routed, stamped payloads without an image (fast: no download) and returns their ids.
    static func writeStampedPayloads(_ count: Int, from first: Int = 1, into directory: TemporaryDirectory, subdirectory: String) throws
        -> [String]
    {
        try FileManager.default.createDirectory(atPath: directory.file(subdirectory), withIntermediateDirectories: true)
        var ids: [String] = []
        for number in first..<(first + count) {
            let id = TestDeliveryID.text(number)
            try directory.write("\(subdirectory)/\(id).json", Payloads.routed(image: nil, deliveryID: id))
            ids.append(id)
        }
        return ids
    }

    /// Writes `count` whole receipts (format 1, as the extension writes them) straight into the
    /// container's receipt directory and returns their ids: a quick refill between drains.
    static func writeReceipts(_ count: Int, from first: Int, into directory: String) throws -> [String] {
        var ids: [String] = []
        for number in first..<(first + count) {
            let id = TestDeliveryID.text(number)
            let record = #"{"format":1,"delivery_id":"\#(id)","received_at":"2026-08-20T09:16:44.120Z"}"# + "\n"
            try record.write(toFile: "\(directory)/\(id).receipt", atomically: true, encoding: .utf8)
            ids.append(id)
        }
        return ids
    }

    static func deliveryIDs(_ result: Command.Result) -> [String] {
        result.jsonLines.compactMap { $0["delivery_id"] as? String }
    }

    @Test func aProcessKilledMidDownloadLeavesAReceiptThatBecomesOneEvent() async throws {
        let work = TemporaryDirectory("kill-download")
        defer { work.remove() }
        let server = TestServer.shared
        let id = TestDeliveryID.text(7)
        let payload = try work.write("stall.json", Payloads.routed(image: server.url("/stall/headers?seconds=60"), deliveryID: id))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.tool)
        process.arguments = [
            "process", "--ca-file", server.caFile, "--container", work.file("container"), "--attachments", work.file("att"), payload,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The receipt is written before the download starts; once it is there, let the download get
        // under way (the stall route holds it for 60 s, past the 20 s budget) and kill the process.
        let receipt = work.file("container/CarillonReceipts/\(id).receipt")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: receipt) && Date() < deadline {
            try await Task.sleep(for: .seconds(0.01))
        }
        try await Task.sleep(for: .seconds(0.3))
        #expect(process.isRunning, "the download should still be stalled")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let drain = try await tool(["drain", "--container", work.file("container"), "--queue", work.file("queue")])
        #expect(drain.status == 0)
        #expect(drain.jsonLines.count == 1)
        #expect(drain.jsonLines.first?["type"] as? String == "received")
        #expect(drain.jsonLines.first?["delivery_id"] as? String == id)
        // A second drain finds nothing more; the batch holds the one event.
        #expect(try await tool(["drain", "--container", work.file("container"), "--queue", work.file("queue")]).jsonLines.isEmpty)
        let batches = try await tool(["batches", "--queue", work.file("queue")])
        #expect(batches.standardOutput.components(separatedBy: id).count == 2)
        // The killed process left no partial attachment behind under an attachment's name.
        #expect(work.contents("att").allSatisfy { $0.hasPrefix(".download-") })
    }

    @Test func concurrentExtensionsAndDrainsLoseAndDoubleNothing() async throws {
        let work = TemporaryDirectory("concurrent")
        defer { work.remove() }
        let container = work.file("container")
        let queue = work.file("queue")
        // Three extension runs of 150 payloads each, 8 at a time, all into one container...
        var allIDs: [String] = []
        for run in 0..<3 {
            allIDs += try Self.writeStampedPayloads(150, from: run * 150 + 1, into: work, subdirectory: "run\(run)")
        }
        let group = DispatchGroup()
        let results = ResultsBox()
        for run in 0..<3 {
            DispatchQueue.global().async(group: group) {
                let result = try? Command.tool([
                    "process", "--jobs", "8", "--container", container, "--attachments", work.file("att"), work.file("run\(run)"),
                ])
                results.append(result)
            }
        }
        // ...while the app drains in a loop.
        let stop = AtomicFlag()
        let drained = ResultsBox()
        let drainer = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: drainer) {
                while !stop.isSet {
                    drained.append(try? Command.tool(["drain", "--container", container, "--queue", queue]))
                }
            }
        }
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
        stop.set()
        await withCheckedContinuation { continuation in drainer.notify(queue: .global()) { continuation.resume() } }
        drained.append(try await tool(["drain", "--container", container, "--queue", queue]))

        for result in results.all {
            #expect(result?.status == 0)
            #expect(result?.jsonLines.allSatisfy { $0["receipt"] as? String == "stored" } == true)
        }
        let events = drained.all.flatMap { $0.map(Self.deliveryIDs) ?? [] }
        #expect(events.count == allIDs.count, "every receipt became exactly one event across all drains")
        #expect(Set(events) == Set(allIDs))
        #expect(drained.all.allSatisfy { $0?.status == 0 })
        // The queue itself holds one received event per delivery id.
        let bodies = try await tool(["batches", "--queue", queue]).standardOutput
        for id in allIDs { #expect(bodies.components(separatedBy: id).count == 2, "\(id)") }
        #expect(work.contents("container/CarillonReceipts").filter { $0.hasSuffix(".receipt") }.isEmpty)
    }

    @Test func aDrainKilledAtAnyMomentCausesNoDuplicate() async throws {
        let work = TemporaryDirectory("kill-drain")
        defer { work.remove() }
        let container = work.file("container")
        let queue = work.file("queue")
        var ids = try Self.writeStampedPayloads(300, into: work, subdirectory: "payloads")
        #expect(try await tool(["process", "--jobs", "4", "--container", container, work.file("payloads")]).status == 0)

        // Kill drains at varied moments until one has died in the window that matters: its event queued,
        // its receipt not yet removed (a pending receipt whose received event is in a queue file). A
        // drain queues all its receipts in one file, so the window is a few milliseconds. The kill time
        // adapts: later after a kill that came before the drain queued anything, earlier (with fresh
        // receipts: new ids, counted in `ids`) after a drain that finished, varied a little each time.
        var windowHit = false
        var refills = 0
        var delay = 0.02
        for _ in 0..<200 where !windowHit {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.tool)
            process.arguments = ["drain", "--container", container, "--queue", queue]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .seconds(delay * Double.random(in: 0.9...1.1)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let pending = work.contents("container/CarillonReceipts").filter { $0.hasSuffix(".receipt") }
            let queued = QueueFiles.receivedIDs(in: queue)
            windowHit = pending.contains { queued.contains(String($0.dropLast(".receipt".count))) }
            if !windowHit && !pending.isEmpty { delay *= 1.1 }
            if pending.isEmpty && !windowHit {
                delay *= 0.8
                refills += 1
                ids += try Self.writeReceipts(300, from: 1000 * refills + 1, into: work.file("container/CarillonReceipts"))
            }
        }
        #expect(windowHit, "no kill landed between queueing an event and removing its receipt")
        let final = try await tool(["drain", "--container", container, "--queue", queue])
        #expect(final.status == 0)
        let batches = try await tool(["batches", "--queue", queue])
        let queued = batches.standardOutput.split(separator: "\n").flatMap { line -> [String] in
            guard let body = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let events = body["events"] as? [[String: Any]]
            else { return [] }
            return events.compactMap { $0["delivery_id"] as? String }
        }
        #expect(queued.count == ids.count, "one event per receipt, none doubled, none lost")
        #expect(Set(queued) == Set(ids))
        #expect(work.contents("container/CarillonReceipts").filter { $0.hasSuffix(".receipt") }.isEmpty)
    }

    @Test func badReceiptFilesAreSetAsideAndTheRestDrained() async throws {
        let work = TemporaryDirectory("bad-receipts")
        defer { work.remove() }
        let container = work.file("container")
        let ids = try Self.writeStampedPayloads(3, into: work, subdirectory: "payloads")
        #expect(try await tool(["process", "--container", container, work.file("payloads")]).status == 0)
        let receipts = work.file("container/CarillonReceipts")
        let good = try String(contentsOfFile: "\(receipts)/\(ids[0]).receipt", encoding: .utf8)
        let bad: [(String, String)] = [
            ("corrupt", "{not json"),
            ("truncated", String(good.prefix(good.count / 2))),
            ("empty", ""),
            ("future", good.replacingOccurrences(of: #""format":1"#, with: #""format":2"#)),
        ]
        for (index, (_, text)) in bad.enumerated() {
            try text.write(toFile: "\(receipts)/\(TestDeliveryID.text(900 + index)).receipt", atomically: false, encoding: .utf8)
        }
        let drain = try await tool(["drain", "--container", container, "--queue", work.file("queue")])
        #expect(drain.status == 1, "set-aside files are reported through the exit status")
        #expect(Set(Self.deliveryIDs(drain)) == Set(ids))
        #expect(drain.standardError.split(separator: "\n").filter { $0.contains("set aside as") }.count == bad.count)
        #expect(work.contents("container/CarillonReceipts/Quarantine").count >= bad.count)
        #expect(work.contents("container/CarillonReceipts").filter { $0.hasSuffix(".receipt") }.isEmpty)
    }

    @Test func theContainerHoldsAtMostAThousandReceipts() async throws {
        let work = TemporaryDirectory("bound")
        defer { work.remove() }
        let ids = try Self.writeStampedPayloads(1003, into: work, subdirectory: "payloads")
        let result = try await tool(["process", "--jobs", "8", "--container", work.file("container"), work.file("payloads")])
        #expect(result.status == 0)
        let receipts = result.jsonLines.map { $0["receipt"] as? String }
        #expect(receipts.filter { $0 == "stored" }.count == 1000)
        #expect(receipts.filter { $0 == "failed" }.count == 3)
        #expect(
            result.jsonLines.filter { ($0["warnings"] as? [String])?.contains { $0.contains("1000 pending receipts") } == true }.count == 3)
        #expect(work.contents("container/CarillonReceipts").filter { $0.hasSuffix(".receipt") }.count == 1000)

        // Draining makes room again.
        let drain = try await tool(["drain", "--container", work.file("container"), "--queue", work.file("queue")])
        #expect(drain.jsonLines.count == 1000)
        let batches = try await tool(["batches", "--queue", work.file("queue")])
        #expect(batches.standardOutput.split(separator: "\n").count == 10)
        _ = ids
    }

    @Test func twoHundredFiftyEventsComeOutAsBatchesOf100_100_50InQueueOrder() async throws {
        let work = TemporaryDirectory("batches")
        defer { work.remove() }
        let ids = try Self.writeStampedPayloads(250, into: work, subdirectory: "payloads")
        let open = try await tool(["open", "--queue", work.file("queue"), "--at", "2026-08-20T09:16:44.120Z", work.file("payloads")])
        #expect(open.status == 0)
        #expect(open.jsonLines.count == 250)
        let batches = try await tool(["batches", "--queue", work.file("queue")])
        #expect(batches.status == 0)
        let bodies = batches.standardOutput.split(separator: "\n").map(String.init)
        #expect(bodies.count == 3)
        var seen: [String] = []
        for (body, size) in zip(bodies, [100, 100, 50]) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            let events = try #require(object["events"] as? [[String: Any]])
            #expect(events.count == size)
            #expect(body.hasPrefix(#"{"events":[{"type":"opened","delivery_id":""#))
            for event in events {
                #expect(event["type"] as? String == "opened")
                #expect(event["at"] as? String == "2026-08-20T09:16:44.120Z")
                seen.append(event["delivery_id"] as? String ?? "")
            }
        }
        // The directory lists the payloads sorted, so queue order is delivery-id order here.
        #expect(seen == ids)
        // Opening again changes nothing: the first open of a delivery wins.
        let again = try await tool(["open", "--queue", work.file("queue"), work.file("payloads/\(ids[0]).json")])
        #expect(again.jsonLines.isEmpty)
        #expect(try await tool(["batches", "--queue", work.file("queue")]).standardOutput == batches.standardOutput)
    }
}
