import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The body as received is kept only when it differs from the decoded one, and then whole: its matched
/// prefix read back from the decoded body's file, every later byte as it came. Each row feeds the tap
/// received and decoded pieces in libcurl's order and checks what the recording keeps.
@Suite struct ReceivedBodyTests {
    /// A step: bytes received (`r`) or a decoded piece (`d`).
    enum Step {
        case r(String)
        case d(String)
    }

    static let rows: [(name: String, steps: [Step], kept: String?)] = [
        ("identity: each piece received, then decoded", [.r("abc"), .d("abc"), .r("defg"), .d("de"), .d("fg")], nil),
        ("nothing received (a transport that does not say)", [.d("abc"), .d("def")], nil),
        ("chunk framing from the first byte", [.r("3\r\nabc\r\n"), .d("abc"), .r("0\r\n\r\n")], "3\r\nabc\r\n0\r\n\r\n"),
        ("a coding", [.r("\u{1F}\u{8B}xyz"), .d("hello"), .r("tail")], "\u{1F}\u{8B}xyztail"),
        ("same for a while, then not", [.r("abc"), .d("abc"), .r("dXf"), .d("def"), .r("g")], "abcdXfg"),
        ("received bytes the decoder never delivered", [.r("abc"), .d("abc"), .r("def")], "abcdef"),
        ("decoded before received: kept whole, then found the same", [.d("abc"), .r("abc")], nil),
        // Longer than a word: compared eight bytes at a time, the tail byte by byte.
        ("identity, pieces of 21 bytes", [.r("0123456789abcdefghijk"), .d("0123456789abcdefghijk")], nil),
        ("a difference in the 13th byte", [.r("0123456789abXdefghijk"), .d("0123456789abcdefghijk")], "0123456789abXdefghijk"),
        ("a difference in the tail", [.r("0123456789abcdefghijX"), .d("0123456789abcdefghijk")], "0123456789abcdefghijX"),
        // Longer than 32 bytes: compared 32 at a time, then eight, then the tail.
        ("identity, a piece of 75 bytes", [.r(long), .d(long)], nil),
        ("a difference in the second 32 bytes", [.r(long), .d(changed(long, at: 40))], long),
        ("a difference in the eight after them", [.r(long), .d(changed(long, at: 66))], long),
        ("a difference in the last three", [.r(long), .d(changed(long, at: 73))], long),
    ]

    /// 75 bytes: two 32-byte words, one of eight, three alone.
    static let long = String(repeating: "0123456789abcdef", count: 4) + "<eight!>" + "end"

    /// `text` with its byte at `offset` changed.
    static func changed(_ text: String, at offset: Int) -> String {
        var bytes = Array(text.utf8)
        bytes[offset] ^= 0x20
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: rows.indices)
    func keepsTheReceivedBodyOnlyWhenItDiffers(row: Int) throws {
        let (name, steps, kept) = Self.rows[row]
        let directory = TemporaryDirectory("received-body")
        defer { directory.remove() }
        let tap = WireTap(directory: directory.path)
        tap.startHop(number: 1)
        for step in steps {
            switch step {
            case .r(let text): Array(text.utf8).withUnsafeBytes(tap.wire)
            case .d(let text): Array(text.utf8).withUnsafeBytes { tap.body($0, taken: false) }
            }
        }
        let heard = tap.finish()
        defer {
            heard.body.staged?.discard()
            heard.wire?.staged?.discard()
        }
        let decoded = steps.compactMap { if case .d(let text) = $0 { text } else { nil } }.joined()
        let body = try #require(heard.body.staged, "\(name)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: body.temporaryPath)) == Data(decoded.utf8), "\(name)")
        if let kept {
            let wire = try #require(heard.wire?.staged, "\(name): no received body kept")
            #expect(try Data(contentsOf: URL(fileURLWithPath: wire.temporaryPath)) == Data(kept.utf8), "\(name)")
            #expect(heard.wire?.bytes == kept.utf8.count, "\(name)")
        } else {
            #expect(heard.wire == nil, "\(name)")
        }
        // Only the kept files are left in the directory: no received body staged and forgotten.
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.count == (kept == nil ? 1 : 2), "\(name): \(left)")
    }

    /// Received bytes waiting for their decoded match are bounded: past the limit the received body
    /// gets its file, and is still kept whole.
    @Test func waitingBytesAreBounded() throws {
        let directory = TemporaryDirectory("received-body-limit")
        defer { directory.remove() }
        let tap = WireTap(directory: directory.path)
        tap.startHop(number: 1)
        let big = [UInt8](repeating: 0x41, count: ReceivedBody.pendingLimit + 1)
        big.withUnsafeBytes(tap.wire)
        big.withUnsafeBytes { tap.body($0, taken: false) }
        let heard = tap.finish()
        defer { heard.body.staged?.discard() }
        // The same bytes after all: the file made at the limit is dropped at the end.
        #expect(heard.wire == nil)
        #expect(heard.body.bytes == big.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    }
}
