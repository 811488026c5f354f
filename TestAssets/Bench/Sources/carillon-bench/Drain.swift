@_spi(Tooling) import CarillonCLI
@_spi(Tooling) import CarillonExtensionCore
import Dispatch
import Synchronization

// MARK: - populate / drain

func populate(_ options: Options) {
    let container = options.string("--container")
    let count = options.int("--count", default: 1000)
    let offset = options.int("--first", default: 1)
    let store = ReceiptStore(container: container)
    let start = now()
    for index in 0..<count {
        guard let id = DeliveryID(deliveryID(offset + index)) else { fail("bad id") }
        let result = store.record(id, receivedAt: Timestamp(millisecondsSinceEpoch: 1_790_000_000_000 + Int64(index)))
        guard result == .stored else { fail("receipt \(index) not stored: \(result)") }
    }
    let elapsed = now() - start
    print("{\"mode\":\"populate\",\"count\":\(count),\"ms\":\(Double(elapsed / 1000) / 1000)}")
}

func drain(_ options: Options) {
    let container = options.string("--container")
    let queuePath = options.string("--queue")
    let start = now()
    let queue: EventQueue
    do {
        queue = try EventQueue(directory: queuePath)
    } catch {
        fail("\(error)")
    }
    let report = ReceiptDrain.drain(container: container, into: queue)
    let elapsed = now() - start
    guard report.isClean else { fail("drain was not clean: \(report.failures) \(report.quarantined)") }
    print("{\"mode\":\"drain\",\"queued\":\(report.queued.count),\"ms\":\(Double(elapsed / 1000) / 1000)}")
}
