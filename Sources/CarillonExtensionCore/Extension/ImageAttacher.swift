#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Downloads, verifies and attaches one image: the part of the extension that may take time.
struct ImageAttacher: Sendable {
    let store: AttachmentStore
    let pool: DownloaderPool

    /// An attached image, and the verifier's warnings about it (damage that decoders skip).
    struct Attached: Sendable {
        var attachment: NotificationAttachment
        var warnings: [String]
    }

    /// Returns the attachment, or the outcome that explains why there is none. On failure no file is
    /// left behind.
    func attach(_ url: ImageURL, cancellation: DownloadCancellation) -> Result<Attached, Outcome> {
        let partial: AttachmentStore.PartialFile
        do {
            partial = try store.createPartialFile()
        } catch {
            return .failure(error)
        }
        var published = false
        defer {
            if !published { store.discard(partial.path) }
        }
        let transfer = Result { () throws(Outcome) in
            try pool.withDownloader { $0.download(url, into: partial.descriptor, cancellation: cancellation) }
        }
        close(partial.descriptor)
        let report: TransferReport
        switch transfer {
        case .success(let value): report = value
        case .failure(let error): return .failure(error)
        }
        if let failure = report.failure { return .failure(failure) }
        if cancellation.isCancelled {
            return .failure(Outcome(.expired, "time-will-expire arrived before the image was published"))
        }
        // Decided from the bytes as they were written (ImageStreamVerifier), the same as reading the file
        // back with ImageVerifier would, without that second pass over up to 10 MiB.
        let image: VerifiedImage
        switch report.image {
        case .success(let decided): image = decided
        case .failure(let refusal): return .failure(refusal)
        }
        do {
            let attachment = try store.publish(partial, type: image.type, byteCount: report.bytesWritten)
            published = true
            return .success(Attached(attachment: attachment, warnings: image.warnings))
        } catch {
            return .failure(error)
        }
    }
}
