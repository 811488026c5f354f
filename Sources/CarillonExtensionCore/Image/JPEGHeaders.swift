/// What libjpeg-turbo 2.1 requires of a JPEG's header segments — the frame, the tables and each scan's
/// header — for it to decode the image: the state it keeps across segments, checked as each whole
/// segment arrives (``JPEGStream`` walks the markers and hands the segments over).
///
/// - **Frame** (`SOF0`, `SOF1`, `SOF2`, `SOF9`, `SOF10`: sequential or progressive, Huffman or
///   arithmetic; every other `SOFn` — lossless, hierarchical — is refused before it gets here): only
///   one; a length of exactly 8 + 3 per component; precision 8 (12-bit needs a 12-bit build); width and
///   height of 1...65,500 (a zero height is refused: libjpeg does not support a `DNL` height);
///   1 (grey), 3 (YCbCr or RGB) or 4 (CMYK or YCCK) components — 2, or 5...10, decode to no colour
///   space; sampling factors 1...4 that each divide the largest (libjpeg upsamples by whole factors).
/// - **DQT**: tables of 1 + 64 or 1 + 128 bytes (8- or 16-bit), index 0...3, filling the segment
///   exactly. A component's table must be defined before the first scan that holds the component.
/// - **DHT**: tables of 1 + 16 + n bytes, class 0 or 1, index 0...3, n ≤ 256, filling the segment
///   exactly. A table is checked when a scan uses it: its code lengths must fit (no code of all ones)
///   and a DC table's symbols be 0...15. In a sequential frame, tables 0 and 1 that a file never defines
///   are the standard ones (libjpeg-turbo's Motion-JPEG default); every other table must be defined
///   before use.
/// - **DRI** of length 4; **DAC** pairs with index 0...31 and, for DC, lower bound ≤ upper.
/// - **Scan** (`SOS`): after the frame; 1...4 components, a length of exactly 6 + 2 each, each a
///   component of the frame, none twice; an interleaved scan's blocks per MCU ≤ 10; progressive scans
///   with valid spectral selection and successive approximation (a DC scan `Se` = 0, an AC scan of one
///   component with `Ss` ≤ `Se` ≤ 63, `Al` = `Ah` - 1 when refining, `Al` ≤ 13); a sequential frame
///   whose first scan holds every component has no second scan.
struct JPEGHeaders {
    private struct Component {
        var id: UInt8
        var horizontal: Int
        var vertical: Int
        var table: Int
        /// Its quantisation table was fixed by its first scan.
        var latched = false
    }

    /// The four DHT slots of one class, a bit per table index (no arrays: a verifier is made per download
    /// and per test piece size, and allocations are what ASan makes slow).
    private struct HuffmanTables {
        var defined: UInt8 = 0
        var invalidForAC: UInt8 = 0
        var invalidForDC: UInt8 = 0

        mutating func define(_ index: Int, fits: Bool, dcSymbols: Bool) {
            let bit = UInt8(1) << index
            defined |= bit
            invalidForAC = fits ? invalidForAC & ~bit : invalidForAC | bit
            invalidForDC = fits && dcSymbols ? invalidForDC & ~bit : invalidForDC | bit
        }
    }

    private(set) var sawFrame = false
    private(set) var scans = 0
    private var progressive = false
    private var arithmetic = false
    private var components: [Component] = []
    /// A sequential frame whose first scan held every component: no further scan is decoded.
    private var singleScan = false
    /// DQT tables defined, a bit per index.
    private var quantisation: UInt8 = 0
    private var dc = HuffmanTables()
    private var ac = HuffmanTables()

    /// The frame's size, once its header is checked (0 before).
    private(set) var width = 0
    private(set) var height = 0

    /// Warnings the segments so far deserve (libjpeg's own).
    private(set) var warnings: [String] = []

