import CarillonTestSupport
import Dispatch
import Synchronization
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct ReceiptDrainTests {
    /// A container and a queue in a scratch directory.
    struct Setup {
        let scratch = TemporaryDirectory("receipts")
        var container: String { scratch.file("group") }
        var store: ReceiptStore { ReceiptStore(container: container) }
        let queue: EventQueue

        init() throws {
            queue = try EventQueue(directory: scratch.file("app/queue"))
        }

        func receipt(_ n: Int, at offset: Int64 = 0) -> Receipt {
            Receipt(deliveryID: TestDeliveryID.make(n), receivedAt: ReceiptsFixture.time.adding(.milliseconds(offset)))
        }

        func received(_ n: Int, at offset: Int64 = 0) -> Event {
            Event(type: .received, deliveryID: TestDeliveryID.make(n), at: ReceiptsFixture.time.adding(.milliseconds(offset)))
        }
    }

    @Test func movesReceiptsIntoTheQueueOldestFirst() throws {
        let setup = try Setup()
        defer { setup.scratch.remove() }
        #expect(setup.store.record(TestDeliveryID.make(1), receivedAt: ReceiptsFixture.time.adding(.milliseconds(300))) == .stored)
        #expect(setup.store.record(TestDeliveryID.make(2), receivedAt: ReceiptsFixture.time.adding(.milliseconds(100))) == .stored)
        #expect(setup.store.record(TestDeliveryID.make(3), receivedAt: ReceiptsFixture.time.adding(.milliseconds(200))) == .stored)

        let report = ReceiptDrain.drain(container: setup.container, into: setup.queue)

        let expected = [setup.received(2, at: 100), setup.received(3, at: 200), setup.received(1, at: 300)]
        #expect(report.queued == expected)
        #expect(report.isClean)
        #expect(try setup.queue.pending() == expected)
        #expect(try setup.store.pendingCount() == 0)
        // A second drain finds nothing.
        #expect(ReceiptDrain.drain(container: setup.container, into: setup.queue) == DrainReport())
    }

    @Test func aContainerWithoutReceiptsIsNotAFailure() throws {
        let setup = try Setup()
        defer { setup.scratch.remove() }
        #expect(ReceiptDrain.drain(container: setup.container, into: setup.queue) == DrainReport())
        #expect(!FileSystem.exists(setup.container))
    }

    /// Files in the receipts directory that are not whole receipts, and the reason they are set aside for.
    static let badFiles: [(name: String, contents: String, reason: String)] = [
        ("01937b21-0000-7000-8000-0000000000b1.receipt", "", "empty file"),
        ("01937b21-0000-7000-8000-0000000000b2.receipt", #"{"format":1,"delivery_id":"01937b21-00"#, "truncated"),
        (
            "01937b21-0000-7000-8000-0000000000b3.receipt",
            #"{"format":1,"delivery_id":"01937b21-0000-7000-8000-0000000000b3","received_at":"2026-08-20T09:16:44.120Z"}"#,
            "truncated: no final newline"
        ),
        ("01937b21-0000-7000-8000-0000000000b4.receipt", "\u{1}\u{2}binary\n", "not valid JSON"),
        (
            "01937b21-0000-7000-8000-0000000000b5.receipt",
            #"{"format":2,"delivery_id":"01937b21-0000-7000-8000-0000000000b5","received":1787217404120}"# + "\n",
            "unknown format version 2"
        ),
        (
            "01937b21-0000-7000-8000-0000000000b6.receipt",
            #"{"format":1,"delivery_id":"01937b21-0000-7000-8000-0000000000c6","received_at":"2026-08-20T09:16:44.120Z"}"# + "\n",
            "file name does not match its delivery_id 01937b21-0000-7000-8000-0000000000c6"
        ),
        (
            "hello.receipt",
            #"{"format":1,"delivery_id":"01937b21-0000-7000-8000-0000000000b7","received_at":"2026-08-20T09:16:44.120Z"}"# + "\n",
            "file name does not match"
        ),
        ("notes.txt", "hello\n", "not a receipt file name (expected <delivery-id>.receipt)"),
        (
            "01937B21-0000-7000-8000-0000000000B8.receipt",
            #"{"format":1,"delivery_id":"01937b21-0000-7000-8000-0000000000b8","received_at":"2026-08-20T09:16:44.120Z"}"# + "\n",
            "file name does not match"
        ),
    ]

    @Test func drainsTheGoodAndSetsAsideTheBad() throws {
        let setup = try Setup()
        defer { setup.scratch.remove() }
        for n in 1...3 {
            #expect(setup.store.record(TestDeliveryID.make(n), receivedAt: ReceiptsFixture.time.adding(.milliseconds(Int64(n)))) == .stored)
        }
        for bad in Self.badFiles { ReceiptsFixture.write(bad.contents, to: setup.store.directory + "/" + bad.name) }
        // Not regular files: never opened (a FIFO would block the drain).
        mkfifo(setup.store.directory + "/01937b21-0000-7000-8000-0000000000f1.receipt", 0o600)
        symlink("/etc/passwd", setup.store.directory + "/01937b21-0000-7000-8000-0000000000f2.receipt")
        // An in-progress write is left alone.
        ReceiptsFixture.write("{\"format\":1", to: setup.store.directory + "/.tmp-4242-1-abc")

        let report = ReceiptDrain.drain(container: setup.container, into: setup.queue)

        #expect(report.queued == (1...3).map { setup.received($0, at: Int64($0)) })
        #expect(report.failures == [])
        #expect(report.alreadyQueued == [])
        var expectedReasons = Dictionary(uniqueKeysWithValues: Self.badFiles.map { ($0.name, $0.reason) })
        expectedReasons["01937b21-0000-7000-8000-0000000000f1.receipt"] = "not a regular file"
        expectedReasons["01937b21-0000-7000-8000-0000000000f2.receipt"] = "not a regular file"
        #expect(report.quarantined.count == expectedReasons.count)
        for file in report.quarantined {
            let name = String(file.file.split(separator: "/").last!)
            #expect(file.file == setup.store.directory + "/" + name)
            #expect(file.movedTo == setup.store.quarantineDirectory + "/" + name)
            #expect(FileSystem.exists(file.movedTo))
            #expect(file.reason.contains(expectedReasons[name] ?? "?"), "\(name): \(file.reason)")
        }
        // What is left: the in-progress write, the lock and the quarantine.
        #expect(try FileSystem.contentsOfDirectory(setup.store.directory) == [".lock", ".tmp-4242-1-abc", "Quarantine"])
        #expect(FileSystem.permissions(setup.store.quarantineDirectory) == 0o700)
        // The bad files are kept unchanged for inspection, each with its reason.
        let kept = try FileSystem.readFile(setup.store.quarantineDirectory + "/notes.txt")
        #expect(kept == Array("hello\n".utf8))
        let reason = try FileSystem.readFile(setup.store.quarantineDirectory + "/notes.txt.reason")
        #expect(String(decoding: reason, as: UTF8.self) == "not a receipt file name (expected <delivery-id>.receipt)\n")
    }

    @Test func aSecondBadFileOfTheSameNameIsKeptToo() throws {
        let setup = try Setup()
        defer { setup.scratch.remove() }
        try FileSystem.makeDirectory(setup.store.directory)
        let name = "01937b21-0000-7000-8000-0000000000b1.receipt"
        ReceiptsFixture.write("one", to: setup.store.directory + "/" + name)
        _ = ReceiptDrain.drain(container: setup.container, into: setup.queue)
        ReceiptsFixture.write("two", to: setup.store.directory + "/" + name)
        let report = ReceiptDrain.drain(container: setup.container, into: setup.queue)
        #expect(report.quarantined.map(\.movedTo) == [setup.store.quarantineDirectory + "/" + name + ".1"])
        #expect(try FileSystem.readFile(setup.store.quarantineDirectory + "/" + name) == Array("one".utf8))
        #expect(try FileSystem.readFile(setup.store.quarantineDirectory + "/" + name + ".1") == Array("two".utf8))
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file"))
    func anUnreadableReceiptIsSetAside() throws {
        let setup = try Setup()
        defer { setup.scratch.remove() }
        #expect(setup.store.record(TestDeliveryID.make(1), receivedAt: ReceiptsFixture.time) == .stored)
        chmod(setup.store.path(for: TestDeliveryID.make(1)), 0)
        let report = ReceiptDrain.drain(container: setup.container, into: setup.queue)
        #expect(report.quarantined.map(\.reason) == ["cannot read: Permission denied"])
    }

    @Test func removesTemporaryFilesAbandonedOverAnHourAgo() throws {
        let setup = try Setup()
        defer { setup.scratch.remove() }
        try FileSystem.makeDirectory(setup.store.directory)
        ReceiptsFixture.write("{", to: setup.store.directory + "/.tmp-1-1-old")
        ReceiptsFixture.write("{", to: setup.store.directory + "/.tmp-1-2-new")
        ReceiptsFixture.age(setup.store.directory + "/.tmp-1-1-old", seconds: 3601 + 5)

        let report = ReceiptDrain.drain(container: setup.container, into: setup.queue)
        #expect(report.removedTemporaryFiles == [setup.store.directory + "/.tmp-1-1-old"])
        #expect(FileSystem.exists(setup.store.directory + "/.tmp-1-2-new"))

        // Two hours later, the other one is abandoned too.
        let later = ReceiptDrain.drain(container: setup.container, into: setup.queue, now: Timestamp.now().adding(.milliseconds(7_200_000)))
        #expect(later.removedTemporaryFiles == [setup.store.directory + "/.tmp-1-2-new"])
    }

    /// The app crashed after queueing the event but before removing the receipt: the next drain reads
    /// the receipt again, finds the event queued, and removes the receipt without a second event.
    @Test func aCrashBetweenQueueingAndRemovalMakesNoDuplicate() throws {
        let setup = try Setup()
        defer { setup.scratch.remove() }
        #expect(setup.store.record(TestDeliveryID.make(1), receivedAt: ReceiptsFixture.time) == .stored)
        #expect(setup.store.record(TestDeliveryID.make(2), receivedAt: ReceiptsFixture.time.adding(.milliseconds(1))) == .stored)
        #expect(try setup.queue.enqueue(setup.received(1)))  // the crashed drain's work

        let report = ReceiptDrain.drain(container: setup.container, into: setup.queue)

        #expect(report.queued == [setup.received(2, at: 1)])
        #expect(report.alreadyQueued == [TestDeliveryID.make(1)])
        #expect(report.isClean)
        #expect(try setup.queue.pending() == [setup.received(1), setup.received(2, at: 1)])
        #expect(try setup.store.pendingCount() == 0)
    }

    @Test(.enabled(if: geteuid() != 0, "root writes into read-only directories"))
    func aReceiptWhoseEventCannotBeQueuedIsKept() throws {
        let setup = try Setup()
        defer { setup.scratch.remove() }
        #expect(setup.store.record(TestDeliveryID.make(1), receivedAt: ReceiptsFixture.time) == .stored)
        chmod(setup.queue.directory, 0o500)
        defer { chmod(setup.queue.directory, 0o700) }

        let report = ReceiptDrain.drain(container: setup.container, into: setup.queue)

        #expect(report.queued == [])
        #expect(report.failures.count == 1)
        #expect(
            report.failures.first?.hasPrefix("cannot queue the received event for 01937b21-0000-7000-8000-000000000001 (receipt kept): ")
                == true)
        #expect(FileSystem.exists(setup.store.path(for: TestDeliveryID.make(1))))
    }

    /// Four drains run while four extension threads keep writing receipts, then a final drain: every
    /// receipt becomes exactly one event, and the reports together name each id once as queued.
    @Test func concurrentDrainsWhileExtensionsWrite() throws {
        let setup = try Setup()
        defer { setup.scratch.remove() }
        let writers = 4
        let perWriter = 60
        let done = Atomic<Int>(0)
        let reports = Mutex<[DrainReport]>([])
        DispatchQueue.concurrentPerform(iterations: writers + 4) { worker in
            if worker < writers {
                for n in 0..<perWriter {
                    let id = TestDeliveryID.make(worker * 1000 + n)
                    #expect(setup.store.record(id, receivedAt: ReceiptsFixture.time.adding(.milliseconds(Int64(n)))) == .stored)
                }
                done.add(1, ordering: .sequentiallyConsistent)
            } else {
                repeat {
                    let report = ReceiptDrain.drain(container: setup.container, into: setup.queue)
                    reports.withLock { $0.append(report) }
                } while done.load(ordering: .sequentiallyConsistent) < writers
            }
        }
        let last = ReceiptDrain.drain(container: setup.container, into: setup.queue)
        let all = reports.withLock { $0 } + [last]

        let expectedIDs = Set((0..<writers).flatMap { worker in (0..<perWriter).map { TestDeliveryID.make(worker * 1000 + $0) } })
        let pending = try setup.queue.pending()
        #expect(pending.count == writers * perWriter)
        #expect(Set(pending.map(\.deliveryID)) == expectedIDs)
        #expect(pending.allSatisfy { $0.type == .received })
        let queuedIDs = all.flatMap { $0.queued.map(\.deliveryID) }
        #expect(queuedIDs.count == writers * perWriter)
        #expect(Set(queuedIDs) == expectedIDs)
        #expect(all.allSatisfy { $0.quarantined.isEmpty && $0.failures.isEmpty })
        #expect(try setup.store.pendingCount() == 0)
        #expect(ReceiptsFixture.visibleNames(setup.store.directory) == [])
    }
}
