/// The image decision (SPEC §2 "Type"; ``ImageVerifier`` sums it up) made on the bytes as they arrive,
/// so that a download is verified while it streams to its file instead of being read back afterwards
/// (TestAssets/Bench/README.md, "Measurements behind the code"). ``ImageVerifier`` runs on it too:
/// this is the one implementation of the rules, which are ``PNGStream``'s, ``JPEGStream``'s (with
/// ``JPEGHeaders``) and ``GIFStream``'s.
///
/// Feed every body byte, in order and in pieces of any size, then call ``finish()``. The decision, its
/// detail, the image's geometry (``VerifiedImage``) and its warnings are the same however the bytes are
/// split; the tests and the image fuzz target check exactly that. Memory is bounded: at most 1 KiB of the
/// head (to name a foreign format), one JPEG header segment (under 64 KiB) and a few header bytes,
/// whatever the size.
///
/// Once the image is decided (PNG `IEND`, JPEG `EOI`, GIF trailer, damage after which decoders stop
/// but show what they have, or a refusal), later bytes are ignored: decoders ignore what follows.
///
/// ```swift
/// var verifier = ImageStreamVerifier()
/// for piece in body { piece.withUnsafeBufferPointer { verifier.feed($0) } }
/// let image = try verifier.finish().get()   // image.type, .width, .height, .frames, .warnings
/// ```
@_spi(Tooling) public struct ImageStreamVerifier: Sendable {
    private enum Phase {
        /// Fewer than 8 bytes so far: not enough to tell PNG, JPEG and GIF apart.
        case detecting
        case png
        case jpeg
        case gif
        /// Not a JPEG, PNG or GIF: the head is kept (up to 1 KiB) for the detail.
        case foreign
        case decided(Result<VerifiedImage, Outcome>)
    }

    private var phase = Phase.detecting
    /// The first bytes: up to 8 while detecting, up to 1 KiB for a foreign format.
    private var head: [UInt8] = []
    private var png = PNGStream()
    private var jpeg = JPEGStream()
    private var gif = GIFStream()

    /// How many bytes a format needs to be told apart (the PNG signature's length).
    private static let detectionLength = 8
    /// How much of a foreign file is kept to describe it (``ImageVerifier``'s head).
    private static let foreignHeadLength = 1024

    public init() {}

    /// Takes the next bytes of the body.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch phase {
        case .decided:
            return
        case .foreign:
            let wanted = min(Self.foreignHeadLength - head.count, bytes.count)
            if wanted > 0 { head.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<wanted])) }
            return
        case .detecting:
            // Appended as one buffer (a copy), not as a slice (read a byte at a time).
            let wanted = min(Self.detectionLength - head.count, bytes.count)
            head.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<wanted]))
            guard head.count == Self.detectionLength else { return }
            start()
            feed(UnsafeBufferPointer(rebasing: bytes[wanted...]))
        case .png, .jpeg, .gif:
            consume(bytes)
        }
    }

    /// The decision once every byte has been fed: the type, its geometry and its warnings, or why not
    /// (``Reason/emptyBody`` or ``Reason/unsupportedType``, with the same detail as ``ImageVerifier``).
    public func finish() -> Result<VerifiedImage, Outcome> {
        switch phase {
        case .decided(let result):
            return result
        case .detecting:
            // Fewer than 8 bytes in all: decided on what there is, as a longer head would be.
            guard !head.isEmpty else { return .failure(Outcome(.emptyBody, "the image is empty (0 bytes)")) }
            var whole = self
            whole.start()
            return whole.finish()
        case .foreign:
            return .failure(refusal("not a JPEG, PNG or GIF: \(ForeignFormat.describe(head))"))
        case .png:
            return png.end()
        case .jpeg:
            return jpeg.end()
        case .gif:
            return gif.end()
        }
    }

    /// Whether the decision is made (the image is complete or refused): later bytes change nothing.
    public var isDecided: Bool {
        if case .decided = phase { return true }
        return false
    }

    /// Chooses the format from the head (its first 8 bytes, or all there are) and has its parser read the
    /// head: the parsers count offsets from the file's first byte.
    private mutating func start() {
        if head.starts(with: ImageSignature.png) {
            phase = .png
        } else if head.starts(with: ImageSignature.jpeg) {
            phase = .jpeg
        } else if head.starts(with: ImageSignature.gif87) || head.starts(with: ImageSignature.gif89) {
            phase = .gif
        } else {
            phase = .foreign
            return
        }
        let head = head
        head.withUnsafeBufferPointer { consume($0) }
    }

    /// Feeds `bytes` in pieces of `pieceSize` (the last one may be shorter) and finishes: the decision as a
    /// download split that way would reach it. For tests and the fuzzer.
    public static func decide(_ bytes: [UInt8], pieceSize: Int) -> Result<VerifiedImage, Outcome> {
        fed(bytes, pieceSize: pieceSize).finish()
    }

    /// ``decide(_:pieceSize:)`` for each of `pieceSizes`, in order. A foreign format's head is described
    /// once for all the splits that gathered the same head (the description is a function of the head
    /// alone), and again for a split that gathered another. For tests and the fuzzer, which compares the
    /// splits' decisions.
    public static func decide(_ bytes: [UInt8], pieceSizes: [Int]) -> [Result<VerifiedImage, Outcome>] {
        var described: (head: [UInt8], decision: Result<VerifiedImage, Outcome>)?
        return pieceSizes.map { pieceSize in
            let verifier = fed(bytes, pieceSize: pieceSize)
            guard case .foreign = verifier.phase else { return verifier.finish() }
            if let described, described.head == verifier.head { return described.decision }
            let decision = verifier.finish()
            described = (verifier.head, decision)
            return decision
        }
    }

    /// A verifier fed `bytes` in pieces of `pieceSize` (the last one may be shorter), not yet finished.
    private static func fed(_ bytes: [UInt8], pieceSize: Int) -> ImageStreamVerifier {
        var verifier = ImageStreamVerifier()
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(start + max(pieceSize, 1), all.count)
                verifier.feed(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        return verifier
    }

    private mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let verdict: StreamVerdict
        switch phase {
        case .png: verdict = png.consume(bytes, &index)
        case .jpeg: verdict = jpeg.consume(bytes, &index)
        case .gif: verdict = gif.consume(bytes, &index)
        default: return
        }
        switch verdict {
        case .pending: break
        case .accepted(let image): phase = .decided(.success(image))
        case .refused(let outcome): phase = .decided(.failure(outcome))
        }
    }
}
