/// Names what a refused file is, from its first bytes, for the outcome's detail (audio and video by
/// ``MediaFormat``, with the rule that only images are attached).
enum ForeignFormat {
    static func describe(_ head: [UInt8]) -> String {
        if let truncated = truncatedSignature(head) { return truncated }
        if let media = MediaFormat.name(head) { return "\(media); \(MediaFormat.imagesOnly)" }
        if let named = binaryFormat(head) { return named }
        if let named = markup(head) { return named }
        if isText(head) { return "text" }
        let shown = head.prefix(8).map { String(hexByte($0).dropFirst(2)) }.joined(separator: " ")
        return "unrecognised data (first bytes: \(shown)\(head.count > 8 ? " ..." : ""))"
    }

    /// A file cut inside the PNG or GIF signature itself.
    private static func truncatedSignature(_ head: [UInt8]) -> String? {
        guard head.count >= 3 else { return nil }
        if head.count < ImageSignature.png.count && ImageSignature.png.starts(with: head) {
            return "PNG truncated in its signature"
        }
        if head.count < 6 && (ImageSignature.gif87.starts(with: head) || ImageSignature.gif89.starts(with: head)) {
            return "GIF truncated in its header"
        }
        return nil
    }

    private static func binaryFormat(_ head: [UInt8]) -> String? {
        func at(_ offset: Int, _ text: String) -> Bool {
            let expected = Array(text.utf8)
            return head.count >= offset + expected.count && Array(head[offset..<offset + expected.count]) == expected
        }
        if at(0, "RIFF") && at(8, "WEBP") { return "WebP image" }
        if at(0, "RIFF") { return "RIFF data (not WebP)" }
        if at(4, "ftyp") { return isoMedia(head) }
        if head.starts(with: [0x1F, 0x8B]) { return "gzip data" }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF image" }
        if at(0, "BM") && head.count >= 14 && head[6..<10].allSatisfy({ $0 == 0 }) { return "BMP image" }
        if at(0, "%PDF-") { return "PDF document" }
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return "JPEG XL image" }
        if at(0, "8BPS") { return "Photoshop document" }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "ZIP archive" }
        if head.starts(with: [0x00, 0x00, 0x01, 0x00]) && head.count >= 6 && head[4] != 0 { return "ICO icon" }
        return nil
    }

    /// An ISO base media file (`ftyp` box): HEIC/HEIF or AVIF by its brands, else a video or other media.
    private static func isoMedia(_ head: [UInt8]) -> String {
        guard head.count >= 12 else { return "ISO media file (truncated ftyp box)" }
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let major = brand(head, at: 8)
        var compatible: [String] = []
        var offset = 16
        while offset + 4 <= min(boxSize, head.count) {
            compatible.append(brand(head, at: offset))
            offset += 4
        }
        let avif: Set = ["avif", "avis"]
        let heif: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        if avif.contains(major) { return "AVIF image" }
        if heif.contains(major) { return "HEIC/HEIF image" }
        if compatible.contains(where: avif.contains) { return "AVIF image" }
        if compatible.contains(where: heif.contains) { return "HEIC/HEIF image" }
        return "ISO media file (brand '\(major)')"
    }

    /// A four-character brand, with anything unprintable shown as `?`.
    private static func brand(_ head: [UInt8], at offset: Int) -> String {
        String(decoding: head[offset..<offset + 4].map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }

    /// HTML, SVG or other XML, after an optional UTF-8 byte-order mark and white space.
    private static func markup(_ head: [UInt8]) -> String? {
        var start = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < head.count && isWhiteSpace(head[start]) { start += 1 }
        let text = head[start...].map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        guard text.first == 0x3C else { return nil }  // "<"
        func startsWith(_ prefix: String) -> Bool { text.starts(with: Array(prefix.utf8)) }
        func contains(_ needle: String) -> Bool {
            let needle = Array(needle.utf8)
            guard text.count >= needle.count else { return false }
            return (0...text.count - needle.count).contains { text[$0..<$0 + needle.count].elementsEqual(needle) }
        }
        if startsWith("<!doctype html") || startsWith("<html") { return "HTML document" }
        if contains("<svg") { return "SVG document" }
        if contains("<html") || startsWith("<head") || startsWith("<body") { return "HTML document" }
        if startsWith("<?xml") { return "XML document" }
        return nil
    }

    /// Printable UTF-8 with ordinary white space, allowing the last character to be cut off.
    private static func isText(_ head: [UInt8]) -> Bool {
        guard !head.isEmpty, head.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || isWhiteSpace($0) }) else { return false }
        for cut in 0...min(3, head.count - 1) where String(validating: head.dropLast(cut), as: UTF8.self) != nil {
            return true
        }
        return false
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
}
