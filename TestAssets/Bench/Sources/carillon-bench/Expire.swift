@_spi(Tooling) import CarillonCLI
@_spi(Tooling) import CarillonExtensionCore
import Dispatch
import Synchronization

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
        Pause.sleep(for: .seconds(after))
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
