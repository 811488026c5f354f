// carillon-bench: the in-process half of TestAssets/Bench/run.sh.
//
// Times the parts of the pipeline that are not the transfer, against the core library of the working
// tree, and prints one JSON object on standard output. Modes:
//
//   overhead --work DIR --iterations N IMAGE...   parse, route, receipt, attach, verify, publish
//   expire   --url URL --ca-file PEM --after S --reps N --work DIR
//                                                  timeWillExpire() -> content handler, while stalled
//   populate --container DIR --count N             writes N receipts (setup for a drain)
//   drain    --container DIR --queue DIR           ReceiptDrain.drain, timed
//   verify   --reps N FILE...                      ImageStreamVerifier, and ImageVerifier.verify(fileAt:), alone
//   pipeline --url URL --ca-file PEM --reps N --work DIR
//                                                  NotificationService end to end in a warm process
//
// It never opens a connection except in `expire` and `pipeline`, to the URL it is given (the script passes the local
// server's handshake-stall port on 127.0.0.1).

@_spi(Tooling) import CarillonCLI
@_spi(Tooling) import CarillonExtensionCore
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: - Small helpers

/// Monotonic nanoseconds.
@inline(__always)
func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func fail(_ message: String) -> Never {
    let line = Array("carillon-bench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

struct Options {
    var values: [String: String] = [:]
    var positionals: [String] = []

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                guard let value = iterator.next() else { fail("\(argument) needs a value") }
                values[argument] = value
            } else {
                positionals.append(argument)
            }
        }
    }

    func string(_ name: String) -> String {
        guard let value = values[name] else { fail("missing \(name)") }
        return value
    }

    func int(_ name: String, default fallback: Int) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), value > 0 else { fail("\(name) must be a positive integer") }
        return value
    }

    func double(_ name: String, default fallback: Double) -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text), value >= 0 else { fail("\(name) must be a number") }
        return value
    }
}

/// Median, minimum, maximum and 90th percentile of samples in nanoseconds, as microseconds.
func summary(_ samples: [UInt64]) -> String {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return "null" }
    func us(_ ns: UInt64) -> String {
        let value = Double(ns) / 1000
        return String((value * 10).rounded() / 10)
    }
    let median = sorted.count % 2 == 1
        ? sorted[sorted.count / 2]
        : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    let p90 = sorted[min(sorted.count - 1, (sorted.count * 9) / 10)]
    return "{\"median_us\":\(us(median)),\"min_us\":\(us(sorted.first!)),\"max_us\":\(us(sorted.last!)),\"p90_us\":\(us(p90)),\"n\":\(sorted.count)}"
}

func deliveryID(_ counter: Int) -> String {
    var hex = String(counter, radix: 16)
    while hex.count < 12 { hex = "0" + hex }
    return "01937b21-0000-7000-8000-" + hex
}

/// A routed, stamped payload asking for the image at `url`.
func imagePayload(_ number: Int, url: String) -> Payload {
    let text = """
        {"aps":{"alert":"x","mutable-content":1},"carillon":{"delivery_id":"\(deliveryID(number))","image":"\(url)"}}
        """
    do {
        return try Payload(bytes: Array(text.utf8))
    } catch {
        fail("\(error)")
    }
}

func readWhole(_ path: String) -> [UInt8] {
    do {
        return try FileSystem.readFile(path, limit: 64 << 20)
    } catch {
        fail("cannot read \(path): \(error)")
    }
}

// MARK: - overhead

