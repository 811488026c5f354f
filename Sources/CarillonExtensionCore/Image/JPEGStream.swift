/// The JPEG rules, a marker at a time, as libjpeg-turbo 2.1 reads the markers (`jdmarker.c`):
///
/// - `FF D8`, then markers: fill bytes (`FF FF …`) are skipped; stray bytes between segments (and a
///   stuffed `FF 00` there) are skipped with a warning, as libjpeg skips them; `RSTn` and `TEM` stand
///   alone; a second `SOI`, an unsupported frame type (`SOF3` lossless, `SOF5`–`SOF7` and
///   `SOF13`–`SOF15` hierarchical, `SOF11`, `JPG`) and a reserved marker (`JPGn`, `DHP`, `EXP`,
///   `RESn`) are refused.
/// - The frame, table and scan segments are read whole and checked by ``JPEGHeaders``. `APPn`, `COM`
///   and `DNL` are skipped by their length; one shorter than 2 is read on after (a warning).
/// - Each scan's entropy-coded data is not decoded, only skipped to its next marker (past stuffed
///   `FF 00`, fill bytes and `RSTn`), and the walk goes on — a progressive JPEG has many scans, with
///   tables between them — up to `EOI` (`FF D9`). Bytes after `EOI` are tolerated.
/// - A file that ends once a scan has begun shows what was decoded (libjpeg supplies an `EOI`): a
///   warning — unless it ends inside a header segment (`SOF`, `DHT`, `DQT`, `SOS`, `DRI`, `DAC`), which
///   libjpeg then misreads. Ending before the first scan, or `EOI` there, is refused.
struct JPEGStream {
    private enum State {
        /// Between segments: expecting the `FF` that starts a marker (anything else is a stray byte).
        case lead
        /// After a marker's first `FF`: fill bytes, then the marker.
        case marker
        case length
        /// A segment whose contents are checked: gathered whole.
        case header(remaining: Int)
        /// A segment passed over (`APPn`, `COM`, `DNL`).
        case skip(remaining: Int)
        case entropy
        /// Entropy-coded data just had an `FF`.
        case entropyFF
    }

    private var state = State.lead
    /// Bytes consumed before the current piece, so that `input[index]` is at offset `base + index`.
    private var consumed = 0
    private var soiLeft = 2
    private var leadOffset = 0
    private var marker: UInt8 = 0
    private var payload: [UInt8] = []
    private var gathered = Gathered()
    private var headers = JPEGHeaders()
    /// A scan with restart markers was ended by a marker below `SOF0` (`TEM`, reserved): libjpeg
    /// resynchronises, scanning on to the next marker of `SOF0` or above, and so does this flag.
    private var endsScanWithRestarts = false
    private var strayBytes = 0
    private var firstStrayOffset = 0
    private var warnings = ImageWarnings()

