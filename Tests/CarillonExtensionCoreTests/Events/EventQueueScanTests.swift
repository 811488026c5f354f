import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A queue of real files in both formats: old format-1 files read with the new ones, one event per
/// (type, delivery id) across them, and damaged format-2 files set aside without losing their good events.
@Suite struct EventQueueScanTests {
    static func received(_ n: Int) -> Event { EventQueueTests.received(n, at: Int64(n)) }

    static func writeOld(_ n: Int, sequence: Int64, in queue: EventQueue) throws {
        let record = QueuedEvent(event: Self.received(n), sequence: sequence)
        _ = try FileSystem.publishAtomically(
            record.encoded(), to: queue.directory + "/" + QueuedEvent.fileName(for: .received, record.event.deliveryID))
    }

    static func writeNew(_ events: [(Int, Int64)], in queue: EventQueue, name: String = QueuedEventFile.newFileName()) throws {
        let records = events.map { QueuedEvent(event: Self.received($0.0), sequence: $0.1) }
        _ = try FileSystem.publishAtomically(QueuedEventFile.encode(records), to: queue.directory + "/" + name)
    }

    static func files(_ queue: EventQueue, _ suffix: String) throws -> [String] {
        try FileSystem.contentsOfDirectory(queue.directory).filter { $0.hasSuffix(suffix) }
    }

    @Test func anOldQueueAndNewFilesAreReadInOneOrderWithOneEventEach() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        try Self.writeOld(1, sequence: 1, in: queue)
        try Self.writeOld(3, sequence: 3, in: queue)
        try Self.writeNew([(2, 2), (4, 4)], in: queue)
        #expect(try queue.pending() == [1, 2, 3, 4].map(Self.received))

        // Already queued in either format: kept as it is; a new one goes last, in a format-2 file.
        let results = queue.enqueue(contentsOf: [
            Event(type: .received, deliveryID: TestDeliveryID.make(1), at: .now()), Self.received(4), Self.received(5),
        ])
        #expect(results.map { try? $0.get() } == [false, false, true])
        #expect(try queue.pending() == [1, 2, 3, 4, 5].map(Self.received))
        #expect(try Self.files(queue, ".event").count == 2, "old files are never rewritten")
        #expect(try Self.files(queue, ".events").count == 2)
        #expect(queue.contains(.received, TestDeliveryID.make(1)) && queue.contains(.received, TestDeliveryID.make(5)))

        // Removal works in both formats.
        try queue.remove([Self.received(1), Self.received(2), Self.received(5)])
        #expect(try queue.pending() == [3, 4].map(Self.received))
        #expect(try Self.files(queue, ".event").count == 1)
    }

    @Test func aDrainOfAThousandIsOneFile() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let events = (1...1000).map(Self.received)
        #expect(queue.enqueue(contentsOf: events).allSatisfy { (try? $0.get()) == true })
        #expect(try Self.files(queue, ".events").count == 1)
        // Into a queue already holding them and more: nothing added, no new file.
        #expect(queue.enqueue(contentsOf: events).allSatisfy { (try? $0.get()) == false })
        #expect(try Self.files(queue, ".events").count == 1)
        #expect(try queue.pending() == events)
    }

    /// A truncated last line and a bad line in the middle: the file is set aside whole and unchanged,
    /// its good events are queued again first, under a new file, with their sequence numbers.
    @Test func aDamagedFileIsSetAsideAndItsGoodEventsStayQueued() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        try Self.writeNew([(1, 1)], in: queue)
        let good = QueuedEventFile.encode([2, 3, 4, 5].map { QueuedEvent(event: Self.received($0), sequence: Int64($0)) })
        var lines = String(decoding: good, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[2] = "{\"format\":2,\"sequence\":3,\"type\":\"recei"  // a bad line in the middle
        let damaged = lines[0...4].joined(separator: "\n").dropLast(10)  // and the last line cut short
        ReceiptsFixture.write(String(damaged), to: queue.directory + "/batch-damaged.events")

        // Before any repair, an enqueue counts the good events as queued.
        #expect(try !queue.enqueue(Self.received(2)))

        let contents = try queue.contents()
        #expect(contents.events == [1, 2, 4].map(Self.received))
        #expect(contents.quarantined.count == 1)
        let reason = contents.quarantined.first?.reason ?? ""
        #expect(
            reason.contains("line 3:") && reason.contains("line 5: truncated") && reason.contains("its 2 readable events stay queued"),
            "\(reason)")
        #expect(try FileSystem.readFile(queue.quarantineDirectory + "/batch-damaged.events") == Array(damaged.utf8), "set aside unchanged")
        #expect(!FileSystem.exists(queue.directory + "/batch-damaged.events"))
        #expect(try Self.files(queue, ".events").count == 2)
        // Read again: nothing more set aside, the same events.
        let again = try queue.contents()
        #expect(again.events == contents.events && again.quarantined.isEmpty)
    }

    /// The state a crash leaves between re-queueing a damaged file's good events and moving it: both
    /// files. Read as one copy; the repair only moves the damaged file.
    @Test func aRepairInterruptedByACrashDoublesNothing() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        try Self.writeNew([(1, 1), (2, 2)], in: queue)
        let whole = String(
            decoding: QueuedEventFile.encode([1, 2].map { QueuedEvent(event: Self.received($0), sequence: Int64($0)) }), as: UTF8.self)
        ReceiptsFixture.write(whole + "{oops\n", to: queue.directory + "/batch-damaged.events")
        let contents = try queue.contents()
        #expect(contents.events == [1, 2].map(Self.received))
        #expect(contents.quarantined.count == 1)
        #expect(try Self.files(queue, ".events").count == 1, "no new file: its good events were all queued")
    }

    /// A queue whose numbers run out is renumbered into new files, in order; the state a crash leaves
    /// halfway (old files and the renumbered copy) reads as the renumbered queue.
    @Test func renumberingKeepsTheOrderAcrossFormatsAndCrashes() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let top = EventQueue.maximumSequence
        try Self.writeOld(1, sequence: top - 3, in: queue)
        try Self.writeNew([(2, top - 2), (3, top - 1)], in: queue)
        let report = queue.enqueueReporting(contentsOf: [Self.received(4), Self.received(5)])
        #expect(report.results.allSatisfy { (try? $0.get()) == true })
        #expect(report.warnings.contains { $0.contains("renumbered 1…3") }, "\(report.warnings)")
        #expect(try queue.pending() == [1, 2, 3, 4, 5].map(Self.received))
        #expect(try Self.files(queue, ".event").isEmpty)

        // Halfway through a renumbering: the old copies (high numbers) beside the new ones.
        try Self.writeNew([(1, top - 9), (2, top - 8)], in: queue)
        #expect(try queue.pending() == [1, 2, 3, 4, 5].map(Self.received))
        #expect(queue.enqueue(contentsOf: [Self.received(2)]).allSatisfy { (try? $0.get()) == false })
    }
}
