import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The JPEG rules (``JPEGStream`` and ``JPEGHeaders``), from a table: each case a change to sample.jpg
/// (baseline, 16×16, 3 components 1×1: APP0, COM, DQT 0 and 1, SOF0, DHT DC0 AC0 DC1 AC1, one scan of
/// all three components, EOI) or progressive.jpg (SOF2 by spectral selection, DRI 1, a DC scan, then
/// a DHT and an AC scan per component), and what libjpeg-turbo 2.1 makes of it. Every refusal was
/// checked against libjpeg-turbo (the FuzzImageDecoders target does it for every input it tries).
@Suite struct JPEGStreamTests {
    typealias F = ImageFixtures

    /// sample.jpg's SOF0 (at its FF): +4 precision, +5 height, +7 width, +9 components, then 3 bytes each
    /// (id, sampling, quantisation table) from +10.
    static func sof(_ bytes: [UInt8]) -> Int { F.jpegSegment(0xC0, in: bytes).offset }
    /// sample.jpg's SOS (at its FF): +4 components, then 2 bytes each (id, tables) from +5, then Ss, Se, Ah/Al.
    static func sos(_ bytes: [UInt8]) -> Int { F.jpegSegment(0xDA, in: bytes).offset }

    static func changing(_ bytes: [UInt8], _ offset: Int, to values: [UInt8]) -> [UInt8] {
        var bytes = bytes
        bytes.replaceSubrange(offset..<offset + values.count, with: values)
        return bytes
    }

    static func inserting(_ segment: [UInt8], before marker: UInt8, in bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        bytes.insert(contentsOf: segment, at: F.jpegSegment(marker, in: bytes).offset)
        return bytes
    }

    /// sample.jpg with its first DHT (DC table 0) replaced by `table` (class/index, 16 counts, symbols).
    static func replacingFirstDHT(_ bytes: [UInt8], with table: [UInt8]) -> [UInt8] {
        let dht = F.jpegSegment(0xC4, in: bytes)
        let segment: [UInt8] = [0xFF, 0xC4, UInt8((table.count + 2) >> 8), UInt8((table.count + 2) & 0xFF)] + table
        return Array(bytes[..<dht.offset]) + segment + Array(bytes[(dht.offset + 2 + dht.length)...])
    }

