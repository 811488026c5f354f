import Dispatch
import Synchronization

/// One download per distinct image: payloads of one run that name the same image (its URL after the
/// URL rules, ``ImageURL``) share one transfer and one verdict.
///
/// The first payload to ask starts the fetch, bound by the download budget only — not by that payload's
/// time-will-expire, which is its own — on its own thread when that expiry cannot come before the budget
/// ends the transfer, else on a thread of its own: every payload, the first included,
/// then waits for the verdict until its own expiry (``ImageWait``), so a payload whose expiry comes first
/// is `expired` while the download goes on for the others. Payloads that ask later take the verdict at
/// once. A verified image is kept under a partial name (removed on a signal, or by ``finish()``) and,
/// when the store keeps its files, each payload gets its own attachment file, a hard link to it where
/// the file system allows (else a copy); otherwise each payload's attachment is that kept file. A verdict of ``Reason/storage`` is not kept: the next payload tries again.
///
/// One source serves one ``DownloadConfiguration`` (one ``ExtensionRuntime``): the options that change
/// a download are the same for every payload it serves, so the URL alone is the key.
@_spi(Tooling) public final class SharedImageSource: Sendable {
    /// A verified download kept under its partial name, closed, for every payload that names it: each
    /// gets a link to it (or a copy); ``finish()`` removes it.
    struct Kept: Sendable {
        var path: String
        var type: ImageType
        var byteCount: Int
        var warnings: [String]
    }

    /// What one fetch came to.
    struct Verdict: Sendable {
        var result: Result<Kept, Outcome>
        var trace: DownloadTrace?
    }

    /// One distinct image: its verdict once known, and the payloads waiting for it until then.
    final class Flight: Sendable {
        let fetchedBy: String
        /// Stops the fetch when the source is finished with it still in flight.
        let cancellation = DownloadCancellation()
        let state = Mutex<(verdict: Verdict?, waiters: [DispatchSemaphore])>((nil, []))

        init(fetchedBy: String) { self.fetchedBy = fetchedBy }

        /// The verdict, or nil after registering `waiter` to be signalled when it comes.
        func verdict(orRegister waiter: DispatchSemaphore) -> Verdict? {
            state.withLock { state in
                if let verdict = state.verdict { return verdict }
                state.waiters.append(waiter)
                return nil
            }
        }

        var verdict: Verdict? { state.withLock { $0.verdict } }
    }

    /// What a payload took from the source.
    struct Taken: Sendable {
        var result: Result<ImageAttacher.Attached, Outcome>
        var trace: DownloadTrace?
        /// The request that fetched it, when that was another one.
        var sharedWith: String?
    }

    private let flights = Mutex<[String: Flight]>([:])
    /// The fetches under way, which ``finish()`` waits for.
    private let fetches = DispatchGroup()

    init() {}

    /// The image for the request `requester`: fetched by it, waited for, or taken as it was; expired when
    /// `wait` reaches its expiry (or is woken by time-will-expire) first.
    func take(_ url: ImageURL, requester: String, attacher: ImageAttacher, wait: ImageWait) -> Taken {
        let (flight, starts) = flights.withLock { flights -> (Flight, Bool) in
            if let known = flights[url.absoluteString] { return (known, false) }
            let flight = Flight(fetchedBy: requester)
            flights[url.absoluteString] = flight
            return (flight, true)
        }
        if starts {
            fetches.enter()
            if wait.outlasts(attacher.pool.configuration.limits.budget) {
                // The requester's expiry cannot come before the budget ends the transfer: it never stops
                // waiting early, so it fetches on its own thread, with no hand-off (the common case: 30 s
                // of time-will-expire, 20 s of budget).
                fetch(url, into: flight, attacher: attacher)
                fetches.leave()
            } else {
                // Its own thread: the requester may stop waiting at its own expiry, and the others still
                // need the verdict. The budget bounds the transfer.
                DispatchQueue(label: "carillon.shared-image").async {
                    self.fetch(url, into: flight, attacher: attacher)
                    self.fetches.leave()
                }
            }
        }
        let sharedWith = starts ? nil : flight.fetchedBy
        guard let verdict = wait.verdict(of: flight) else {
            // Expired while the download goes on for the others: where it is now, as a download of this
            // payload's own cancelled at this instant would say (phase, host, bytes, and its trace).
            let snapshot = flight.cancellation.snapshot()
            return Taken(
                result: .failure(
                    snapshot?.outcome ?? Outcome(.expired, "time-will-expire arrived while the image's download was in flight")),
                trace: snapshot?.trace, sharedWith: sharedWith)
        }
        switch verdict.result {
        case .failure(let outcome):
            return Taken(result: .failure(outcome), trace: verdict.trace, sharedWith: sharedWith)
        case .success(let fetched):
            do {
                let attachment = try attachment(of: fetched, in: attacher.store)
                return Taken(
                    result: .success(ImageAttacher.Attached(attachment: attachment, warnings: fetched.warnings)), trace: verdict.trace,
                    sharedWith: sharedWith)
            } catch {
                return Taken(result: .failure(error), trace: verdict.trace, sharedWith: sharedWith)
            }
        }
    }

    /// A payload's attachment of a kept image: a file of its own (a link or a copy) when the store keeps
    /// its files; else the kept file itself, which lasts as long as the run — no file per payload.
    private func attachment(of fetched: Kept, in store: AttachmentStore) throws(Outcome) -> NotificationAttachment {
        guard store.keepsFiles else {
            return NotificationAttachment(
                identifier: "image-\(FileSystem.uniqueToken())", path: fetched.path, type: fetched.type, byteCount: fetched.byteCount)
        }
        return try store.publishLink(of: fetched.path, type: fetched.type, byteCount: fetched.byteCount)
    }

    /// Downloads and verifies the image, then hands the verdict to everyone waiting.
    private func fetch(_ url: ImageURL, into flight: Flight, attacher: ImageAttacher) {
        var trace: DownloadTrace?
        let result = Result { () throws(Outcome) in try attacher.fetch(url, cancellation: flight.cancellation, trace: &trace).kept() }
        if case .failure(let outcome) = result, outcome.reason == .storage {
            // Not the image's fault: the next payload that asks tries again.
            flights.withLock { flights in
                if flights[url.absoluteString] === flight { flights[url.absoluteString] = nil }
            }
        }
        let waiters = flight.state.withLock { state in
            state.verdict = Verdict(result: result, trace: trace)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.signal() }
    }

    /// Ends the source, for the end of a run: stops the fetches still in flight (a payload that stopped
    /// waiting at its expiry may have left one) and waits for them to remove their partial files, then
    /// removes the verified images kept for sharing (each payload's own attachment file stays). A payload
    /// that asks afterwards gets a `storage` failure.
    public func finish() {
        for flight in flights.withLock({ Array($0.values) }) { flight.cancellation.cancel() }
        fetches.wait()
        let paths = flights.withLock { flights in
            flights.values.compactMap { flight -> String? in
                guard case .success(let fetched)? = flight.verdict?.result else { return nil }
                return fetched.path
            }
        }
        for path in paths { AttachmentStore(directory: FileSystem.parentDirectory(of: path)).discard(path) }
    }
}
