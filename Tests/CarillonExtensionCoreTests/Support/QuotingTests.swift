import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The one escaping rule for text a person reads (``Quoting/display(_:)``), from a table of every
/// character class it covers, with the characters either side of each class that it leaves alone.
@Suite struct QuotingTests {
    /// Each character the rule escapes, and how it shows.
    static let escaped: [(Unicode.Scalar, String)] =
        (0x00...0x1F).map { (Unicode.Scalar(UInt8($0)), "\\x" + hex($0, 2)) } + [("\u{7F}", "\\x7F")]
        + (0x80...0x9F).map { (Unicode.Scalar(UInt8($0)), "\\u{" + hex($0, 4) + "}") }
        + [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069].map {
            (Unicode.Scalar($0)!, "\\u{" + hex(Int($0), 4) + "}")
        }

    static func hex(_ value: Int, _ digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: digits - text.count) + text
    }

    @Test(arguments: escaped.map { ($0.0.value, $0.1) })
    func eachControlCharacterIsShownEscapedWhereverItIs(value: UInt32, shown: String) {
        let character = String(Unicode.Scalar(value)!)
        for (text, expected) in [
            (character, shown), ("a" + character + "b", "a" + shown + "b"), (character + character, shown + shown),
            ("é" + character, "é" + shown), (character + "€", shown + "€"),
        ] {
            #expect(Quoting.needsEscaping(text))
            #expect(Quoting.display(text) == expected)
            // The rule's output holds no character the rule escapes: showing it again changes nothing.
            #expect(!Quoting.needsEscaping(expected))
        }
    }

    /// Neighbours of the escaped ranges, sharing their lead bytes (C2, D8, E2): shown as they are.
    @Test(arguments: [
        "a", " ", "~", "\u{A0}", "\u{A9}", "é", "\u{061B}", "\u{061D}", "\u{200D}", "\u{2010}", "\u{2029}", "\u{202F}",
        "\u{2065}", "\u{206A}", "€", "→", "…", "—", "×", "😀", "\u{10FF7F}", "\u{0301}", "שלום", "مرحبا", "\\x1B",
    ])
    func otherCharactersAreShownAsTheyAre(text: String) {
        #expect(!Quoting.needsEscaping(text))
        #expect(Quoting.display(text) == text)
        #expect(Quoting.display("x" + text + "y") == "x" + text + "y")
    }

    @Test func aFileNameByteThatIsNotUTF8IsShownAsThatByte() {
        let name = FileName.string(fromBytes: [0x61, 0xFF, 0x1B, 0xC2, 0x9B, 0xC2])
        #expect(Quoting.display(name) == "a\\xFF\\x1B\\u{009B}\\xC2")
    }

    @Test func anAttackerLineIsOneHarmlessLine() {
        let forged = "x\u{1B}]0;pwned\u{07}\u{1B}[2J\rimage.json: attached — forged\n\u{202E}txt.exe"
        let shown = Quoting.display(forged)
        #expect(shown == "x\\x1B]0;pwned\\x07\\x1B[2J\\x0Dimage.json: attached — forged\\x0A\\u{202E}txt.exe")
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
