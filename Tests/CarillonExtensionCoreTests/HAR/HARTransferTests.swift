import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A HAR's entries as the seam's recorded transfer: what each hop carries.
@Suite struct HARTransferTests {
    @Test func makesHopsFromTheFirstEntryOnInStartOrder() throws {
        let archive = try HARReaderTests.read("chrome.har")
        let first = try #require(archive.entries.first { $0.index == 1 })
        let made = HARTransfer(archive: archive, first: first, url: "https://img.example.com/short/a", cap: 1 << 20)
        #expect(made.entries == [1, 0, 2])
        #expect(made.transfer.hops.map(\.statusLine) == ["HTTP/2 302", "HTTP/2 200", ""])
        #expect(made.transfer.hops[1].remote == "203.0.113.7:443")
        #expect(made.transfer.hops[1].fields.first == RecordedField(name: "content-type", value: "image/png"))
        #expect(made.noResponse == ["https://img.example.com/gone.png": "net::ERR_CERT_DATE_INVALID"])
        #expect(made.transfer.hops[2].end.curlCode == 7)
        // The first hop is recorded under the URL the extension asks for.
        let asked = HARTransfer(archive: archive, first: first, url: "https://IMG.example.com/short/a#x", cap: 1 << 20)
        #expect(asked.transfer.hops[0].url == "https://IMG.example.com/short/a#x")
    }

    @Test(arguments: [
        ("203.0.113.7", "https://a.example/x", "203.0.113.7:443"), ("[::1]", "https://a.example:8443/x", "[::1]:8443"),
        ("2001:db8::1", "https://[2001:db8::1]/x", "[2001:db8::1]:443"),
    ])
    func writesTheRemoteWithTheURLsPort(address: String, url: String, expected: String) {
        let entry = HAREntry(
            index: 0, startedText: "", started: nil, request: HARMessage(url: url), response: nil, serverIPAddress: address)
        #expect(HARTransfer.remote(entry) == expected)
    }

    /// A body over the cap becomes its first cap + 1 bytes, decoded from a prefix of its text.
    @Test(arguments: [
        ("base64", String(repeating: "QUJD", count: 100), Array("ABCABCABCAB".utf8)),
        ("", String(repeating: "x", count: 50), Array(repeating: UInt8(ascii: "x"), count: 11)),
    ])
    func cutsAnOverCapBodyJustPastTheCap(encoding: String, text: String, expected: [UInt8]) throws {
        let content = HARContent(mimeType: "text/plain", text: text, encoding: encoding.isEmpty ? nil : encoding)
        let entry = HAREntry(
            index: 0, startedText: "", started: nil, request: HARMessage(url: "https://a.example/x"),
            response: HARResponse(status: 200, message: HARMessage(), content: content))
        #expect(HARTransfer.prefix(entry, cap: 10) == expected)
    }
}
