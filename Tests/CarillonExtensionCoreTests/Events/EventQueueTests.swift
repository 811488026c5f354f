import CarillonTestSupport
import Dispatch
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct EventQueueTests {
    static func received(_ n: Int, at offset: Int64 = 0) -> Event {
        Event(type: .received, deliveryID: TestDeliveryID.make(n), at: ReceiptsFixture.time.adding(.milliseconds(offset)))
    }

    @Test func keepsOneEventPerTypeAndDelivery() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let received = Self.received(1)
        let opened = Event(type: .opened, deliveryID: TestDeliveryID.make(1), at: ReceiptsFixture.time.adding(.milliseconds(9)))

        #expect(try queue.enqueue(received))
        #expect(try !queue.enqueue(Self.received(1, at: 5)))
        #expect(try queue.enqueue(opened))
        #expect(try queue.pending() == [received, opened])
        #expect(queue.contains(.received, TestDeliveryID.make(1)))
        #expect(!queue.contains(.received, TestDeliveryID.make(2)))
    }

    @Test func writesDocumentedFilesWithPrivateModes() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("app/queue"))
        _ = try queue.enqueue(Self.received(7))
        _ = try queue.enqueue(Event(type: .opened, deliveryID: TestDeliveryID.make(7), at: ReceiptsFixture.time))

        #expect(FileSystem.permissions(queue.directory) == 0o700)
        let names = try FileSystem.contentsOfDirectory(queue.directory)
        let files = names.filter { $0.hasSuffix(".events") }
        #expect(names.count == 4 && names.starts(with: [".lock", ".sequence"]), "\(names)")
        #expect(files.count == 2 && files.allSatisfy { $0.hasPrefix("batch-") }, "one file per enqueue: \(names)")
        for name in names {
            #expect(FileSystem.permissions(queue.directory + "/" + name) == 0o600, "\(name)")
        }
        let texts = try files.map { String(decoding: try FileSystem.readFile(queue.directory + "/" + $0), as: UTF8.self) }.sorted()
        #expect(
            texts == [
                #"{"format":2,"events":1}"# + "\n"
                    + #"{"format":2,"sequence":1,"type":"received","delivery_id":"01937b21-0000-7000-8000-000000000007","at":"2026-08-20T09:16:44.120Z"}"#
                    + "\n",
                #"{"format":2,"events":1}"# + "\n"
                    + #"{"format":2,"sequence":2,"type":"opened","delivery_id":"01937b21-0000-7000-8000-000000000007","at":"2026-08-20T09:16:44.120Z"}"#
                    + "\n",
            ])
        let counter = try FileSystem.readFile(queue.directory + "/.sequence")
        #expect(String(decoding: counter, as: UTF8.self) == #"{"format":1,"next":3}"# + "\n")
    }

    @Test func queueOrderSurvivesReopeningAndALostCounter() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let path = scratch.file("queue")
        // Queue order is enqueue order, not time order or id order.
        let events = [Self.received(9, at: 50), Self.received(3, at: 10), Self.received(5, at: 30)]
        for event in events { _ = try EventQueue(directory: path).enqueue(event) }
        #expect(try EventQueue(directory: path).pending() == events)

        // Without the counter the queue continues after the highest queued number.
        try FileSystem.removeFile(path + "/.sequence")
        _ = try EventQueue(directory: path).enqueue(Self.received(1))
        #expect(try EventQueue(directory: path).pending() == events + [Self.received(1)])

        // A corrupt counter is recovered the same way.
        ReceiptsFixture.write("{\"format\":1,\"next\":", to: path + "/.sequence")
        _ = try EventQueue(directory: path).enqueue(Self.received(2))
        #expect(try EventQueue(directory: path).pending() == events + [Self.received(1), Self.received(2)])
    }

    @Test func enqueueingSeveralAtOnceReportsEachAndDuplicatesInside() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        _ = try queue.enqueue(Self.received(2))
        let results = queue.enqueue(contentsOf: [Self.received(1), Self.received(2), Self.received(3), Self.received(1, at: 1)])
        #expect(results.map { try? $0.get() } == [true, false, true, false])
        #expect(try queue.pending() == [Self.received(2), Self.received(1), Self.received(3)])
        #expect(queue.enqueue(contentsOf: []).isEmpty)
    }

    /// Event files that are not whole format-1 events, and words of the reason.
    static let corruptEventFiles: [(String, String, String)] = [
        ("received-01937b21-0000-7000-8000-000000000010.event", "", "empty file"),
        ("received-01937b21-0000-7000-8000-000000000011.event", #"{"format":1,"sequence":4,"type":"rec"#, "truncated"),
        ("received-01937b21-0000-7000-8000-000000000012.event", #"{"format":7,"sequence":4}"# + "\n", "unknown format version 7"),
        (
            "received-01937b21-0000-7000-8000-000000000013.event",
            #"{"format":1,"sequence":4,"type":"clicked","delivery_id":"01937b21-0000-7000-8000-000000000013","at":"2026-08-20T09:16:44.120Z"}"#
                + "\n",
            #""type" "clicked" is neither"#
        ),
        (
            "opened-01937b21-0000-7000-8000-000000000014.event",
            #"{"format":1,"sequence":4,"type":"received","delivery_id":"01937b21-0000-7000-8000-000000000014","at":"2026-08-20T09:16:44.120Z"}"#
                + "\n",
            "file name does not match"
        ),
        (
            "received-01937b21-0000-7000-8000-000000000015.event",
            #"{"format":1,"sequence":-4,"type":"received","delivery_id":"01937b21-0000-7000-8000-000000000015","at":"2026-08-20T09:16:44.120Z"}"#
                + "\n",
            #""sequence" -4 is not a non-negative integer"#
        ),
    ]

    @Test(arguments: corruptEventFiles)
    func setsAsideACorruptEventFileAndReadsTheRest(name: String, contents: String, reason: String) throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        _ = try queue.enqueue(Self.received(1))
        ReceiptsFixture.write(contents, to: queue.directory + "/" + name)
        _ = try queue.enqueue(Self.received(2))

        let first = try queue.contents()
        #expect(first.events == [Self.received(1), Self.received(2)])
        #expect(first.quarantined.count == 1)
        #expect(first.quarantined.first?.file == queue.directory + "/" + name)
        #expect(first.quarantined.first?.movedTo == queue.quarantineDirectory + "/" + name)
        #expect(first.quarantined.first?.reason.contains(reason) == true, "\(first.quarantined)")
        #expect(!FileSystem.exists(queue.directory + "/" + name))
        let reasonFile = try FileSystem.readFile(queue.quarantineDirectory + "/" + name + ".reason")
        #expect(String(decoding: reasonFile, as: UTF8.self) == (first.quarantined.first?.reason ?? "") + "\n")
        // Reported once: the next read is clean.
        #expect(try queue.contents() == EventQueue.Contents(events: first.events, quarantined: []))
    }

    @Test func aCorruptFileInTheWayOfAnEventIsReplaced() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        ReceiptsFixture.write("garbage", to: queue.directory + "/received-01937b21-0000-7000-8000-000000000001.event")
        #expect(try queue.enqueue(Self.received(1)))
        #expect(try queue.pending() == [Self.received(1)])
        #expect(FileSystem.exists(queue.quarantineDirectory + "/received-01937b21-0000-7000-8000-000000000001.event"))
    }

    @Test func threadsEnqueueingTheSameEventsKeepOneOfEach() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let events = (0..<40).map { Self.received($0, at: Int64($0)) }
        DispatchQueue.concurrentPerform(iterations: 6) { thread in
            // Each thread walks the list from a different starting point.
            for index in 0..<events.count {
                _ = try? queue.enqueue(events[(index + thread * 7) % events.count])
            }
        }
        let pending = try queue.pending()
        #expect(pending.count == 40)
        #expect(Set(pending) == Set(events))
        #expect(ReceiptsFixture.visibleNames(queue.directory).count == 40)
    }

    @Test func batchesHoldAtMostAHundredInQueueOrder() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let events = (1...250).map { n in
            Event(
                type: n % 5 == 0 ? .opened : .received, deliveryID: TestDeliveryID.make(n),
                at: ReceiptsFixture.time.adding(.milliseconds(Int64(n))))
        }
        #expect(queue.enqueue(contentsOf: events).allSatisfy { (try? $0.get()) == true })

        let batches = try queue.batches()
        #expect(batches.map(\.events.count) == [100, 100, 50])
        #expect(batches.flatMap(\.events) == events)
        #expect(try queue.batches(maximumEvents: 1000).map(\.events.count) == [100, 100, 50])
        #expect(try queue.batches(maximumEvents: 0).count == 250)
        #expect(try queue.batches(maximumEvents: 120).map(\.events.count) == [100, 100, 50])
    }

    @Test func requestBodyIsTheAPIsExactFormat() {
        let batch = EventBatch(events: [
            Event(type: .received, deliveryID: DeliveryID("01937b21-0000-7000-8000-000000000000")!, at: ReceiptsFixture.time),
            Event(type: .opened, deliveryID: DeliveryID("01937B21-0000-7000-8000-0000000000FF")!, at: Timestamp(millisecondsSinceEpoch: 0)),
        ])
        #expect(
            batch.requestBody
                == #"{"events":[{"type":"received","delivery_id":"01937b21-0000-7000-8000-000000000000","at":"2026-08-20T09:16:44.120Z"},{"type":"opened","delivery_id":"01937b21-0000-7000-8000-0000000000ff","at":"1970-01-01T00:00:00.000Z"}]}"#
        )
        #expect(EventBatch.batches(of: []).isEmpty)
    }

    @Test func removesAcceptedEvents() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let events = (1...3).map { Self.received($0) }
        _ = queue.enqueue(contentsOf: events)
        try queue.remove(Array(events[0..<2]) + [Self.received(99)])
        #expect(try queue.pending() == [events[2]])
        // The sequence keeps counting: a later event still comes after the remaining one.
        _ = try queue.enqueue(Self.received(1, at: 1))
        #expect(try queue.pending() == [events[2], Self.received(1, at: 1)])
    }

    @Test func removesTemporaryFilesAbandonedOverAnHourAgo() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        ReceiptsFixture.write("partial", to: queue.directory + "/.tmp-1-1-old")
        ReceiptsFixture.write("partial", to: queue.directory + "/.tmp-1-2-new")
        ReceiptsFixture.age(queue.directory + "/.tmp-1-1-old", seconds: 3700)
        #expect(try queue.pending().isEmpty)
        #expect(!FileSystem.exists(queue.directory + "/.tmp-1-1-old"))
        #expect(FileSystem.exists(queue.directory + "/.tmp-1-2-new"))
    }

    @Test func refusesADirectoryThatCannotBeCreated() {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        ReceiptsFixture.write("file", to: scratch.file("queue"))
        #expect(throws: FileSystemError.self) { _ = try EventQueue(directory: scratch.file("queue")) }
    }
}
