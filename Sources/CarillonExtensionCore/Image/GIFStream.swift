/// The GIF rules, a block at a time, as giflib 5.2 reads the blocks (`DGifGetRecordType`,
/// `DGifGetImageDesc`, `DGifGetLine`, `DGifGetExtension`), where an image shows once one frame is
/// decoded whole:
///
/// - `GIF87a` or `GIF89a`; the logical screen (a zero width or height is a warning: giflib and viewers
///   size the picture from its frames); the global colour table its flags announce;
/// - then blocks: extensions (`21`, a label, sub-blocks up to a 0 terminator), images (`2C`, a 9-byte
///   descriptor of nonzero width and height, an optional local colour table, an LZW minimum code
///   size, then data sub-blocks up to a 0 terminator, at least one byte of them), up to the trailer
///   `3B`. The code size must be 2...8, the GIF89a specification's range (it codes even 2-colour
///   images with 2); giflib reads up to 11, but no conforming encoder writes anything else;
/// - before the first image is complete, any fault — an unknown block, a bad descriptor, the file
///   ending — is refused, and so is a trailer with no image; once one image is complete, a fault
///   (the trailer missing, the file cut inside a later frame, an unknown block) is a warning: giflib
///   stops there with the complete frames, which is what shows.
///
/// Bytes after the trailer are tolerated. Animated GIFs (NETSCAPE2.0 loop extension, graphic control
/// extensions, many frames) are GIFs like any other. The LZW codes are not decoded (for speed).
///
/// The accepted image's size is the logical screen's; its frame count is the image descriptors read
/// before the decision (a frame cut short included: a GIF cut inside its third frame has 3).
struct GIFStream {
    private enum State {
        case header
        /// Passing over `remaining` bytes (a colour table), then `next`; `truncated` if the bytes end first.
        case skip(remaining: Int, truncated: String, next: Next)
        case block
        case extensionLabel
        case descriptor
        case codeSize
        case subBlockSize
        case subBlockData(remaining: Int)
    }

    private enum Next {
        case block
        case codeSize
    }

    private var state = State.header
    /// Bytes consumed before the current piece, so that `input[index]` is at offset `base + index`.
    private var consumed = 0
    private var gathered = Gathered()
    /// Images decoded whole (their data sub-blocks ended).
    private var images = 0
    /// Image descriptors read whole: the frame count, a frame cut short included.
    private var frames = 0
    /// The logical screen's size.
    private var width = 0
    private var height = 0
    /// Where the current sub-blocks are, for messages ("an extension", "the data of image 2").
    private var place = ""
    private var inImageData = false
    private var payload = 0
    private var warnings = ImageWarnings()

    private var imageNumber: Int { images + 1 }

