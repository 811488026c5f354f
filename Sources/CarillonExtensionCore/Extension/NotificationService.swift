import Dispatch
import Synchronization

/// One notification passing through the extension: `didReceive`, an optional image download, and
/// `timeWillExpire`, with the content handler called exactly once.
///
/// The sequence is iOS's: the receipt is stored first (so a kill during the download cannot lose it),
/// then the image is downloaded — on a background thread (`didReceive`) or on the caller's (`process`). Whichever comes first — the attachment being
/// complete, a failure, or time-will-expire — delivers; anything later is discarded (a late attachment
/// file is removed).
public final class NotificationService: Sendable {
    private enum Phase {
        case working
        case delivered
    }

    private struct State {
        var phase = Phase.working
        var handler: (@Sendable (ServiceResult) -> Void)?
    }

    private let request: NotificationRequest
    private let started: ContinuousClock.Instant
    private let state: Mutex<State>
    /// Cancelled by ``timeWillExpire()``, or by itself at the expiry `process` gives it.
    private let cancellation: DownloadCancellation
    /// The download's trace, once the image work has ended (a result delivered by time-will-expire
    /// has none; `process` adds it).
    private let trace = Mutex<DownloadTrace?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    /// The parts of the result known before the image: routing, stamp, receipt, warnings.
    private let preliminary: ServiceResult
    /// The image to attach and what attaches it; nil when delivery happened in `init`.
    private let imageWork: (ImageURL, ImageAttacher)?
    /// Where the image comes from when downloads are shared, and this notification's wait for it.
    private let source: (SharedImageSource, ImageWait)?
    /// The request that fetched a shared image, when another one did.
    private let sharedWith = Mutex<String?>(nil)

    /// Receives a notification request, as `UNNotificationServiceExtension.didReceive(_:withContentHandler:)`.
    ///
    /// Records the receipt (when routed, stamped and a container is configured), then downloads and
    /// attaches the image on a background thread of its own. `completion` is called exactly once, on any thread.
    ///
    /// - Parameters:
    ///   - request: the notification as iOS hands it over; its content's `userInfo` is the payload.
    ///   - configuration: directories and download limits.
    ///   - pool: downloaders to reuse across notifications.
    ///   - completion: receives the delivered content and what happened.
    /// - Returns: the service, to keep until completion and to pass time-will-expire to.
    @discardableResult
    static func didReceive(
        _ request: NotificationRequest, configuration: ExtensionConfiguration, pool: any ImageTransport,
        source: SharedImageSource? = nil, completion: @escaping @Sendable (ServiceResult) -> Void
    ) -> NotificationService {
        let service = NotificationService(
            request: request, configuration: configuration, pool: pool, source: source,
            receiptLockDeadline: .now + FileLock.extensionWait, completion: completion)
        if service.imageWork != nil {
            // Its own queue, not the global one: the download blocks its thread, and callers may run many
            // notifications at once (blocked global-queue threads are replaced only about once a second).
            DispatchQueue(label: "carillon.notification-service.download").async { service.runImageWork() }
        }
        return service
    }

    /// Runs one notification to its end on the calling thread, with time-will-expire arriving
    /// `timeWillExpireAfter` after `didReceive` has returned (the receipt, if any, is stored by
    /// then; iOS sends it about 30 s after delivery), and returns what was delivered once all work has
    /// finished.
    ///
    /// The same sequence and guarantees as ``didReceive(_:configuration:pool:completion:)`` followed by
    /// ``timeWillExpire()`` at that time — the content is delivered exactly once — but the image is
    /// downloaded and verified on this thread rather than handed to another, and time-will-expire comes
    /// from the download's own wait, which wakes for it, instead of a timer thread. It is also checked
    /// before and after the download; the steps between (creating the file, the first downloader's
    /// set-up, publishing) take a millisecond or so at most. A caller that blocks anyway (a tool processing a file) saves
    /// the hand-off and the thread: on a busy machine a fresh download thread can be scheduled onto the
    /// core the server is using.
    static func process(
        _ request: NotificationRequest, configuration: ExtensionConfiguration, pool: any ImageTransport,
        source: SharedImageSource? = nil, timeWillExpireAfter delay: Duration
    ) -> ServiceResult {
        processed(request, configuration: configuration, pool: pool, source: source, timeWillExpireAfter: delay).result
    }

