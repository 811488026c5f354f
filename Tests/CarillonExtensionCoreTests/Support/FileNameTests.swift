import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Names are bytes: the mapping to strings must be lossless both ways, and paths split on bytes.
@Suite struct FileNameTests {
    @Test func everyByteSequenceSurvivesTheRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        // Bytes biased towards the interesting ones: ASCII, UTF-8 lead and continuation bytes, F4 8F BE/BF.
        let alphabet: [UInt8] = [
            0x61, 0x2F, 0x2E, 0x00 + 0x41, 0x80, 0xBF, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xF4, 0x8F, 0xBE, 0xFF, 0xFE,
            0xCC, 0x81,
        ]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 1...255, using: &generator)
            }
            let text = FileName.string(fromBytes: bytes)
            #expect(FileName.bytes(text) == bytes, "\(bytes)")
            #expect(FileName.hasEscapes(text) == (String(validating: bytes, as: UTF8.self).map { FileName.bytes($0) != bytes } ?? true))
        }
    }

    @Test(
        arguments: [
            ([0x63, 0x61, 0x66, 0xC3, 0xA9], "café", false),  // plain UTF-8 stays itself
            ([0x63, 0x61, 0x66, 0xE9], "caf\\xE9", true),  // Latin-1 é is not UTF-8
            ([0xF4, 0x8F, 0xBE, 0x80], "\\xF4\\x8F\\xBE\\x80", true),  // a real U+10FF80 is escaped byte by byte
            ([0xFF, 0xFE, 0x2E, 0x72], "\\xFF\\xFE.r", true),
            ([0x61, 0x0A, 0x62], "a\\x0Ab", false),  // a control character: displayed escaped, but UTF-8
            ([0x61, 0xC2, 0x85, 0xE2, 0x80, 0xAE], "a\\u{0085}\\u{202E}", false),  // C1 and bidi: displayed escaped
        ] as [([UInt8], String, Bool)])
    func namesDisplayTheirOddBytes(bytes: [UInt8], display: String, escaped: Bool) {
        let text = FileName.string(fromBytes: bytes)
        #expect(Quoting.display(text) == display)
        #expect(FileName.hasEscapes(text) == escaped)
        #expect(Quoting.needsEscaping(text) == (display != String(decoding: bytes, as: UTF8.self) || escaped))
        // For JSON only the bytes that are not UTF-8 are escaped: a control character is carried exactly.
        #expect(FileName.jsonText(text) == (escaped ? display : String(decoding: bytes, as: UTF8.self)))
        let exact = FileName.withCString(text) { pointer in
            Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
        }
        #expect(exact == bytes)
    }

    @Test func pathsSplitOnTheSlashByteEvenBeforeACombiningMark() {
        // "dir/" + U+0301 COMBINING ACUTE ACCENT + "x.receipt": as Characters the slash fuses with the mark.
        let path = "dir/\u{0301}x.receipt"
        #expect(FileSystem.lastComponent(path) == "\u{0301}x.receipt")
        #expect(FileSystem.parentDirectory(of: path) == "dir")
        #expect(FileSystem.join("dir", "\u{0301}x") == path.replacingOccurrences(of: ".receipt", with: ""))
    }

    @Test(arguments: [
        ("/a/b", "/a", true), ("/a", "/a", true), ("/a/", "/a", true), ("/ab", "/a", false), ("/a/b", "/a/", true),
        ("/b", "/a", false), ("/a\u{0301}/x", "/a", false), ("/\u{E9}", "/e\u{0301}", false),
    ])
    func insideComparesBytesNotUnicodeEquivalence(path: String, directory: String, inside: Bool) {
        #expect(FileSystem.isSameOrInside(path, directory) == inside)
    }

    @Test(arguments: [("a/b/c", "a/b", "c"), ("/c", "/", "c"), ("c", ".", "c"), ("a/b/", "a", ""), ("/", "/", "")])
    func parentAndLastComponent(path: String, parent: String, last: String) {
        #expect(FileSystem.parentDirectory(of: path) == parent)
        #expect(FileSystem.lastComponent(path) == last)
    }
}
