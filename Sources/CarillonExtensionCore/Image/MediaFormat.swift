/// Audio and video named from their first bytes, for the detail of a refused file: people attach them
/// by mistake, and iOS itself would take them as attachments (audio up to 5 MB, video up to 50 MB) —
/// Carillon's extension attaches images only.
///
/// Every read is bounds-checked: the head is whatever a server sent (up to 1 KiB of it).
enum MediaFormat {
    /// What the refusal adds after naming audio or video.
    static let imagesOnly =
        "Carillon's extension attaches images only (iOS itself would take audio up to 5 MB and video up to 50 MB as attachments)"

    /// The name of the audio or video format `head` starts with, or nil.
    static func name(_ head: [UInt8]) -> String? {
        if at(head, 0, "ID3"), head.count >= 4, (2...4).contains(head[3]) { return "MP3 audio (ID3 tag)" }
        if at(head, 0, "RIFF") && at(head, 8, "WAVE") { return "WAV audio" }
        if at(head, 0, "RIFF") && at(head, 8, "AVI ") { return "AVI video" }
        if at(head, 0, "FORM") && (at(head, 8, "AIFF") || at(head, 8, "AIFC")) { return "AIFF audio" }
        if at(head, 4, "ftyp") { return isoMedia(head) }
        if let mpeg = mpegStream(head) { return mpeg }
        return audioFrame(head)
    }

    /// An ISO base media or QuickTime file by its `ftyp` major brand (images — HEIC, AVIF — are not
    /// media: they are named elsewhere).
    static func isoMedia(_ head: [UInt8]) -> String? {
        guard head.count >= 12 else { return nil }
        let major = String(decoding: head[8..<12], as: UTF8.self)
        let shown = Quoting.single(String(decoding: head[8..<12].map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self))
        switch major {
        case "M4A ", "M4B ", "M4P ": return "AAC audio (M4A, ftyp brand \(shown))"
        case "qt  ": return "QuickTime movie (MOV, ftyp brand \(shown))"
        case "isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "M4VH", "M4VP", "dash", "MSNV", "f4v ":
            return "MP4 video (ftyp brand \(shown))"
        case "3gp4", "3gp5", "3gp6", "3g2a", "3g2b": return "3GPP video (ftyp brand \(shown))"
        default: return nil
        }
    }

    /// MPEG-1/2 program and video streams (a start code), and transport streams (a sync byte every 188).
    private static func mpegStream(_ head: [UInt8]) -> String? {
        if head.count >= 4 && head[0] == 0 && head[1] == 0 && head[2] == 1 {
            if head[3] == 0xBA { return "MPEG video (program stream)" }
            if head[3] == 0xB3 { return "MPEG video (elementary stream)" }
        }
        if head.count >= 377 && head[0] == 0x47 && head[188] == 0x47 && head[376] == 0x47 { return "MPEG transport stream" }
        return nil
    }

    /// An MPEG audio frame (MP3 without an ID3 tag) or an AAC ADTS frame, by its 12-bit sync and a
    /// header whose fields are all valid.
    private static func audioFrame(_ head: [UInt8]) -> String? {
        guard head.count >= 4, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 else { return nil }
        let layer = (head[1] >> 1) & 0b11
        if head[1] & 0xF6 == 0xF0 {
            // ADTS: layer 00; a sampling frequency index under 13, a channel configuration.
            let frequency = (head[2] >> 2) & 0xF
            return frequency < 13 ? "AAC audio (ADTS)" : nil
        }
        let version = (head[1] >> 3) & 0b11
        let bitrate = head[2] >> 4
        let sampleRate = (head[2] >> 2) & 0b11
        guard layer != 0, version != 0b01, bitrate != 0xF, sampleRate != 0b11 else { return nil }
        return layer == 0b01 ? "MP3 audio (MPEG frame sync)" : "MPEG audio (Layer \(layer == 0b10 ? "II" : "I"))"
    }

    private static func at(_ head: [UInt8], _ offset: Int, _ text: String) -> Bool {
        let expected = text.utf8
        return head.count >= offset + expected.count && head[offset..<offset + expected.count].elementsEqual(expected)
    }
}