    /// ``process(_:configuration:pool:timeWillExpireAfter:)``, also handing back the service, so that a
    /// test can check that nothing keeps it alive afterwards.
    static func processed(
        _ request: NotificationRequest, configuration: ExtensionConfiguration, pool: any ImageTransport,
        source: SharedImageSource? = nil, timeWillExpireAfter delay: Duration
    ) -> (result: ServiceResult, service: NotificationService) {
        let delivered = Mutex<ServiceResult?>(nil)
        // Clamped, so that no value (negative, or near Duration's limit) can trap: a year is "never" here.
        let clamped = min(max(delay, .zero), .seconds(365 * 86_400))
        // Time-will-expire counts from delivery, so the receipt's wait for its lock is inside it, and never
        // outlasts it; the elapsed time counts from the same instant, so that an expiry is never reported
        // before its delay (a thread descheduled between two readings of the clock made it 3 ms early).
        let delivery = ContinuousClock.now
        let expiry = delivery + clamped
        let service = NotificationService(
            request: request, configuration: configuration, pool: pool, source: source,
            receiptLockDeadline: min(expiry, delivery + FileLock.extensionWait), expiry: expiry, delivery: delivery
        ) { result in
            delivered.withLock { $0 = result }
        }
        if service.imageWork != nil { service.runImageWork() }
        // Delivered once, whole: on this thread time-will-expire is decided after the work, with its trace.
        guard let result = delivered.withLock({ $0 }) else {
            preconditionFailure("the extension finished without delivering")
        }
        return (result, service)
    }

    private init(
        request: NotificationRequest, configuration: ExtensionConfiguration, pool: any ImageTransport, source: SharedImageSource?,
        receiptLockDeadline: ContinuousClock.Instant, expiry: ContinuousClock.Instant? = nil,
        delivery: ContinuousClock.Instant = .now, completion: @escaping @Sendable (ServiceResult) -> Void
    ) {
        self.request = request
        let cancellation = DownloadCancellation(expiry: expiry)
        self.cancellation = cancellation
        self.source = source.map { ($0, ImageWait(cancellation: cancellation)) }
        self.started = delivery
        self.state = Mutex(State(handler: completion))
        let userInfo = request.content.userInfo
        let stamp = CarillonStamp(userInfo: userInfo)
        var warnings: [String] = []
        var result = ServiceResult(
            content: request.content, delivered: .original, outcome: Outcome(.noImage, ""), routed: false,
            deliveryID: stamp.deliveryID, receipt: .none, warnings: [], elapsed: .zero, imageURL: stamp.imageText)

        let image: ImageURL?
        if let notRouted = Routing.decide(userInfo) {
            result.outcome = notRouted
            image = nil
        } else {
            result.routed = true
            warnings += stamp.warnings
            // The receipt comes before anything touches the image.
            if let id = stamp.deliveryID, let container = configuration.receiptContainer {
                let (recorded, notes) = ReceiptStore(container: container).recordReporting(
                    id, receivedAt: .now(), lockDeadline: receiptLockDeadline)
                warnings += notes
                if let warning = recorded.warning { warnings.append(warning) }
                result.receipt = recorded
            }
            switch stamp.image {
            case .absent:
                result.outcome = Outcome(.noImage, "routed; the payload has no carillon.image")
                image = nil
            case .rejected(let outcome):
                result.outcome = outcome
                image = nil
            case .url(let url):
                image = url
            }
        }
        result.warnings = warnings
        preliminary = result

        guard let image else {
            imageWork = nil
            deliver(result)
            finished.signal()
            return
        }
        imageWork = (
            image,
            ImageAttacher(
                store: AttachmentStore(directory: configuration.attachmentsDirectory, keepsFiles: configuration.keepsAttachments),
                pool: pool)
        )
    }

