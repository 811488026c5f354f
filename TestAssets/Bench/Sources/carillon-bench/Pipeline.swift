@_spi(Tooling) import CarillonCLI
@_spi(Tooling) import CarillonExtensionCore
import Dispatch
import Synchronization

// MARK: - pipeline

/// The whole real pipeline in a warm process: `NotificationService` through a new `ExtensionRuntime` each
/// time (so a new connection and TLS handshake, as in a fresh `process`), no receipt container,
/// waiting for the content handler. Reports the service's own `elapsed`: transfer + verify
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
        if rep > 0 { samples.append(UInt64(result.elapsed.inMilliseconds * 1_000_000)) }  // rep 0 warms up
    }
    print("{\"mode\":\"pipeline\",\"elapsed\":\(summary(samples))}")
}
