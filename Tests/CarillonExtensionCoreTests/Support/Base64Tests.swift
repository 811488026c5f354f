import Foundation
import Testing

@testable import CarillonExtensionCore

/// Base64 both ways: decoding from a table (every group length, both alphabets, wrapped text, padding,
/// and the exact words for each kind of bad text, the character counted from 1, whitespace included),
/// encoding as Foundation does, and the round trip.
@Suite struct Base64Tests {
    static let decoded: [(text: String, bytes: [UInt8])] = [
        ("", []),
        ("QQ==", [0x41]),
        ("QQ", [0x41]),
        ("QUI=", [0x41, 0x42]),
        ("QUI", [0x41, 0x42]),
        ("QUJD", [0x41, 0x42, 0x43]),
        ("QUJD\r\nREVG\n", [0x41, 0x42, 0x43, 0x44, 0x45, 0x46]),
        (" Q U J D \t", [0x41, 0x42, 0x43]),
        ("QQ= =", [0x41]),
        ("+/+/", [0xFB, 0xFF, 0xBF]),
        ("-_-_", [0xFB, 0xFF, 0xBF]),
        ("AAECAwQFBgcICQ==", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
    ]

    @Test(arguments: decoded)
    func decodes(_ text: String, _ bytes: [UInt8]) throws {
        #expect(try Base64.decode(text) == bytes)
    }

    static let refused: [(text: String, message: String)] = [
        ("Q", "a truncated last group (1 character)"),
        ("QUJDR", "a truncated last group (1 character)"),
        ("=QQ", "misplaced '=' at character 1"),
        ("Q=Q", "misplaced '=' at character 2"),
        ("QQ===", "misplaced '=' at character 5"),
        ("QQ==QQ", "data after the '=' padding at character 5"),
        ("QQ==*", "data after the '=' padding at character 5"),
        ("QU*D", "a character that is not base64 at character 3"),
        ("QU\nJ.", "a character that is not base64 at character 5"),
        ("QUJ\u{E9}", "a character that is not base64 at character 4"),
    ]

    @Test(arguments: refused)
    func refuses(_ text: String, _ message: String) {
        #expect(throws: Base64.Invalid(message: message)) { try Base64.decode(text) }
    }

    @Test func decodesWhatFoundationEncoded() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }
        for count in [0, 1, 2, 3, 4, 99_998, 99_999, 100_000] {
            let prefix = Array(bytes.prefix(count))
            #expect(try Base64.decode(Data(prefix).base64EncodedString()) == prefix)
        }
    }

    /// Long texts go four characters at a time: wrapped at 76 columns, padded, or broken far in, they
    /// decode (or are refused at the right character) as short ones do.
    @Test func longTextsDecodeAsShortOnesDo() throws {
        let bytes = (0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 2) }
        let plain = Data(bytes).base64EncodedString()
        #expect(try Base64.decode(plain) == bytes)
        let wrapped = Data(bytes).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        #expect(try Base64.decode(wrapped) == bytes)
        let odd = Data(bytes.dropLast()).base64EncodedString()
        #expect(odd.hasSuffix("="))
        #expect(try Base64.decode(odd) == Array(bytes.dropLast()))
        var broken = Array(plain.utf8)
        broken[4000] = UInt8(ascii: "*")
        #expect(throws: Base64.Invalid(message: "a character that is not base64 at character 4001")) {
            try Base64.decode(String(decoding: broken, as: UTF8.self))
        }
        #expect(!Base64.exceeds(wrapped, cap: bytes.count))
        #expect(Base64.exceeds(plain, cap: bytes.count - 6))
    }

    @Test func encodesAsFoundationDoesAndRoundTrips() throws {
        let bytes = (0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }
        for count in [0, 1, 2, 3, 4, 5, 2_999, 3_000] {
            let prefix = Array(bytes.prefix(count))
            #expect(Base64.encode(prefix) == Data(prefix).base64EncodedString())
            #expect(try Base64.decode(Base64.encode(prefix)) == prefix)
        }
    }

    @Test(arguments: [("QUJD\r\nREVG\n", 8), ("QQ==", 4), (" \t\r\n", 0), ("", 0)])
    func countsSignificantCharacters(_ text: String, _ count: Int) {
        #expect(Base64.significantLength(text) == count)
    }
}