    static let cases: [ImageCase] = [
        // Refused: the frame.
        ImageCase("precision 12", "sample.jpg", .refused("JPEG SOF0 has precision 12")) { changing($0, sof($0) + 4, to: [12]) },
        ImageCase("lossless SOF3", "sample.jpg", .refused("SOF3 (lossless) is not supported")) { changing($0, sof($0) + 1, to: [0xC3]) },
        ImageCase("hierarchical SOF5", "sample.jpg", .refused("SOF5 (hierarchical)")) { changing($0, sof($0) + 1, to: [0xC5]) },
        ImageCase("hierarchical arithmetic SOF13", "sample.jpg", .refused("SOF13 (hierarchical arithmetic)")) {
            changing($0, sof($0) + 1, to: [0xCD])
        },
        ImageCase("zero height (DNL)", "sample.jpg", .refused("JPEG SOF0 has zero height")) { changing($0, sof($0) + 5, to: [0, 0]) },
        ImageCase("zero width", "sample.jpg", .refused("JPEG SOF0 has zero width")) { changing($0, sof($0) + 7, to: [0, 0]) },
        ImageCase("width 65,501", "sample.jpg", .refused("over 65,500 pixels a side")) { changing($0, sof($0) + 7, to: [0xFF, 0xDD]) },
        ImageCase("zero components", "sample.jpg", .refused("JPEG SOF0 has 0 components")) { changing($0, sof($0) + 9, to: [0]) },
        ImageCase("SOF length for other components", "sample.jpg", .refused("JPEG SOF0 has length 17, not 14 for 2 components")) {
            changing($0, sof($0) + 9, to: [2])
        },
        ImageCase("2 components", "sample.jpg", .refused("JPEG SOF0 has 2 components")) { bytes in
            let at = sof(bytes)
            return Array(bytes[..<(at + 2)]) + [0, 14] + Array(bytes[(at + 4)..<(at + 9)]) + [2]
                + Array(bytes[(at + 10)..<(at + 16)]) + Array(bytes[(at + 19)...])
        },
        ImageCase("sampling factor 0", "sample.jpg", .refused("component 1 has sampling factors 0×1")) {
            changing($0, sof($0) + 11, to: [0x01])
        },
        ImageCase("sampling factor 5", "sample.jpg", .refused("component 2 has sampling factors 5×1")) {
            changing($0, sof($0) + 14, to: [0x51])
        },
        ImageCase("fractional sampling", "sample.jpg", .refused("which do not divide the largest 3×1")) { bytes in
            changing(changing(bytes, sof(bytes) + 11, to: [0x31]), sof(bytes) + 14, to: [0x21])
        },
        ImageCase("12 blocks per MCU", "sample.jpg", .refused("JPEG scan 1 has 12 blocks per MCU")) { bytes in
            changing(changing(changing(bytes, sof(bytes) + 11, to: [0x22]), sof(bytes) + 14, to: [0x22]), sof(bytes) + 17, to: [0x22])
        },
        ImageCase("second SOF", "sample.jpg", .refused("JPEG has a second frame header (SOF0)")) { bytes in
            let frame = F.jpegSegment(0xC0, in: bytes)
            return inserting(Array(bytes[frame.offset..<(frame.offset + 2 + frame.length)]), before: 0xDA, in: bytes)
        },
        ImageCase("SOF after the scan", "sample.jpg", .refused("second frame header")) { bytes in
            let frame = F.jpegSegment(0xC0, in: bytes)
            return Array(bytes.dropLast(2)) + Array(bytes[frame.offset..<(frame.offset + 2 + frame.length)]) + [0xFF, 0xD9]
        },
        ImageCase("without SOF", "sample.jpg", .refused("JPEG has no SOF segment")) { bytes in
            let frame = F.jpegSegment(0xC0, in: bytes)
            return Array(bytes[..<frame.offset]) + Array(bytes[(frame.offset + 2 + frame.length)...])
        },
        // Refused: tables.
        ImageCase(
            "undefined quantisation table", "sample.jpg",
            .refused("component 1 uses quantisation table 2, which no DQT before scan 1 defines")
        ) {
            changing($0, sof($0) + 12, to: [2])
        },
        ImageCase("quantisation table 4", "sample.jpg", .refused("uses quantisation table 4")) { changing($0, sof($0) + 12, to: [4]) },
        ImageCase("DQT index 4", "sample.jpg", .refused("JPEG DQT defines table 4")) {
            changing($0, F.jpegSegment(0xDB, in: $0).offset + 4, to: [4])
        },
        ImageCase("DQT longer than its table", "sample.jpg", .refused("JPEG DQT defines table 15")) {
            changing($0, F.jpegSegment(0xDB, in: $0).offset + 3, to: [0x44])
        },
        ImageCase("DQT length 1", "sample.jpg", .refused("JPEG segment DQT has an invalid length 1")) {
            changing($0, F.jpegSegment(0xDB, in: $0).offset + 2, to: [0, 1])
        },
        ImageCase("undefined Huffman table 2", "sample.jpg", .refused("uses Huffman DC table 2, which no DHT defines")) {
            changing($0, sos($0) + 6, to: [0x22])
        },
        ImageCase("Huffman table 5", "sample.jpg", .refused("Huffman DC table 5 (0...3 are valid)")) {
            changing($0, sos($0) + 6, to: [0x50])
        },
        ImageCase("Huffman codes that overflow", "sample.jpg", .refused("uses Huffman DC table 0, whose codes are invalid")) {
            replacingFirstDHT($0, with: [0x00, 2] + [UInt8](repeating: 0, count: 15) + [0, 1])
        },
        ImageCase("DC symbol 16", "sample.jpg", .refused("uses Huffman DC table 0, whose codes are invalid")) {
            replacingFirstDHT($0, with: [0x00, 0, 1] + [UInt8](repeating: 0, count: 14) + [16])
        },
        ImageCase(
            "progressive without DHT (no standard tables there)", "progressive.jpg",
            .refused("uses Huffman DC table 0, which no DHT defines")
        ) {
            F.removingJPEGSegments(0xC4, from: $0)
        },
        ImageCase("DHT index 4", "sample.jpg", .refused("JPEG DHT defines table 0x04")) {
            replacingFirstDHT($0, with: [0x04, 1] + [UInt8](repeating: 0, count: 15) + [0])
        },
        ImageCase("DHT class 2", "sample.jpg", .refused("JPEG DHT defines table 0x20")) {
            replacingFirstDHT($0, with: [0x20, 1] + [UInt8](repeating: 0, count: 15) + [0])
        },
        ImageCase("DHT with more codes than bytes", "sample.jpg", .refused("has 200 codes, more than fit")) {
            replacingFirstDHT($0, with: [0x00, 0, 0, 200] + [UInt8](repeating: 0, count: 13) + [1, 2])
        },
        ImageCase("DHT with a stray byte", "sample.jpg", .refused("JPEG DHT has length")) {
            replacingFirstDHT($0, with: [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0, 9])
        },
        ImageCase("DRI of length 5", "sample.jpg", .refused("JPEG DRI has length 5, not 4")) {
            inserting([0xFF, 0xDD, 0, 5, 0, 1, 0], before: 0xDB, in: $0)
        },
        ImageCase("DAC table 40", "sample.jpg", .refused("JPEG DAC sets table 40")) {
            inserting([0xFF, 0xCC, 0, 4, 40, 0], before: 0xDB, in: $0)
        },
        // Refused: scans.
        ImageCase("SOS component the frame lacks", "sample.jpg", .refused("JPEG SOS names component 9")) {
            changing($0, sos($0) + 5, to: [9])
        },
        ImageCase("SOS component twice", "sample.jpg", .refused("JPEG SOS names component 1")) { changing($0, sos($0) + 7, to: [1]) },
        ImageCase("SOS length for other components", "sample.jpg", .refused("JPEG SOS has length 12 for 2 components")) {
            changing($0, sos($0) + 4, to: [2])
        },
        ImageCase("second scan of a single-scan frame", "sample.jpg", .refused("JPEG has a second scan")) { bytes in
            let dht = F.jpegSegment(0xC4, in: bytes)
            return Array(bytes.dropLast(2)) + Array(bytes[dht.offset..<(dht.offset + 2 + dht.length)]) + Array(bytes[sos(bytes)...])
        },
        ImageCase("progressive frame with a sequential scan", "sample.jpg", .refused("invalid progressive parameters Ss=0 Se=63")) {
            changing($0, sof($0) + 1, to: [0xC2])
        },
        ImageCase(
            "progressive AC scan of two components", "progressive.jpg", .refused("scan 2 has invalid progressive parameters Ss=1 Se=63")
        ) { bytes in
            // The first AC scan made to name components 1 and 2.
            var offset = sos(bytes) + 2
            while !(bytes[offset] == 0xFF && bytes[offset + 1] == 0xDA) { offset += 1 }
            return Array(bytes[..<offset]) + [0xFF, 0xDA, 0, 10, 2, 1, 0, 2, 0, 1, 63, 0] + Array(bytes[(offset + 10)...])
        },
        // Refused: markers and the file's end.
        ImageCase("second SOI", "sample.jpg", .refused("second SOI")) { [0xFF, 0xD8] + $0 },
        ImageCase("reserved marker", "sample.jpg", .refused("reserved marker 0xF0")) {
            inserting([0xFF, 0xF0, 0, 2], before: 0xDB, in: $0)
        },
        ImageCase("reserved marker in a scan", "sample.jpg", .refused("reserved marker 0x10 at offset 326, which decoders refuse")) {
            bytes in
            var bytes = bytes
            bytes.insert(contentsOf: [0xFF, 0x10], at: sos(bytes) + 14 + 5)
            return bytes
        },
        // libjpeg resynchronises past it where a restart marker is due (a documented difference).
        ImageCase(
            "TEM, then a reserved marker, in a scan with restart markers", "progressive.jpg",
            .refused("reserved marker 0x10 at offset 254 (in the data of scan 1, which has restart markers)")
        ) { bytes in
            var bytes = bytes
            bytes.insert(contentsOf: [0xFF, 0x01, 0x00, 0x00, 0xFF, 0x10], at: sos(bytes) + 14 + 2)
            return bytes
        },
        ImageCase("EOI before SOS", "sample.jpg", .refused("before any image data")) { Array($0[..<sof($0)]) + [0xFF, 0xD9] },
        ImageCase("without SOS", "sample.jpg", .refused("truncated before its image data (no SOS segment)")) { Array($0[..<sos($0)]) },
        ImageCase("COM past the end", "sample.jpg", .refused("truncated before its image data")) {
            changing($0, F.jpegSegment(0xFE, in: $0).offset + 2, to: [0xFF, 0xFF])
        },
        ImageCase("cut in a DHT after a scan", "progressive.jpg", .refused("JPEG truncated in segment DHT")) { bytes in
            var offset = sos(bytes) + 2
            while !(bytes[offset] == 0xFF && bytes[offset + 1] == 0xC4) { offset += 1 }
            return Array(bytes[..<(offset + 10)])
        },
        // Shown with a warning.
        ImageCase("without EOI", "sample.jpg", .warned("JPEG has no EOI marker: the data ends inside scan 1")) { Array($0.dropLast(2)) },
        ImageCase("cut inside the scan", "sample.jpg", .warned("only part of the image may show")) { Array($0[..<(sos($0) + 40)]) },
        ImageCase("cut, with EOI bytes inside a COM", "sample.jpg", .warned("JPEG has no EOI marker")) { bytes in
            inserting([0xFF, 0xFE, 0x00, 0x04, 0xFF, 0xD9], before: 0xDB, in: Array(bytes.dropLast(2)))
        },
        ImageCase("cut after a stuffed FF", "sample.jpg", .warned("JPEG has no EOI marker")) { Array($0.dropLast(2)) + [0xFF] },
        ImageCase("cut in a COM after the scan", "sample.jpg", .warned("the data ends after scan 1")) {
            Array($0.dropLast(2)) + [0xFF, 0xFE, 0, 32, 0x61]
        },
        ImageCase("cut between scans", "progressive.jpg", .warned("the data ends inside scan 2")) { bytes in
            // Up to the third DHT, which follows the second scan.
            var offset = sos(bytes) + 2
            var tables = 0
            while true {
                if bytes[offset] == 0xFF && bytes[offset + 1] == 0xC4 { tables += 1 }
                if tables == 2 { break }
                offset += 1
            }
            return Array(bytes[..<offset])
        },
        ImageCase("stray byte between segments", "sample.jpg", .warned("JPEG has 1 stray byte between segments (the first at offset 40)")) {
            inserting([0x42], before: 0xDB, in: $0)
        },
        ImageCase("FF 00 between segments", "sample.jpg", .warned("JPEG has 2 stray bytes")) {
            inserting([0xFF, 0x00], before: 0xDB, in: $0)
        },
        ImageCase("APP1 of length 0", "sample.jpg", .warned("JPEG APP1 at offset 2 has an invalid length 0")) { bytes in
            Array(bytes[..<2]) + [0xFF, 0xE1, 0, 0] + Array(bytes[2...])
        },
        ImageCase(
            "sequential scan with progressive parameters", "sample.jpg",
            .warned("progressive parameters (Ss=1 Se=63 Ah=0 Al=0) in a sequential frame")
        ) {
            changing($0, sos($0) + 11, to: [1])
        },
        // Shown.
        ImageCase("padding after EOI", "sample.jpg", .clean) { $0 + [UInt8](repeating: 0, count: 1000) },
        ImageCase("a 1 MiB trailer after EOI (motion photo)", "sample.jpg", .clean) { bytes in
            var trailer = [UInt8](repeating: 0xFF, count: 1024 * 1024)
            trailer.replaceSubrange(0..<12, with: [0, 0, 0, 0x18] + Array("ftypmp42".utf8))
            return bytes + trailer
        },
        ImageCase("progressive, with restart markers and tables between scans", "progressive.jpg", .clean) { $0 },
        ImageCase("stuffed bytes, fill bytes and restart markers in the data", "sample.jpg", .clean) { bytes in
            var bytes = bytes
            let scan = F.jpegSegment(0xDA, in: bytes)
            bytes.insert(contentsOf: [0xFF, 0xD0, 0x12, 0xFF, 0x00, 0xFF, 0xD7, 0xFF, 0xFF, 0x00], at: scan.offset + 2 + scan.length)
            return bytes
        },
        ImageCase("fill bytes, a restart marker and TEM between segments", "sample.jpg", .clean) {
            inserting([0xFF, 0xFF, 0xFF, 0xFF, 0xD0, 0xFF, 0x01], before: 0xDB, in: $0)
        },
        ImageCase("extended sequential SOF1", "sample.jpg", .clean) { changing($0, sof($0) + 1, to: [0xC1]) },
        ImageCase("arithmetic SOF9", "sample.jpg", .clean) { changing($0, sof($0) + 1, to: [0xC9]) },
        ImageCase("no DHT (the standard tables)", "sample.jpg", .clean) { F.removingJPEGSegments(0xC4, from: $0) },
        ImageCase("DNL after the scan", "sample.jpg", .clean) { Array($0.dropLast(2)) + [0xFF, 0xDC, 0, 4, 0, 16, 0xFF, 0xD9] },
    ]

    @Test(arguments: cases)
    func verdict(_ change: ImageCase) throws {
        try change.check()
    }
}
