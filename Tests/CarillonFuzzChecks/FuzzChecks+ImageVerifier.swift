@_spi(Tooling) import CarillonExtensionCore
import Foundation

extension FuzzChecks {
    // MARK: - FuzzImageVerifier

    /// `ImageVerifier.verify(bytes:)`: an accepted type's bytes begin with its signature (a JPEG's `FF D8 FF`
    /// unless it warns of stray bytes); an image decided
    /// before its last byte (complete, or damaged where decoders stop) keeps exactly that verdict with bytes
    /// appended (trailing data is tolerated); an accepted image has at most `ImageWarnings.limit` non-empty
    /// warnings; the stream verifier the downloader uses decides exactly the same, fed in pieces of 1, 7, an
    /// input-chosen size and 4096 bytes; and, when `checkFile`, the file reader decides exactly as the
    /// in-memory one.
    ///
    /// Both image targets' checks: ``imageVerdict(_:checkFile:)`` (`FuzzImageVerifier`) and
    /// ``imageStreams(_:decision:)`` (`FuzzImageStream`). What the regression test replays.
    public static func imageVerifier(_ bytes: [UInt8], checkFile: Bool) throws(FuzzFailure) {
        let decision = try checkedVerdict(bytes, checkFile: checkFile)
        try imageStreams(bytes, decision: decision)
    }

    /// ``checkedVerdict(_:checkFile:)`` alone (`FuzzImageVerifier`).
    public static func imageVerdict(_ bytes: [UInt8], checkFile: Bool) throws(FuzzFailure) {
        try checkedVerdict(bytes, checkFile: checkFile)
    }

    /// ``imageStreams(_:decision:)`` alone (`FuzzImageStream`). `verify(bytes:)` is the stream verifier fed
    /// the whole input as one piece: decided here with the four splits, so that a foreign format's head is
    /// described once, not five times.
    public static func imageStreams(_ bytes: [UInt8]) throws(FuzzFailure) {
        let sizes = streamPieceSizes(bytes)
        let decisions = ImageStreamVerifier.decide(bytes, pieceSizes: [bytes.count] + sizes)
        try streamsAgree(sizes, Array(decisions.dropFirst()), decision: decisions[0])
    }

    /// `verify(bytes:)` (`FuzzImageVerifier`): its verdict's invariants, the same verdict with bytes
    /// appended once decided, and (when `checkFile`) from a file. Returns the verdict.
    @discardableResult
    static func checkedVerdict(_ bytes: [UInt8], checkFile: Bool) throws(FuzzFailure) -> Result<VerifiedImage, Outcome> {
        let decision = Result { () throws(Outcome) in try ImageVerifier.verify(bytes: bytes) }
        switch decision {
        case .success(let image):
            switch image.type {
            case .jpeg:
                // libjpeg skips stray bytes after SOI too, with a warning, and so does the verifier.
                try check(bytes.starts(with: [0xFF, 0xD8]), "accepted as JPEG without FF D8")
                // (Past `ImageWarnings.limit` warnings the last one only counts the rest.)
                try check(
                    bytes.count > 2 && (bytes[2] == 0xFF || image.warnings.contains { $0.contains("stray byte") || $0.hasPrefix("and ") }),
                    "accepted as JPEG without FF D8 FF and without a stray-byte warning")
            case .png:
                try check(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "accepted as PNG without its signature")
            case .gif:
                try check(
                    bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)),
                    "accepted as GIF without GIF87a/GIF89a")
                try check(bytes.count >= 13 + 10 + 1 + 2 + 1, "accepted as GIF with fewer bytes than one image needs")
            }
            try check(
                image.warnings.count <= ImageWarnings.limit && image.warnings.allSatisfy { !$0.isEmpty },
                "accepted with warnings \(image.warnings)")
        case .failure(let outcome):
            try check(
                outcome.reason == (bytes.isEmpty ? .emptyBody : .unsupportedType),
                "refused with reason \(outcome.reason.code): \(outcome.detail)")
            try check(!outcome.detail.isEmpty, "refused without a detail")
        }
        var whole = ImageStreamVerifier()
        bytes.withUnsafeBufferPointer { whole.feed($0) }
        if whole.isDecided {
            let padded = Result { () throws(Outcome) in try ImageVerifier.verify(bytes: bytes + [0x00, 0xFF, 0x3B]) }
            try check(padded == decision, "decided before its end, then with bytes appended it is decided \(padded), not \(decision)")
        }
        guard checkFile else { return decision }
        let path = FuzzScratch.path(FuzzScratch.uniqueName("image"))
        guard FuzzScratch.writeFile(bytes, to: path) else { throw FuzzFailure(message: "cannot write \(path)") }
        defer { unlink(path) }
        let fromFile = Result { () throws(Outcome) in try ImageVerifier.verify(fileAt: path) }
        try check(fromFile == decision, "verify(fileAt:) says \(fromFile) but verify(bytes:) says \(decision)")
        return decision
    }

    /// The stream verifier the downloader uses (`FuzzImageStream`) decides exactly as `verify(bytes:)`
    /// (`decision`), with the same words, fed in pieces of 1, 7, an input-chosen size
    /// and 4096 bytes: four whole verifications of each input, a target of their own.
    static func imageStreams(_ bytes: [UInt8], decision: Result<VerifiedImage, Outcome>) throws(FuzzFailure) {
        let sizes = streamPieceSizes(bytes)
        try streamsAgree(sizes, ImageStreamVerifier.decide(bytes, pieceSizes: sizes), decision: decision)
    }

    /// The splits a download is verified in: pieces of 1, 7, an input-chosen size and 4096 bytes (each but
    /// 1 only when the input is longer).
    static func streamPieceSizes(_ bytes: [UInt8]) -> [Int] {
        let oddSize = Int(bytes.first ?? 0) % 61 + 2
        return [1, 7, oddSize, 4096].filter { $0 == 1 || $0 < bytes.count }
    }

    /// Verifying while downloading must decide the same, with the same words, however the body is split:
    /// `streamed[i]` (split in pieces of `sizes[i]`) is `decision`.
    static func streamsAgree(
        _ sizes: [Int], _ streamed: [Result<VerifiedImage, Outcome>], decision: Result<VerifiedImage, Outcome>
    ) throws(FuzzFailure) {
        for (pieceSize, streamed) in zip(sizes, streamed) {
            try check(
                streamed == decision, "streamed in pieces of \(pieceSize) it is decided \(streamed), but verify(bytes:) says \(decision)")
        }
    }
}
