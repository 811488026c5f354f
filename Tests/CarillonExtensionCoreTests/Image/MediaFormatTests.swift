import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Audio and video are named in the refusal, which adds that only images are attached: real heads of
/// files ffmpeg made (TestAssets/Images/Media/make_media.sh), and the header rules from tables.
@Suite struct MediaFormatTests {
    static let imagesOnly =
        "; Carillon's extension attaches images only (iOS itself would take audio up to 5 MB and video up to 50 MB as attachments)"

    static let files: [(String, String)] = [
        ("tone-id3.mp3", "MP3 audio (ID3 tag)"),
        ("tone-frames.mp3", "MP3 audio (MPEG frame sync)"),
        ("tone.aac", "AAC audio (ADTS)"),
        ("tone.m4a", "AAC audio (M4A, ftyp brand 'M4A ')"),
        ("red.mp4", "MP4 video (ftyp brand 'isom')"),
        ("red.mov", "QuickTime movie (MOV, ftyp brand 'qt  ')"),
        ("tone.wav", "WAV audio"),
        ("tone.aiff", "AIFF audio"),
        ("red.avi", "AVI video"),
        ("red.mpg", "MPEG video (program stream)"),
        ("red.ts", "MPEG transport stream"),
    ]

    @Test(arguments: files)
    func aRealFilesHeadIsNamed(_ name: String, _ detail: String) {
        let expected = Outcome(.unsupportedType, "not a JPEG, PNG or GIF: " + detail + Self.imagesOnly)
        #expect(ImageFixtures.refusal(fileAt: ImageFixtures.path("Media/" + name)) == expected)
        #expect(ImageFixtures.refusal(ImageFixtures.load("Media/" + name)) == expected)
    }

    /// Headers that look like a sync or a box but break a rule are not named as media (nor trap).
    @Test(
        arguments: [
            ([0xFF, 0xE3, 0xF4, 0x00], nil),  // MPEG audio with the "bad" bitrate index 15
            ([0xFF, 0xE3, 0x4C, 0x00], nil),  // sample rate index 3 (reserved)
            ([0xFF, 0xE9, 0x48, 0x00], nil),  // layer bits 00 without ADTS's 0xFFF sync
            ([0xFF, 0xEB, 0x48, 0x00], nil),  // version 01 (reserved)
            ([0xFF, 0xFB, 0x90, 0x64], "MP3 audio (MPEG frame sync)"),
            ([0xFF, 0xFD, 0x90, 0x64], "MPEG audio (Layer II)"),
            ([0xFF, 0xF1, 0x3C, 0x40], nil),  // ADTS with frequency index 15
            ([0xFF, 0xE3], nil),  // cut short
            (Array("ID3".utf8) + [9], nil),  // no such ID3 version
            (Array("ID3".utf8), nil),
            ([0, 0, 1, 0xB3], "MPEG video (elementary stream)"),
            ([0, 0, 1], nil),
            (Array("RIFF\0\0\0\0WAV".utf8), nil),
            (Array("FORM\0\0\0\0AIFC".utf8), "AIFF audio"),
            ([0, 0, 0, 0x14] + Array("ftypqt".utf8), nil),
            ([0, 0, 0, 0x14] + Array("ftyp3gp5".utf8), "3GPP video (ftyp brand '3gp5')"),
            ([0, 0, 0, 0x14] + Array("ftypheic".utf8), nil),  // an image: named as one elsewhere
            ([0x47] + [UInt8](repeating: 0, count: 187) + [0x47], nil),  // one sync byte is not a stream
        ] as [([UInt8], String?)])
    func headerRulesDecide(head: [UInt8], name: String?) {
        #expect(MediaFormat.name(head) == name)
    }

    /// Every prefix of every real head is safe to name (the verifier is fuzzed; this is its short form).
    @Test(arguments: files.map(\.0))
    func everyPrefixIsSafe(_ name: String) {
        let bytes = ImageFixtures.load("Media/" + name)
        for length in 0...bytes.count { _ = ForeignFormat.describe(Array(bytes.prefix(length))) }
    }
}
