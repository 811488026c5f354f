#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Downloads, verifies and attaches one image: the part of the extension that may take time.
///
/// The downloader knows nothing of files or images; this composes them: the body it streams goes to
/// the partial attachment file and through ``ImageStreamVerifier`` as it arrives, so it is never read
/// back.
struct ImageAttacher: Sendable {
    let store: AttachmentStore
    let pool: DownloaderPool

    /// An attached image, and the verifier's warnings about it (damage that decoders skip).
    struct Attached: Sendable {
        var attachment: NotificationAttachment
        var warnings: [String]
    }

    /// A verified download still under its partial name (registered as in progress, so a signal removes
    /// it): what ``attach(_:cancellation:trace:)`` publishes, and what a ``SharedImageSource`` keeps.
    struct Fetched: Sendable {
        var path: String
        var type: ImageType
        var byteCount: Int
        var warnings: [String]
    }

    /// Returns the attachment, or the outcome that explains why there is none. On failure no file is
    /// left behind. `trace` receives the download's trace when a download was attempted.
    func attach(_ url: ImageURL, cancellation: DownloadCancellation, trace: inout DownloadTrace?) -> Result<Attached, Outcome> {
        switch fetch(url, cancellation: cancellation, trace: &trace) {
        case .failure(let outcome): return .failure(outcome)
        case .success(let fetched):
            do {
                let partial = AttachmentStore.PartialFile(descriptor: -1, path: fetched.path)
                let attachment = try store.publish(partial, type: fetched.type, byteCount: fetched.byteCount)
                return .success(Attached(attachment: attachment, warnings: fetched.warnings))
            } catch {
                store.discard(fetched.path)
                return .failure(error)
            }
        }
    }

    /// Downloads and verifies the image into a partial file of the store, and hands it back unpublished.
    /// On failure no file is left behind. `trace` receives the download's trace when a download was attempted.
    func fetch(_ url: ImageURL, cancellation: DownloadCancellation, trace: inout DownloadTrace?) -> Result<Fetched, Outcome> {
        let partial: AttachmentStore.PartialFile
        do {
            partial = try store.createPartialFile()
        } catch {
            return .failure(error)
        }
        var kept = false
        defer {
            if !kept { store.discard(partial.path) }
        }
        var verifier = ImageStreamVerifier()
        var writeFailure: FileSystemError?
        let transfer = Result { () throws(Outcome) in
            try pool.withDownloader { downloader in
                downloader.download(url, cancellation: cancellation) { piece in
                    do throws(FileSystemError) {
                        try FileSystem.writeAll(partial.descriptor, piece, path: "attachment")
                    } catch {
                        writeFailure = error
                        return false
                    }
                    let bytes = piece.assumingMemoryBound(to: UInt8.self)
                    verifier.feed(bytes)
                    return true
                }
            }
        }
        close(partial.descriptor)
        let report: TransferReport
        switch transfer {
        case .success(let value): report = value
        case .failure(let error): return .failure(error)
        }
        trace = report.trace(image: nil)
        if let writeFailure, !report.cancelled {
            return .failure(Outcome(.storage, "could not write the downloaded body: \(writeFailure.reason)"))
        }
        if let failure = report.failure { return .failure(failure) }
        if cancellation.isCancelled {
            return .failure(Outcome(.expired, "time-will-expire arrived before the image was published"))
        }
        // Decided from the bytes as they were written, the same as reading the file back with
        // ImageVerifier would, without that second pass over up to 10 MiB.
        let image: VerifiedImage
        switch verifier.finish() {
        case .success(let decided): image = decided
        case .failure(let refusal): return .failure(refusal)
        }
        trace?.image = DownloadTrace.Image(image)
        kept = true
        return .success(Fetched(path: partial.path, type: image.type, byteCount: report.bytesWritten, warnings: image.warnings))
    }
}