    /// Downloads, verifies and attaches the image, then delivers (unless time-will-expire came first).
    /// Runs once, on whichever thread the entry point chose.
    private func runImageWork() {
        guard let (image, attacher) = imageWork else { return }
        defer { finished.signal() }
        // The expiry `process` set travels down as a value: the download's wait wakes for it and ends.
        // It is checked here, before the work and after it whatever its result, so that expiry wins
        // as a timer's would.
        if cancellation.isExpired {
            timeWillExpire()
            return
        }
        var downloadTrace: DownloadTrace?
        let attached: Result<ImageAttacher.Attached, Outcome>
        if let (source, wait) = source {
            let taken = source.take(image, requester: request.identifier, attacher: attacher, wait: wait)
            attached = taken.result
            downloadTrace = taken.trace
            sharedWith.withLock { $0 = taken.sharedWith }
        } else {
            attached = attacher.attach(image, cancellation: cancellation, trace: &downloadTrace)
        }
        trace.withLock { $0 = downloadTrace }
        if cancellation.isExpired {
            // Expiry wins as a timer's would, saying where the download was.
            deliverExpired(Self.expiredOutcome(trace: downloadTrace))
        }
        switch attached {
        case .success(let attached):
            let attachment = attached.attachment
            var modified = preliminary
            modified.content.attachments.append(attachment)
            modified.warnings += attached.warnings
            modified.delivered = .modified
            let contentType = downloadTrace?.hops.last?.contentType
            if let warning = ContentTypeWarning.warning(contentType: contentType, detected: attachment.type) {
                modified.warnings.append(warning)
            }
            modified.outcome = Outcome(.attached, "\(attachment.type.rawValue) image of \(attachment.byteCount) bytes attached")
            if !deliver(modified) {
                // Time-will-expire won: the original content has gone out; the file must not stay.
                try? FileSystem.removeFile(attachment.path)
            }
        case .failure(let outcome):
            var original = preliminary
            original.outcome = outcome
            deliver(original)
        }
    }

    /// The system is about to stop the extension, as `serviceExtensionTimeWillExpire()`: cancels any
    /// download at once and delivers the original content, unless delivery already happened.
    public func timeWillExpire() {
        cancellation.cancel()
        source?.1.wake()
        deliverExpired(Self.expiredOutcome(trace: nil))
    }

    private func deliverExpired(_ outcome: Outcome) {
        var expired = preliminary
        expired.outcome = outcome
        deliver(expired)
    }

    /// The outcome of time-will-expire: where the download was (its phase, host and bytes) when there
    /// was one — a shared download's as it was when this notification stopped waiting — else the bare fact.
    static func expiredOutcome(trace: DownloadTrace?) -> Outcome {
        guard let trace else { return Outcome(.expired, "time-will-expire arrived before the image was attached") }
        return Outcome(.expired, "time-will-expire arrived before the image was attached, \(trace.endDescription)")
    }

    /// Blocks until background work has ended and cleaned up (not only until delivery).
    public func waitUntilFinished() {
        finished.wait()
        finished.signal()
    }

    /// Calls the handler if nobody has yet; returns whether this call delivered.
    @discardableResult
    private func deliver(_ result: ServiceResult) -> Bool {
        guard
            let handler = state.withLock({ state -> (@Sendable (ServiceResult) -> Void)? in
                guard state.phase == .working else { return nil }
                state.phase = .delivered
                defer { state.handler = nil }
                return state.handler
            })
        else { return false }
        var result = result
        if result.delivered == .original { result.content = request.content }
        if result.trace == nil { result.trace = trace.withLock { $0 } }
        result.sharedWith = sharedWith.withLock { $0 }
        result.elapsed = ContinuousClock.now - started
        handler(result)
        return true
    }
}
