@_spi(Tooling) import CarillonCLI
@_spi(Tooling) import CarillonExtensionCore
import Dispatch
import Synchronization

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
///            callback feeds it (libcurl hands over at most one 16 KiB TLS record at a time); its
///            `VerifiedImage` carries the geometry the trace reports
/// - publish: the rename to `image-*.<ext>`, as `AttachmentStore.PartialFile.publish(type:byteCount:)` (internal) does
/// - trace:   what the transfer trace adds: the verified image's geometry as `DownloadTrace.Image`, a one-hop
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
    for stage in stages.indices { stages[stage].reserveCapacity(iterations) }

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
        let verified: VerifiedImage
        switch ImageStreamVerifier.decide(image.bytes, pieceSize: 16 * 1024) {
        case .success(let decided): verified = decided
        case .failure(let error): fail("\(image.path) did not verify: \(error)")
        }
        t[5] = now()
        let type = verified.type
        let finalPath = FileSystem.join(attachments, "image-\(FileSystem.uniqueToken()).\(type.fileExtension)")
        do {
            try FileSystem.move(partialPath, to: finalPath)
        } catch {
            fail("\(error)")
        }
        t[6] = now()
        let hop = DownloadTrace.Hop(
            url: "https://127.0.0.1:9/img/\(iteration)", status: 200, httpVersion: "1.1", remote: "127.0.0.1:9", location: nil,
            contentType: "image/\(type.rawValue)", contentLength: image.bytes.count,
            tls: DownloadTrace.TLS(version: "TLSv1.3", cipher: "TLS_AES_256_GCM_SHA384"),
            timings: .cumulative(microseconds: [49, 285, 5806, 7115], total: 7940))
        let trace = DownloadTrace(
            hops: [hop], bodyBytes: image.bytes.count, budget: .seconds(20), phase: .done, image: DownloadTrace.Image(verified))
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