    mutating func consume(_ input: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> StreamVerdict {
        let base = consumed - index
        defer { consumed = base + index }
        if soiLeft > 0 {
            let skip = min(soiLeft, input.count - index)
            soiLeft -= skip
            index += skip
        }
        while index < input.count {
            switch state {
            case .lead:
                let rest = UnsafeBufferPointer(rebasing: input[index...])
                let skipped = rest.firstIndex(of: 0xFF) ?? rest.count
                if skipped > 0 { stray(skipped, at: base + index) }
                index += skipped
                guard index < input.count else { return .pending }
                leadOffset = base + index
                index += 1
                state = .marker
            case .marker:
                let byte = input[index]
                index += 1
                if byte == 0xFF { continue }
                if byte == 0x00 {
                    // A stuffed zero between segments: libjpeg discards it with the stray bytes.
                    stray(2, at: leadOffset)
                    state = .lead
                    continue
                }
                marker = byte
                if let verdict = markerFound() { return verdict }
            case .length:
                guard gathered.fill(2, from: input, at: &index) else { return .pending }
                if let verdict = lengthGathered() { return verdict }
            case .header(let remaining):
                let take = min(remaining, input.count - index)
                payload.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<index + take]))
                index += take
                state = .header(remaining: remaining - take)
                if remaining == take, let verdict = segmentEnded() { return verdict }
            case .skip(let remaining):
                let take = min(remaining, input.count - index)
                index += take
                state = remaining > take ? .skip(remaining: remaining - take) : .lead
            case .entropy:
                // A rebased buffer counts from 0: `skipped` bytes before the FF.
                let rest = UnsafeBufferPointer(rebasing: input[index...])
                guard let skipped = rest.firstIndex(of: 0xFF) else {
                    index = input.count
                    return .pending
                }
                leadOffset = base + index + skipped
                index += skipped + 1
                state = .entropyFF
            case .entropyFF:
                switch input[index] {
                case 0xFF:
                    index += 1
                case 0x00, 0xD0...0xD7:
                    index += 1
                    state = .entropy
                default:
                    // The FF starts the next marker; this byte is the marker itself.
                    endsScanWithRestarts = headers.restartInterval > 0
                    state = .marker
                }
            }
        }
        return .pending
    }

    /// A segment's length, gathered: a segment the decoders skip is skipped (an invalid length is a
    /// warning: they read on after it), any other is read as a header. Nil: go on.
    @inline(__always)
    private mutating func lengthGathered() -> StreamVerdict? {
        let length = gathered.uint16BigEndian(at: 0)
        gathered.reset()
        if Self.isSkipped(marker) {
            if length < 2 {
                warnings.add(
                    "JPEG \(Self.segmentName(marker)) at offset \(leadOffset) has an invalid length \(length); decoders read on after it")
                state = .lead
            } else {
                state = .skip(remaining: length - 2)
            }
            return nil
        }
        guard length >= 2 else {
            return .refused(refusal("JPEG segment \(Self.segmentName(marker)) has an invalid length \(length)"))
        }
        payload.removeAll(keepingCapacity: true)
        state = .header(remaining: length - 2)
        return length == 2 ? segmentEnded() : nil
    }

    private mutating func stray(_ count: Int, at offset: Int) {
        if strayBytes == 0 { firstStrayOffset = offset }
        strayBytes += count
    }

    /// What a marker byte (after its `FF`) means.
    private mutating func markerFound() -> StreamVerdict? {
        defer { if marker >= 0xC0 && !(0xD0...0xD7).contains(marker) { endsScanWithRestarts = false } }
        switch marker {
        case 0x01, 0xD0...0xD7:
            state = .lead
        case 0xD8:
            return .refused(refusal("JPEG has a second SOI marker at offset \(leadOffset)"))
        case 0xD9:
            guard headers.scans > 0 else { return .refused(refusal("JPEG ends (EOI) before any image data")) }
            return finalWarnings().accepted(.jpeg, width: headers.width, height: headers.height)
        case 0xC3, 0xC5, 0xC6, 0xC7, 0xCB, 0xCD, 0xCE, 0xCF:
            let kind =
                marker == 0xC3
                ? "lossless" : marker == 0xCB ? "lossless arithmetic" : marker > 0xCC ? "hierarchical arithmetic" : "hierarchical"
            return .refused(refusal("JPEG frame type SOF\(marker - 0xC0) (\(kind)) is not supported by decoders"))
        case 0xC8:
            return .refused(refusal("JPEG frame type JPG (0xC8, reserved) is not supported by decoders"))
        case 0xC0, 0xC1, 0xC2, 0xC4, 0xC9, 0xCA, 0xCC, 0xDA, 0xDB, 0xDC, 0xDD, 0xE0...0xEF, 0xFE:
            state = .length
        default:
            // Inside a scan with restart markers, libjpeg scans past such a marker where a restart marker
            // is due, and refuses it after the last one; which interval it is in, only decoding tells.
            let place = endsScanWithRestarts ? " (in the data of scan \(headers.scans), which has restart markers)" : ""
            return .refused(refusal("JPEG has a reserved marker \(hexByte(marker)) at offset \(leadOffset)\(place), which decoders refuse"))
        }
        return nil
    }

    /// The checks made once a whole header segment is there.
    private mutating func segmentEnded() -> StreamVerdict? {
        do {
            switch marker {
            case 0xC4: try headers.huffmanTables(payload)
            case 0xCC: try headers.arithmeticConditioning(payload)
            case 0xDA: try headers.scan(payload)
            case 0xDB: try headers.quantisationTables(payload)
            case 0xDD: try headers.restartInterval(payload)
            default: try headers.frame(marker, payload)
            }
        } catch {
            return .refused(error)
        }
        state = marker == 0xDA ? .entropy : .lead
        return nil
    }

    /// `APPn`, `COM` and `DNL`: passed over by their length, never refused for their contents.
    private static func isSkipped(_ marker: UInt8) -> Bool {
        (0xE0...0xEF).contains(marker) || marker == 0xFE || marker == 0xDC
    }

    private static func segmentName(_ marker: UInt8) -> String {
        switch marker {
        case 0xC4: return "DHT"
        case 0xCC: return "DAC"
        case 0xC0...0xCF: return "SOF\(marker - 0xC0)"
        case 0xDA: return "SOS"
        case 0xDB: return "DQT"
        case 0xDC: return "DNL"
        case 0xDD: return "DRI"
        case 0xE0...0xEF: return "APP\(marker - 0xE0)"
        case 0xFE: return "COM"
        default: return "FF \(hexByte(marker).dropFirst(2))"
        }
    }

    /// The warnings so far, with the stray bytes and the scan headers' own.
    private func finalWarnings() -> ImageWarnings {
        var all = warnings
        for warning in headers.warnings.prefix(ImageWarnings.limit) { all.add(warning) }
        if strayBytes > 0 {
            all.add(
                "JPEG has \(counted(strayBytes, "stray byte")) between segments (the first at offset \(firstStrayOffset)); decoders skip them"
            )
        }
        return all
    }

    /// The decision when the bytes end before `EOI`.
    func end() -> Result<VerifiedImage, Outcome> {
        let scans = headers.scans
        switch state {
        case .header:
            return .failure(refusal("JPEG truncated in segment \(Self.segmentName(marker))"))
        case .length where !Self.isSkipped(marker):
            return .failure(refusal("JPEG truncated in segment \(Self.segmentName(marker))"))
        case _ where scans == 0:
            return .failure(refusal("JPEG truncated before its image data (no SOS segment)"))
        default:
            var warnings = finalWarnings()
            let place: String
            switch state {
            case .entropy, .entropyFF: place = "inside scan \(scans)"
            default: place = "after scan \(scans)"
            }
            warnings.add("JPEG has no EOI marker: the data ends \(place); only part of the image may show")
            return .success(warnings.image(.jpeg, width: headers.width, height: headers.height))
        }
    }
}
