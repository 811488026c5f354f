import Testing

@testable import CarillonCLI

/// How a JSON Lines stream is cut into payloads: line endings, the byte order mark, blank and long
/// lines, a last line without a newline, and chunk boundaries anywhere.
@Suite struct JSONLineSplitterTests {
    /// Splits `text` fed in chunks of `chunk` bytes; each line as (number, text or "TOO LONG n").
    static func split(_ bytes: [UInt8], chunk: Int, limit: Int = 16) -> [String] {
        var splitter = JSONLineSplitter(limit: limit)
        var lines: [String] = []
        let emit: (JSONLineSplitter.Line) -> Void = { line in
            lines.append("\(line.number):" + (line.overLimit.map { "TOO LONG \($0)" } ?? String(decoding: line.bytes, as: UTF8.self)))
        }
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            bytes[start..<end].withUnsafeBufferPointer { splitter.feed($0, emit) }
            start = end
        }
        splitter.finish(emit)
        return lines
    }

    static let cases: [(name: String, input: [UInt8], expected: [String])] = [
        ("LF", Array("a\nb\n".utf8), ["1:a", "2:b"]),
        ("CRLF", Array("a\r\nb\r\n".utf8), ["1:a", "2:b"]),
        ("a torn last line is still a line", Array("a\nb".utf8), ["1:a", "2:b"]),
        ("blank lines are skipped but counted", Array("\n \t\r\na\n\n\nb".utf8), ["3:a", "6:b"]),
        ("a byte order mark at the start is dropped", [0xEF, 0xBB, 0xBF] + Array("a\nb".utf8), ["1:a", "2:b"]),
        ("a mark later is the line's", Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b".utf8), ["1:a", "2:\u{FEFF}b"]),
        ("half a mark is not one", [0xEF, 0xBB] + Array("a".utf8), ["1:" + String(decoding: [0xEF, 0xBB, 0x61], as: UTF8.self)]),
        (
            "a line at the limit is kept", Array((String(repeating: "x", count: 16) + "\r\n").utf8),
            ["1:" + String(repeating: "x", count: 16)]
        ),
        ("a line over it is refused alone", Array((String(repeating: "x", count: 40) + "\nok").utf8), ["1:TOO LONG 40", "2:ok"]),
        ("a torn long line too", Array(("ok\n" + String(repeating: "y", count: 17)).utf8), ["1:ok", "2:TOO LONG 17"]),
        ("nothing", [], []),
        ("only a mark", [0xEF, 0xBB, 0xBF], []),
    ]

    @Test(arguments: cases.indices, [1, 2, 3, 64 * 1024])
    func linesAreCutTheSameWhateverTheChunks(index: Int, chunk: Int) {
        let (name, input, expected) = Self.cases[index]
        #expect(Self.split(input, chunk: chunk) == expected, "\(name), chunks of \(chunk)")
    }

    @Test func aMegabyteLineIsOnePayloadAndMemoryHoldsOnlyIt() {
        let line = Array(repeating: UInt8(ascii: "z"), count: 1_000_000)
        let lines = Self.split(line + [0x0A] + Array("next".utf8), chunk: 64 * 1024, limit: 1_048_576)
        #expect(lines.count == 2 && lines[0].count == 1_000_002 && lines[1] == "2:next")
    }
}