    mutating func consume(_ input: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> StreamVerdict {
        let base = consumed - index
        defer { consumed = base + index }
        while index < input.count {
            switch state {
            case .header:
                guard gathered.fill(13, from: input, at: &index) else { return .pending }
                readHeader()
            case .skip(let remaining, let truncated, let next):
                let take = min(remaining, input.count - index)
                index += take
                if remaining > take {
                    state = .skip(remaining: remaining - take, truncated: truncated, next: next)
                } else {
                    state = next == .block ? .block : .codeSize
                }
            case .block:
                let introducer = input[index]
                switch introducer {
                case 0x21:
                    state = .extensionLabel
                case 0x2C:
                    state = .descriptor
                case 0x3B:
                    guard images > 0 else { return .refused(refusal("GIF has no image")) }
                    return warnings.accepted(.gif, width: width, height: height, frames: frames)
                default:
                    return fault("GIF has an unknown block \(hexByte(introducer)) at offset \(base + index)")
                }
                index += 1
            case .extensionLabel:
                index += 1
                startSubBlocks("an extension", imageData: false)
            case .descriptor:
                guard gathered.fill(9, from: input, at: &index) else { return .pending }
                if let verdict = readDescriptor() { return verdict }
            case .codeSize:
                let codeSize = input[index]
                guard (2...8).contains(codeSize) else {
                    return fault("GIF image \(imageNumber) has an invalid LZW minimum code size \(codeSize) (2...8 are valid)")
                }
                index += 1
                startSubBlocks("the data of image \(imageNumber)", imageData: true)
            case .subBlockSize:
                let size = Int(input[index])
                index += 1
                if size > 0 {
                    payload += size
                    state = .subBlockData(remaining: size)
                } else if inImageData {
                    guard payload > 0 else { return fault("GIF image \(imageNumber) has no data") }
                    images += 1
                    state = .block
                } else {
                    state = .block
                }
            case .subBlockData(let remaining):
                let take = min(remaining, input.count - index)
                index += take
                state = remaining > take ? .subBlockData(remaining: remaining - take) : .subBlockSize
            }
        }
        return .pending
    }

    /// The logical screen descriptor, gathered: the screen's size (a zero one is a warning: decoders
    /// size the image from its frames), then the global colour table to skip, if any.
    @inline(__always)
    private mutating func readHeader() {
        width = gathered.uint16LittleEndian(at: 6)
        height = gathered.uint16LittleEndian(at: 8)
        let flags = gathered[10]
        gathered.reset()
        if width == 0 || height == 0 {
            warnings.add("GIF logical screen has zero width or height (\(width)×\(height)); decoders size the image from its frames")
        }
        state =
            flags & 0x80 != 0
            ? .skip(remaining: Self.colourTableSize(flags), truncated: "GIF truncated in its global colour table", next: .block)
            : .block
    }

    /// An image descriptor, gathered: one more frame, a fault when it has no area, then its local colour
    /// table to skip, if any. Nil: go on.
    @inline(__always)
    private mutating func readDescriptor() -> StreamVerdict? {
        frames += 1
        let frameWidth = gathered.uint16LittleEndian(at: 4)
        let frameHeight = gathered.uint16LittleEndian(at: 6)
        let flags = gathered[8]
        gathered.reset()
        guard frameWidth != 0 && frameHeight != 0 else {
            return fault("GIF image \(imageNumber) has zero width or height (\(frameWidth)×\(frameHeight))")
        }
        state =
            flags & 0x80 != 0
            ? .skip(
                remaining: Self.colourTableSize(flags),
                truncated: "GIF truncated in the colour table of image \(imageNumber)", next: .codeSize)
            : .codeSize
        return nil
    }

    /// A fault: a refusal before the first image is complete; after, giflib stops with the frames it
    /// has, which show.
    private func fault(_ detail: String) -> StreamVerdict {
        guard images > 0 else { return .refused(refusal(detail)) }
        var warnings = warnings
        warnings.add(images == 1 ? "\(detail); its first image shows" : "\(detail); its first \(images) images show")
        return warnings.accepted(.gif, width: width, height: height, frames: frames)
    }

    /// 3 × 2^(N+1) bytes for the size field N in a descriptor's flags.
    private static func colourTableSize(_ flags: UInt8) -> Int {
        3 << (Int(flags & 0x07) + 1)
    }

    private mutating func startSubBlocks(_ place: String, imageData: Bool) {
        self.place = place
        inImageData = imageData
        payload = 0
        state = .subBlockSize
    }

    /// The decision when the bytes end before the trailer.
    func end() -> Result<VerifiedImage, Outcome> {
        let detail: String
        switch state {
        case .header:
            detail = "GIF truncated in its header"
        case .skip(_, let truncated, _):
            detail = truncated
        case .block:
            detail = images == 0 ? "GIF truncated before its first image" : "GIF has no trailer"
        case .extensionLabel:
            detail = "GIF truncated in an extension"
        case .descriptor:
            detail = "GIF truncated in the descriptor of image \(imageNumber)"
        case .codeSize:
            detail = "GIF truncated before the data of image \(imageNumber)"
        case .subBlockSize, .subBlockData:
            detail = "GIF truncated in \(place)"
        }
        switch fault(detail) {
        case .accepted(let image): return .success(image)
        case .refused(let outcome): return .failure(outcome)
        case .pending: return .failure(refusal(detail))
        }
    }
}
