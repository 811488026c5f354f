import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The request head as libcurl sent it, read into fields; and what the tap keeps of a chain.
@Suite struct WireTapTests {
    @Test(arguments: [
        (
            "GET /a.png HTTP/1.1\r\nHost: 127.0.0.1:8443\r\nUser-Agent: X/1 CFNetwork/1\r\nAccept: */*\r\n\r\n",
            [["Host", "127.0.0.1:8443"], ["User-Agent", "X/1 CFNetwork/1"], ["Accept", "*/*"]]
        ),
        // HTTP/2: libcurl shows the request in HTTP/1.1's form; values keep inner spaces, lose outer ones.
        (
            "GET /a HTTP/2\r\nhost: h\r\naccept-encoding:  gzip, deflate, br \r\n\r\n",
            [["host", "h"], ["accept-encoding", "gzip, deflate, br"]]
        ),
        // A bare LF, a line without a colon, a field without a name.
        ("GET / HTTP/1.1\nA: 1\nnot a field\n: x\nB:\n\n", [["A", "1"], ["B", ""]]),
        ("", []),
    ])
    func readsTheFieldsOfARequestHeadAsSent(head: String, expected: [[String]]) {
        let fields = WireTap.fields(ofRequestHead: Array(head.utf8))
        #expect(fields.map { [$0.name, $0.value] } == expected)
    }

    /// A redirect's request head is kept, its body and wire bytes are not; the last request's body
    /// is what was heard, the wire kept only when it differs.
    @Test func keepsEveryRequestHeadAndTheLastBody() throws {
        let directory = TemporaryDirectory("wiretap")
        defer { directory.remove() }
        let tap = WireTap(directory: directory.path)
        func bytes(_ text: String, _ body: (UnsafeRawBufferPointer) -> Void) { Array(text.utf8).withUnsafeBytes(body) }
        tap.startHop(number: 1)
        bytes("GET /r HTTP/1.1\r\nHost: a\r\n\r\n", tap.requestHead)
        bytes("moved", tap.wire)
        bytes("moved") { tap.body($0, taken: false) }
        tap.startHop(number: 2)
        bytes("GET /i HTTP/1.1\r\n", tap.requestHead)
        bytes("Host: a\r\n\r\n", tap.requestHead)
        bytes("5\r\nimage\r\n0\r\n\r\n", tap.wire)
        bytes("image") { tap.body($0, taken: true) }
        let heard = tap.finish()
        #expect(heard.sentRequests.map { $0.map(\.value) } == [["a"], ["a"]])
        #expect(heard.body.bytes == 5 && heard.lastPiece == 5)
        #expect(heard.body.sha256 == SHA256.hex(Array("image".utf8)))
        let wire = try #require(heard.wire)
        #expect(wire.bytes == 15)
        let staged = try #require(wire.staged)
        #expect(try FileSystem.readFile(staged.temporaryPath, limit: 100) == Array("5\r\nimage\r\n0\r\n\r\n".utf8))
        // Only the last request's two files are left, under temporary names.
        #expect(directory.contents().count == 2)
        staged.discard()
        heard.body.staged?.discard()
    }

    @Test func dropsWireBytesThatAreTheDecodedOnes() throws {
        let directory = TemporaryDirectory("wiretap")
        defer { directory.remove() }
        let tap = WireTap(directory: directory.path)
        tap.startHop(number: 1)
        Array("same".utf8).withUnsafeBytes { tap.wire($0) }
        Array("same".utf8).withUnsafeBytes { tap.body($0, taken: true) }
        let heard = tap.finish()
        #expect(heard.wire == nil)
        #expect(directory.contents().count == 1)
        heard.body.staged?.discard()
    }
}
