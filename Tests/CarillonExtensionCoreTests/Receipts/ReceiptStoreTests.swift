import CarillonTestSupport
import Dispatch
import Synchronization
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct ReceiptStoreTests {
    @Test func storesOneWholeReceiptWithPrivateModes() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let container = scratch.file("group")
        let store = ReceiptStore(container: container)
        let id = TestDeliveryID.make(1)

        #expect(store.record(id, receivedAt: ReceiptsFixture.time) == .stored)

        #expect(store.directory == container + "/CarillonReceipts")
        #expect(FileSystem.permissions(store.directory) == 0o700)
        #expect(FileSystem.permissions(store.path(for: id)) == 0o600)
        #expect(FileSystem.permissions(store.directory + "/.lock") == 0o600)
        #expect(FileSystem.size(store.directory + "/.lock") == 0)
        // Only the receipt and the lock: no temporary file left behind.
        #expect(try FileSystem.contentsOfDirectory(store.directory) == [".lock", "01937b21-0000-7000-8000-000000000001.receipt"])
        let bytes = try FileSystem.readFile(store.path(for: id))
        #expect(try Receipt.decode(bytes, fileName: Receipt.fileName(for: id)) == Receipt(deliveryID: id, receivedAt: ReceiptsFixture.time))
        #expect(try store.pendingCount() == 1)
    }

    @Test func theFirstReceiptWins() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = ReceiptStore(container: scratch.path)
        let id = TestDeliveryID.make(2)
        let later = ReceiptsFixture.time.adding(.milliseconds(5000))

        #expect(store.record(id, receivedAt: ReceiptsFixture.time) == .stored)
        #expect(store.record(id, receivedAt: later) == .duplicate)

        let kept = try Receipt.decode(try FileSystem.readFile(store.path(for: id)))
        #expect(kept.receivedAt == ReceiptsFixture.time)
    }

    @Test func racingWritersOfOneIDStoreExactlyOnce() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = ReceiptStore(container: scratch.path)
        let stored = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let result = store.record(TestDeliveryID.make(3), receivedAt: Timestamp(millisecondsSinceEpoch: Int64(thread)))
            if result == .stored { stored.add(1, ordering: .relaxed) }
            #expect(result == .stored || result == .duplicate)
        }
        #expect(stored.load(ordering: .relaxed) == 1)
        #expect(ReceiptsFixture.visibleNames(store.directory) == ["01937b21-0000-7000-8000-000000000003.receipt"])
    }

    /// Sixteen threads storing at once share rounds of the group commit: each gets its own result, every
    /// receipt is there whole under its name, and no temporary file is left.
    @Test func receiptsStoredAtOnceAreEachStoredWhole() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = ReceiptStore(container: scratch.path)
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            for n in 0..<8 {
                let id = TestDeliveryID.make(thread * 100 + n)
                #expect(store.record(id, receivedAt: Timestamp(millisecondsSinceEpoch: Int64(thread * 100 + n))) == .stored)
            }
        }
        #expect(try store.pendingCount() == 128)
        #expect(ReceiptsFixture.visibleNames(store.directory).count == 128)
        #expect(try FileSystem.contentsOfDirectory(store.directory).filter { $0.hasPrefix(".tmp-") }.isEmpty)
        for thread in 0..<16 {
            for n in 0..<8 {
                let id = TestDeliveryID.make(thread * 100 + n)
                let receipt = try Receipt.decode(try FileSystem.readFile(store.path(for: id)), fileName: Receipt.fileName(for: id))
                #expect(receipt.receivedAt == Timestamp(millisecondsSinceEpoch: Int64(thread * 100 + n)))
            }
        }
    }

    /// Fills the receipts directory with `count` pending receipts (ids 100_000...), quickly.
    static func prefill(_ store: ReceiptStore, count: Int) throws {
        try FileSystem.makeDirectory(store.directory)
        for n in 0..<count {
            let receipt = Receipt(deliveryID: TestDeliveryID.make(100_000 + n), receivedAt: ReceiptsFixture.time)
            ReceiptsFixture.write(receipt.encoded(), to: store.path(for: receipt.deliveryID))
        }
    }

    @Test func dropsNewReceiptsWhenAThousandArePending() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = ReceiptStore(container: scratch.path)
        try Self.prefill(store, count: 999)
        // Files that are not pending receipts do not count.
        ReceiptsFixture.write("x", to: store.directory + "/.tmp-123-1-abc")
        try FileSystem.makeDirectory(store.quarantineDirectory)

        #expect(store.record(TestDeliveryID.make(1), receivedAt: ReceiptsFixture.time) == .stored)
        #expect(try store.pendingCount() == 1000)

        let result = store.record(TestDeliveryID.make(2), receivedAt: ReceiptsFixture.time)
        #expect(
            result
                == .dropped(
                    "container already holds 1000 pending receipts; receipt for 01937b21-0000-7000-8000-000000000002 dropped "
                        + "(the app has not drained them yet)"))
        #expect(result.code == "failed")
        #expect(!FileSystem.exists(store.path(for: TestDeliveryID.make(2))))
        // A repeat of a pending receipt is still a duplicate, not a drop.
        #expect(store.record(TestDeliveryID.make(1), receivedAt: ReceiptsFixture.time) == .duplicate)
        #expect(try store.pendingCount() == 1000)

        // Once the app drains one, there is room again.
        try FileSystem.removeFile(store.path(for: TestDeliveryID.make(100_000)))
        #expect(store.record(TestDeliveryID.make(2), receivedAt: ReceiptsFixture.time) == .stored)
    }

    @Test func eightThreadsRacingForTheLastSlotsFillExactlyAThousand() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = ReceiptStore(container: scratch.path)
        try Self.prefill(store, count: 990)
        let stored = Atomic<Int>(0)
        let dropped = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for n in 0..<10 {
                switch store.record(TestDeliveryID.make(thread * 100 + n), receivedAt: ReceiptsFixture.time) {
                case .stored: stored.add(1, ordering: .relaxed)
                case .dropped: dropped.add(1, ordering: .relaxed)
                case let other: Issue.record("unexpected \(other)")
                }
            }
        }
        #expect(stored.load(ordering: .relaxed) == 10)
        #expect(dropped.load(ordering: .relaxed) == 70)
        #expect(try store.pendingCount() == 1000)
        #expect(ReceiptsFixture.visibleNames(store.directory).count == 1000)
    }

    @Test func reportsAReceiptThatCannotBeWritten() {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        // The container path is a file: the receipts directory cannot be made.
        ReceiptsFixture.write("not a directory", to: scratch.file("group"))
        let result = ReceiptStore(container: scratch.file("group")).record(TestDeliveryID.make(4), receivedAt: ReceiptsFixture.time)
        guard case .failed(let message) = result else {
            Issue.record("expected failed, got \(result)")
            return
        }
        #expect(message.hasPrefix("cannot store the receipt for 01937b21-0000-7000-8000-000000000004: "))
        #expect(message.contains(scratch.file("group")))
        #expect(result.code == "failed")
    }

    @Test func noDirectoryMeansNothingPending() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        #expect(try ReceiptStore(container: scratch.file("absent")).pendingCount() == 0)
    }
}