/// One payload through everything the extension does besides moving bytes over the network, stage by
/// stage, with the same calls the pipeline makes:
///
/// - parse:   `Payload(bytes:)` and `NotificationRequest(identifier:payload:)` (what the CLI does per file)
/// - route:   `Routing.decide` and `CarillonStamp(userInfo:)` (URL validation included)
/// - receipt: `ReceiptStore.record` (lock, listing, durable publish: two fsyncs)
/// - create:  the attachments directory and an exclusive 0600 `.download-*.part` file, as
///            `AttachmentStore.createPartialFile` (internal) does, via the same `FileSystem` calls
/// - (the transfer writes the image into that file: not timed)
/// - verify:  `close`, and `ImageStreamVerifier` fed the image in 16 KiB pieces, as the download's write
///            callback feeds it (libcurl hands over at most one 16 KiB TLS record at a time)
/// - publish: the rename to `image-*.<ext>`, as `AttachmentStore.publish` (internal) does
/// - trace:   what the transfer trace adds: `ImageGeometry` fed the same pieces, a one-hop
///            `DownloadTrace` with a handshake and timings (what the downloader reads with
///            `curl_easy_getinfo` is inside the transfer), and its `trace` object written as the CLI
///            writes it (`TraceJSON`, then `JSONWriter`)
func overhead(_ options: Options) {
    let work = options.string("--work")
    let iterations = options.int("--iterations", default: 1000)
    let warmup = min(50, iterations)
    let images = options.positionals.map { (path: $0, bytes: readWhole($0)) }
    guard !images.isEmpty else { fail("overhead needs at least one IMAGE") }
    let container = FileSystem.join(work, "container")
    let attachments = FileSystem.join(work, "attachments")
    do {
        try FileSystem.makeDirectory(work)
    } catch {
        fail("\(error)")
    }
    let store = ReceiptStore(container: container)
    let names = ["parse", "route", "receipt", "create", "verify", "publish", "trace"]
    var stages = Array(repeating: [UInt64](), count: names.count)
    var totals: [UInt64] = []
    var withoutReceipt: [UInt64] = []
    var perImage = Array(repeating: [UInt64](), count: images.count)
    stages.indices.forEach { stages[$0].reserveCapacity(iterations) }

    for iteration in 0..<(warmup + iterations) {
        let imageIndex = iteration % images.count
        let image = images[imageIndex]
        let id = deliveryID(iteration + 1)
        let text = """
            {"aps":{"alert":{"title":"Bench","body":"payload \(iteration)"},"mutable-content":1,"sound":"default"},\
            "carillon":{"delivery_id":"\(id)","image":"https://127.0.0.1:9/img/\(iteration)"}}
            """
        let bytes = Array(text.utf8)
        var t = [UInt64](repeating: 0, count: names.count + 1)

        t[0] = now()
        let payload: Payload
        do {
            payload = try Payload(bytes: bytes)
        } catch {
            fail("payload did not parse: \(error)")
        }
        let request = NotificationRequest(identifier: "payload-\(iteration)", payload: payload)
        t[1] = now()
        let userInfo = request.content.userInfo
        let stamp = CarillonStamp(userInfo: userInfo)
        guard Routing.decide(userInfo) == nil, let delivery = stamp.deliveryID, case .url = stamp.image else {
            fail("bench payload was not routed with a stamp and an image")
        }
        t[2] = now()
        let receipt = store.record(delivery, receivedAt: .now())
        guard receipt == .stored else { fail("receipt not stored: \(receipt)") }
        t[3] = now()
        let partialPath = FileSystem.join(attachments, ".download-\(FileSystem.uniqueToken()).part")
        let descriptor: Int32
        do {
            try FileSystem.makeDirectory(attachments, mode: 0o700)
            descriptor = try FileSystem.createExclusive(partialPath, mode: 0o600)
        } catch {
            fail("\(error)")
        }
        let afterCreate = now()
        // The transfer's part: bytes into the file. Not timed.
        do {
            try image.bytes.withUnsafeBytes { try FileSystem.writeAll(descriptor, $0, path: partialPath) }
        } catch {
            fail("\(error)")
        }
        t[4] = now()
        close(descriptor)
        let type: ImageType
        switch ImageStreamVerifier.decide(image.bytes, pieceSize: 16 * 1024) {
        case .success(let decided): type = decided.type
        case .failure(let error): fail("\(image.path) did not verify: \(error)")
        }
        t[5] = now()
        let finalPath = FileSystem.join(attachments, "image-\(FileSystem.uniqueToken()).\(type.fileExtension)")
        do {
            try FileSystem.move(partialPath, to: finalPath)
        } catch {
            fail("\(error)")
        }
        t[6] = now()
        var geometry = ImageGeometry()
        var offset = 0
        image.bytes.withUnsafeBufferPointer { all in
            while offset < all.count {
                let end = min(offset + 16 * 1024, all.count)
                geometry.feed(UnsafeBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
        }
        let hop = DownloadTrace.Hop(
            url: "https://127.0.0.1:9/img/\(iteration)", status: 200, httpVersion: "1.1", remote: "127.0.0.1:9", location: nil,
            contentType: "image/\(type.rawValue)", contentLength: image.bytes.count,
            tls: DownloadTrace.TLS(version: "TLSv1.3", cipher: "TLS_AES_256_GCM_SHA384"),
            timings: .cumulative(microseconds: [49, 285, 5806, 7115], total: 7940))
        let trace = DownloadTrace(
            hops: [hop], bodyBytes: image.bytes.count, budgetMilliseconds: 20_000, phase: .done, image: geometry.image(type))
        let traceLine = JSONWriter.string(TraceJSON.value(trace))
        guard traceLine.utf8.count > 100, trace.image != nil else { fail("\(image.path): no trace geometry") }
        t[7] = now()

        // Clean up, untimed: the container stays at zero pending receipts, the directory small.
        try? FileSystem.removeFile(finalPath)
        try? FileSystem.removeFile(store.path(for: delivery))

        guard iteration >= warmup else { continue }
        var total: UInt64 = 0
        for stage in 0..<names.count {
            var elapsed = t[stage + 1] - t[stage]
            if stage == 3 { elapsed = afterCreate - t[3] }  // create ends before the untimed write
            stages[stage].append(elapsed)
            total += elapsed
        }
        totals.append(total)
        withoutReceipt.append(total - stages[2].last!)
        perImage[imageIndex].append(total)
    }

    var fields = [
        "\"mode\":\"overhead\"", "\"total\":\(summary(totals))", "\"without_receipt\":\(summary(withoutReceipt))",
    ]
    for (index, name) in names.enumerated() { fields.append("\"\(name)\":\(summary(stages[index]))") }
    let imageFields = images.indices.map { index -> String in
        let name = images[index].path.split(separator: "/").last.map(String.init) ?? images[index].path
        return "\"\(name) (\(images[index].bytes.count) B)\":\(summary(perImage[index]))"
    }
    fields.append("\"per_image\":{\(imageFields.joined(separator: ","))}")
    print("{\(fields.joined(separator: ","))}")
}

// MARK: - expire

/// Starts the real `NotificationService` on a URL whose server never answers TLS, waits `--after`
/// seconds, then calls `timeWillExpire()` and times how long until the content handler has the original
/// content (`handler`) and until the download thread has let go and cleaned up (`finished`).
func expire(_ options: Options) {
    let url = options.string("--url")
    let after = options.double("--after", default: 0.2)
    let reps = options.int("--reps", default: 5)
    let work = options.string("--work")
    let download = DownloadConfiguration(extraCAFile: options.values["--ca-file"])
    let configuration = ExtensionConfiguration(
        attachmentsDirectory: FileSystem.join(work, "attachments"), receiptContainer: nil, download: download)
    let runtime = ExtensionRuntime(configuration: configuration)
    var handlerLatency: [UInt64] = []
    var finishedLatency: [UInt64] = []
    for rep in 0..<reps {
        let payload = imagePayload(rep + 1, url: url)
        let delivered = Mutex<(at: UInt64, reason: String)?>(nil)
        let service = runtime.didReceive(NotificationRequest(identifier: "expire-\(rep)", payload: payload)) { result in
            let at = now()
            delivered.withLock { $0 = (at, result.outcome.reason.rawValue) }
        }
        usleep(UInt32(after * 1_000_000))
        if let early = delivered.withLock({ $0 }) {
            fail("delivered before time-will-expire (\(early.reason)): is \(url) really stalling?")
        }
        let start = now()
        service.timeWillExpire()
        service.waitUntilFinished()
        let finished = now()
        guard let result = delivered.withLock({ $0 }) else { fail("nothing delivered after time-will-expire") }
        guard result.reason == "expired" else { fail("reason \(result.reason), expected expired") }
        handlerLatency.append(result.at - start)
        finishedLatency.append(finished - start)
    }
    print("{\"mode\":\"expire\",\"handler\":\(summary(handlerLatency)),\"finished\":\(summary(finishedLatency))}")
}

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

// MARK: - pipeline

/// The whole real pipeline in a warm process: `NotificationService` through a new `ExtensionRuntime` each
/// time (so a new connection and TLS handshake, as in a fresh `process`), no receipt container,
/// waiting for the content handler. Reports the service's own `elapsedMilliseconds`: transfer + verify
/// + publish without process start-up, to set beside curl's own `%{time_total}`.
func pipeline(_ options: Options) {
    let url = options.string("--url")
    let reps = options.int("--reps", default: 10)
    let work = options.string("--work")
    let attachments = FileSystem.join(work, "attachments")
    let download = DownloadConfiguration(extraCAFile: options.values["--ca-file"])
    let configuration = ExtensionConfiguration(attachmentsDirectory: attachments, receiptContainer: nil, download: download)
    var samples: [UInt64] = []
    for rep in 0..<(reps + 1) {
        let payload = imagePayload(rep + 1, url: url)
        let done = DispatchSemaphore(value: 0)
        let delivered = Mutex<ServiceResult?>(nil)
        // A new runtime each time: a new connection and TLS handshake, as in a fresh `process`.
        let service = ExtensionRuntime(configuration: configuration).didReceive(
            NotificationRequest(identifier: "pipeline-\(rep)", payload: payload)
        ) { result in
            delivered.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        service.waitUntilFinished()
        guard let result = delivered.withLock({ $0 }) else { fail("nothing delivered") }
        guard result.outcome.reason == .attached, let attachment = result.content.attachments.first else {
            fail("reason \(result.outcome.reason.rawValue): \(result.outcome.detail)")
        }
        try? FileSystem.removeFile(attachment.path)
        sync()
        if rep > 0 { samples.append(UInt64(result.elapsedMilliseconds * 1_000_000)) }  // rep 0 warms up
    }
    print("{\"mode\":\"pipeline\",\"elapsed\":\(summary(samples))}")
}

// MARK: - verify

/// Each file's verification alone, `--reps` times: `ImageStreamVerifier` over its bytes in 16 KiB pieces
/// (what a download does) and `ImageVerifier.verify(fileAt:)` (reading the file back, as downloads did
/// before), e.g. on the 10 MiB JPEG.
func verify(_ options: Options) {
    let reps = options.int("--reps", default: 20)
    var fields: [String] = []
    for path in options.positionals {
        let bytes = readWhole(path)
        var streamed: [UInt64] = []
        var fromFile: [UInt64] = []
        for _ in 0..<reps {
            var start = now()
            if case .failure(let error) = ImageStreamVerifier.decide(bytes, pieceSize: 16 * 1024) {
                fail("\(path) did not verify: \(error)")
            }
            streamed.append(now() - start)
            start = now()
            do {
                _ = try ImageVerifier.verify(fileAt: path)
            } catch {
                fail("\(path) did not verify: \(error)")
            }
            fromFile.append(now() - start)
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        fields.append("\"\(name)\":{\"stream\":\(summary(streamed)),\"file\":\(summary(fromFile))}")
    }
    print("{\"mode\":\"verify\",\(fields.joined(separator: ","))}")
}

// MARK: - main

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    fail("usage: carillon-bench overhead|expire|populate|drain [options]")
}
let options = Options(arguments.dropFirst(2))
switch arguments[1] {
case "overhead": overhead(options)
case "expire": expire(options)
case "populate": populate(options)
case "drain": drain(options)
case "verify": verify(options)
case "pipeline": pipeline(options)
default: fail("unknown mode \(arguments[1])")
}