    /// A frame header `SOFn` (`marker` is C0, C1, C2, C9 or CA) and its payload (after the length).
    mutating func frame(_ marker: UInt8, _ payload: [UInt8]) throws(Outcome) {
        let name = "SOF\(marker - 0xC0)"
        guard !sawFrame else { throw refusal("JPEG has a second frame header (\(name))") }
        guard payload.count >= 6 else { throw refusal("JPEG \(name) segment is too short (\(payload.count + 2) bytes)") }
        let precision = payload[0]
        let height = Int(payload[1]) << 8 | Int(payload[2])
        let width = Int(payload[3]) << 8 | Int(payload[4])
        let count = Int(payload[5])
        guard height != 0 else { throw refusal("JPEG \(name) has zero height (a height given later by DNL is not supported)") }
        guard width != 0 else { throw refusal("JPEG \(name) has zero width") }
        guard count != 0 else { throw refusal("JPEG \(name) has 0 components") }
        guard payload.count == 6 + 3 * count else {
            throw refusal("JPEG \(name) has length \(payload.count + 2), not \(8 + 3 * count) for \(counted(count, "component"))")
        }
        guard precision == 8 else { throw refusal("JPEG \(name) has precision \(precision) (only 8-bit samples decode)") }
        guard width <= 65_500 && height <= 65_500 else {
            throw refusal("JPEG \(name) size \(width)×\(height) is over 65,500 pixels a side")
        }
        guard [1, 3, 4].contains(count) else {
            throw refusal("JPEG \(name) has \(count) components (1, 3 or 4 make an image that displays)")
        }
        components = (0..<count).map { index in
            let at = 6 + 3 * index
            return Component(
                id: payload[at], horizontal: Int(payload[at + 1] >> 4), vertical: Int(payload[at + 1] & 0x0F),
                table: Int(payload[at + 2]))
        }
        for component in components
        where !(1...4).contains(component.horizontal) || !(1...4).contains(component.vertical) {
            throw refusal(
                "JPEG \(name) component \(component.id) has sampling factors \(component.horizontal)×\(component.vertical) (1...4 are valid)"
            )
        }
        let largest = components.reduce((1, 1)) { (max($0.0, $1.horizontal), max($0.1, $1.vertical)) }
        for component in components where largest.0 % component.horizontal != 0 || largest.1 % component.vertical != 0 {
            throw refusal(
                "JPEG \(name) component \(component.id) has sampling factors \(component.horizontal)×\(component.vertical), which do not divide the largest \(largest.0)×\(largest.1)"
            )
        }
        progressive = marker == 0xC2 || marker == 0xCA
        arithmetic = marker == 0xC9 || marker == 0xCA
        (self.width, self.height) = (width, height)
        sawFrame = true
    }

    /// A DQT payload.
    mutating func quantisationTables(_ payload: [UInt8]) throws(Outcome) {
        var at = 0
        while at < payload.count {
            let index = Int(payload[at] & 0x0F)
            let size = payload[at] >> 4 == 0 ? 64 : 128
            guard index < 4 else { throw refusal("JPEG DQT defines table \(index) (0...3 are valid)") }
            guard payload.count - at - 1 >= size else {
                throw refusal("JPEG DQT has length \(payload.count + 2), which does not fit its tables")
            }
            quantisation |= 1 << index
            at += 1 + size
        }
    }

    /// A DHT payload (libjpeg's `get_dht`; the contents are checked when a scan uses the table).
    mutating func huffmanTables(_ payload: [UInt8]) throws(Outcome) {
        var at = 0
        var left = payload.count
        while left > 16 {
            let selector = Int(payload[at])
            var total = 0
            for length in 1...16 { total += Int(payload[at + length]) }
            left -= 17
            guard total <= 256 && total <= left else {
                throw refusal("JPEG DHT table \(hexByte(UInt8(selector))) has \(total) codes, more than fit")
            }
            let fits = Self.codeLengthsFit(payload, counts: at + 1)
            let symbols = payload[(at + 17)..<(at + 17 + total)]
            left -= total
            at += 17 + total
            let isAC = selector & 0x10 != 0
            let index = isAC ? selector - 0x10 : selector
            guard index < 4 else {
                throw refusal("JPEG DHT defines table \(hexByte(UInt8(selector))) (classes 0 and 1, tables 0...3 are valid)")
            }
            let dcSymbols = symbols.allSatisfy { $0 <= 15 }
            if isAC { ac.define(index, fits: fits, dcSymbols: dcSymbols) } else { dc.define(index, fits: fits, dcSymbols: dcSymbols) }
        }
        guard left == 0 else { throw refusal("JPEG DHT has length \(payload.count + 2), which does not fit its tables") }
    }

    /// Whether Huffman codes of the lengths counted at `payload[counts ..< counts + 16]` (for 1...16 bits)
    /// can be assigned, none all ones (libjpeg's `jpeg_make_d_derived_tbl`).
    private static func codeLengthsFit(_ payload: [UInt8], counts: Int) -> Bool {
        var code = 0
        for length in 1...16 {
            let count = Int(payload[counts + length - 1])
            code += count
            if count > 0 && code >= 1 << length { return false }
            code <<= 1
        }
        return true
    }

    /// The restart interval in MCUs (0: no restart markers), as the last DRI set it.
    private(set) var restartInterval = 0

    /// A DRI payload.
    mutating func restartInterval(_ payload: [UInt8]) throws(Outcome) {
        guard payload.count == 2 else { throw refusal("JPEG DRI has length \(payload.count + 2), not 4") }
        restartInterval = Int(payload[0]) << 8 | Int(payload[1])
    }

    /// A DAC payload (arithmetic coding conditioning).
    func arithmeticConditioning(_ payload: [UInt8]) throws(Outcome) {
        guard payload.count % 2 == 0 else { throw refusal("JPEG DAC has length \(payload.count + 2), not a whole number of entries") }
        for at in stride(from: 0, to: payload.count, by: 2) {
            let (index, value) = (payload[at], payload[at + 1])
            guard index < 32 else { throw refusal("JPEG DAC sets table \(index) (0...31 are valid)") }
            guard index >= 16 || value & 0x0F <= value >> 4 else {
                throw refusal("JPEG DAC sets DC table \(index) bounds \(value & 0x0F) > \(value >> 4)")
            }
        }
    }

