/// Downloads, verifies and attaches one image: the part of the extension that may take time.
///
/// The downloader knows nothing of files or images; this composes them: the body it streams goes to
/// the partial attachment file and through ``ImageStreamVerifier`` as it arrives, so it is never read
/// back.
struct ImageAttacher: Sendable {
    let store: AttachmentStore
    let pool: any ImageTransport

    /// An attached image, and the verifier's warnings about it (damage that decoders skip).
    struct Attached: Sendable {
        var attachment: NotificationAttachment
        var warnings: [String]
    }

    /// A verified download still under its partial name (registered as in progress, so a signal removes
    /// it), with the file's one owner: what ``attach(_:cancellation:trace:)`` publishes, and what a
    /// ``SharedImageSource`` keeps (``kept()``). Dropped, it removes the file.
    struct Fetched: ~Copyable {
        var file: AttachmentStore.PartialFile
        var type: ImageType
        var byteCount: Int
        var warnings: [String]

        /// Closes the file and hands it over, still under its partial name, for sharing.
        consuming func kept() -> SharedImageSource.Kept {
            SharedImageSource.Kept(path: file.keep(), type: type, byteCount: byteCount, warnings: warnings)
        }
    }

    /// Returns the attachment, or the outcome that explains why there is none. On failure no file is
    /// left behind. `trace` receives the download's trace when a download was attempted.
    func attach(_ url: ImageURL, cancellation: DownloadCancellation, trace: inout DownloadTrace?) -> Result<Attached, Outcome> {
        do throws(Outcome) {
            let fetched = try fetch(url, cancellation: cancellation, trace: &trace)
            let warnings = fetched.warnings
            let attachment = try fetched.file.publish(type: fetched.type, byteCount: fetched.byteCount)
            return .success(Attached(attachment: attachment, warnings: warnings))
        } catch {
            return .failure(error)
        }
    }

    /// Downloads and verifies the image into a partial file of the store, and hands it back unpublished.
    /// On failure no file is left behind (the partial file, dropped, removes itself). `trace` receives
    /// the download's trace when a download was attempted, with the verified image's geometry.
    ///
    /// - Throws: the outcome that explains why there is no image.
    func fetch(_ url: ImageURL, cancellation: DownloadCancellation, trace: inout DownloadTrace?) throws(Outcome) -> Fetched {
        let partial = try store.createPartialFile()
        var verifier = ImageStreamVerifier()
        var writeFailure: FileSystemError?
        // A body the transport has whole in a file of its own (a replay's) is taken as that file.
        var adopted = false
        let transfer = Result { () throws(Outcome) in
            try pool.download(
                url, cancellation: cancellation, sinkFile: partial.path,
                into: { piece in
                    do throws(FileSystemError) {
                        if !adopted { try partial.write(piece) }
                    } catch {
                        writeFailure = error
                        return false
                    }
                    verifier.feed(piece.assumingMemoryBound(to: UInt8.self))
                    return true
                },
                adopting: { path in
                    adopted = partial.adopt(path)
                    return adopted
                })
        }
        let report = try transfer.get()
        let verdict = ImageAttacher.verdict(report, writeFailure: writeFailure, cancellation: cancellation, verifier: verifier)
        // The trace is built here, once, with the verified image's geometry when there is one.
        trace = report.trace(image: (try? verdict.get()).flatMap { DownloadTrace.Image($0) })
        let image = try verdict.get()
        return Fetched(file: partial, type: image.type, byteCount: report.bytesWritten, warnings: image.warnings)
    }

    /// The image a finished download gives, or why there is none: the download's own failure, a write
    /// failure, time-will-expire, then the verifier's verdict, decided from the bytes as they were
    /// written (the same as reading the file back with ImageVerifier would, without that second pass
    /// over up to 10 MiB).
    static func verdict(
        _ report: TransferReport, writeFailure: FileSystemError?, cancellation: DownloadCancellation, verifier: ImageStreamVerifier
    ) -> Result<VerifiedImage, Outcome> {
        if let writeFailure, !report.cancelled {
            return .failure(Outcome(.storage, "could not write the downloaded body: \(writeFailure.reason)"))
        }
        if let failure = report.failure { return .failure(failure) }
        if cancellation.isCancelled {
            return .failure(Outcome(.expired, "time-will-expire arrived before the image was published"))
        }
        return verifier.finish()
    }
}
