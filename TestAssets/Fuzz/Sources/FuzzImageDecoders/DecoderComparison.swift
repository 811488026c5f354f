import CReferenceDecoders

@_spi(Tooling) @testable import CarillonExtensionCore

/// The tool's image verdict against a reference decoder's, and the documented differences
/// (README "Image verdicts and the reference decoders"), each a case of ``Difference``.
enum DecoderComparison {
    /// Why a disagreement is expected: the tool does not decode entropy-coded data, or follows a rule
    /// of its own on purpose.
    enum Difference: String, CaseIterable {
        /// The decoder failed in the entropy-coded data (a zlib stream, LZW codes, a DCT coefficient).
        case entropyData = "entropy-coded data"
        /// PNG: the decoder had its rows before reaching the chunk the tool refuses (an IDAT after the
        /// end of the zlib stream; IDATs interrupted after it ended).
        case pastTheImageData = "PNG damage past the end of the zlib stream"
        /// JPEG: cut inside a header segment after a scan; libjpeg-turbo's memory source pads with
        /// `FF D9` bytes and may read them as the segment's contents.
        case paddedTruncation = "JPEG cut inside a header segment"
        /// JPEG: a reserved marker inside a scan with restart markers; libjpeg-turbo resynchronises past
        /// it where a restart marker is due (and refuses it in the last restart interval).
        case resynchronisedMarker = "JPEG reserved marker in a scan with restart markers"
        /// GIF: giflib reads any `GIFxxx` version; the tool takes `GIF87a` and `GIF89a` only.
        case gifVersion = "GIF version other than 87a/89a"
        /// GIF: an LZW minimum code size outside 2...8 (giflib tries up to 11).
        case gifCodeSize = "GIF LZW minimum code size outside 2...8"
    }

    /// nil when they agree (on showing the image and, when both show it, on its width and height) or
    /// differ for a documented reason; otherwise what went wrong.
    static func compare(_ bytes: [UInt8]) -> String? {
        guard let (format, decoder) = decode(bytes), decoder.decoded >= 0 else { return nil }
        let tool = ImageStreamVerifier.decide(bytes, pieceSize: bytes.count)
        let toolShows = (try? tool.get()) != nil
        let decoderShows = decoder.decoded == 1
        if case .success(let image) = tool, decoderShows, image.width != Int(decoder.width) || image.height != Int(decoder.height) {
            return "the tool reads a \(image.width)×\(image.height) \(image.type) but \(format) a \(decoder.width)×\(decoder.height) one"
        }
        guard toolShows != decoderShows else { return nil }
        if difference(bytes, format: format, tool: tool, decoder: decoder) != nil { return nil }
        let said = message(decoder)
        return "the tool says \(describe(tool)) but \(format) \(decoderShows ? "shows the image" : "does not") (\(said))"
    }

    /// The documented difference that explains a disagreement, if one does.
    static func difference(
        _ bytes: [UInt8], format: String, tool: Result<VerifiedImage, Outcome>, decoder: carillon_decode_result
    ) -> Difference? {
        let detail: String
        switch tool {
        case .success:
            return decoder.entropy == 1 ? .entropyData : nil
        case .failure(let outcome):
            detail = outcome.detail
        }
        switch format {
        case "giflib":
            if !bytes.starts(with: Array("GIF87a".utf8)) && !bytes.starts(with: Array("GIF89a".utf8)) { return .gifVersion }
            if detail.contains("invalid LZW minimum code size") { return .gifCodeSize }
        case "libjpeg-turbo":
            if detail.hasPrefix("JPEG truncated in segment") { return .paddedTruncation }
            if detail.contains("which has restart markers") { return .resynchronisedMarker }
        case "libpng":
            if decisionOffset(bytes) > decoder.consumed { return .pastTheImageData }
            if detail.contains("IDAT chunks are not consecutive") { return .pastTheImageData }
        default:
            break
        }
        return nil
    }

    /// The reference decoder for the bytes' signature and its answer.
    static func decode(_ bytes: [UInt8]) -> (String, carillon_decode_result)? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            if bytes.starts(with: ImageSignature.png) { return ("libpng", carillon_decode_png(base, bytes.count)) }
            if bytes.starts(with: ImageSignature.jpeg) { return ("libjpeg-turbo", carillon_decode_jpeg(base, bytes.count)) }
            if bytes.starts(with: Array("GIF".utf8)) { return ("giflib", carillon_decode_gif(base, bytes.count)) }
            return nil
        }
    }

    /// How many bytes the stream verifier takes before its decision (all of them if it waits for the end).
    static func decisionOffset(_ bytes: [UInt8]) -> Int {
        var verifier = ImageStreamVerifier()
        return bytes.withUnsafeBufferPointer { all in
            for offset in all.indices {
                verifier.feed(UnsafeBufferPointer(rebasing: all[offset...offset]))
                if verifier.isDecided { return offset + 1 }
            }
            return all.count
        }
    }

    /// Both verdicts on one line.
    static func summary(_ bytes: [UInt8]) -> String {
        let tool = describe(ImageStreamVerifier.decide(bytes, pieceSize: bytes.count))
        guard let (format, decoder) = decode(bytes) else { return "tool: \(tool) | no decoder" }
        let said = message(decoder)
        return "tool: \(tool) | \(format): decoded \(decoder.decoded), entropy \(decoder.entropy), \(decoder.warnings) warnings, \(said)"
    }

    static func message(_ decoder: carillon_decode_result) -> String {
        withUnsafeBytes(of: decoder.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    static func describe(_ result: Result<VerifiedImage, Outcome>) -> String {
        switch result {
        case .success(let image):
            return "attached \(image.type)" + (image.warnings.isEmpty ? "" : " with warnings \(image.warnings)")
        case .failure(let outcome):
            return "\(outcome.reason.code): \(outcome.detail)"
        }
    }
}