    /// A scan header (SOS payload): checked against the frame and the tables defined so far.
    mutating func scan(_ payload: [UInt8]) throws(Outcome) {
        guard sawFrame else { throw refusal("JPEG has no SOF segment before SOS") }
        let count = payload.isEmpty ? 0 : Int(payload[0])
        guard (1...4).contains(count) && payload.count == 4 + 2 * count else {
            throw refusal("JPEG SOS has length \(payload.count + 2) for \(counted(count, "component")) (1...4, 6 + 2 bytes each)")
        }
        // libjpeg's `get_sos` matching, quirk included: it takes the first frame component with the id
        // whose slot in the scan's list is still empty, and it indexes that list by frame index while
        // filling it by scan position — so the first such component at or after the scan position.
        var selected: [(component: Int, dc: Int, ac: Int)] = []
        selected.reserveCapacity(count)
        for position in 0..<count {
            let id = payload[1 + 2 * position]
            let tables = payload[2 + 2 * position]
            guard let found = components.indices.first(where: { $0 >= position && components[$0].id == id }),
                !selected.contains(where: { $0.component == found })
            else { throw refusal("JPEG SOS names component \(id), which the frame lacks or the scan already holds") }
            selected.append((found, Int(tables >> 4), Int(tables & 0x0F)))
        }
        let at = 1 + 2 * count
        let (start, end, high, low) = (Int(payload[at]), Int(payload[at + 1]), Int(payload[at + 2] >> 4), Int(payload[at + 2] & 0x0F))
        scans += 1
        if scans == 1 {
            singleScan = !progressive && count == components.count
        } else if singleScan {
            throw refusal("JPEG has a second scan, but its first scan already held every component of a sequential frame")
        }
        if count > 1 {
            let blocks = selected.reduce(0) { $0 + components[$1.component].horizontal * components[$1.component].vertical }
            guard blocks <= 10 else { throw refusal("JPEG scan \(scans) has \(blocks) blocks per MCU (at most 10)") }
        }
        try checkProgression(start: start, end: end, high: high, low: low, count: count)
        for (component, dcTable, acTable) in selected {
            try latchQuantisation(component)
            let usesDC = !progressive || (start == 0 && high == 0)
            let usesAC = !progressive || start > 0
            if usesDC { try checkTable(dcTable, dc: true, component: component) }
            if usesAC { try checkTable(acTable, dc: false, component: component) }
        }
    }

    private mutating func checkProgression(start: Int, end: Int, high: Int, low: Int, count: Int) throws(Outcome) {
        guard progressive else {
            if (start != 0 || end != 63 || high != 0 || low != 0) && warnings.count < ImageWarnings.limit {
                warnings.append(
                    "JPEG scan \(scans) has progressive parameters (Ss=\(start) Se=\(end) Ah=\(high) Al=\(low)) in a sequential frame; decoders ignore them"
                )
            }
            return
        }
        let bad = (start == 0 ? end != 0 : (end < start || end > 63 || count != 1)) || (high != 0 && low != high - 1) || low > 13
        if bad {
            throw refusal("JPEG scan \(scans) has invalid progressive parameters Ss=\(start) Se=\(end) Ah=\(high) Al=\(low)")
        }
    }

    private mutating func latchQuantisation(_ component: Int) throws(Outcome) {
        guard !components[component].latched else { return }
        let table = components[component].table
        guard table < 4 && quantisation & (1 << table) != 0 else {
            throw refusal(
                "JPEG component \(components[component].id) uses quantisation table \(table), which no DQT before scan \(scans) defines")
        }
        components[component].latched = true
    }

    private func checkTable(_ index: Int, dc isDC: Bool, component: Int) throws(Outcome) {
        let kind = isDC ? "DC" : "AC"
        let id = components[component].id
        if arithmetic {
            guard index < 16 else {
                throw refusal("JPEG scan \(scans) gives component \(id) arithmetic \(kind) table \(index) (0...15 are valid)")
            }
            return
        }
        guard index < 4 else { throw refusal("JPEG scan \(scans) gives component \(id) Huffman \(kind) table \(index) (0...3 are valid)") }
        let tables = isDC ? dc : ac
        let bit = UInt8(1) << index
        // libjpeg-turbo fills in the standard tables 0 and 1 for sequential Huffman (Motion-JPEG) only.
        guard tables.defined & bit != 0 || (index < 2 && !progressive) else {
            throw refusal("JPEG scan \(scans) uses Huffman \(kind) table \(index), which no DHT defines")
        }
        guard (isDC ? tables.invalidForDC : tables.invalidForAC) & bit == 0 else {
            throw refusal("JPEG scan \(scans) uses Huffman \(kind) table \(index), whose codes are invalid")
        }
    }
}
