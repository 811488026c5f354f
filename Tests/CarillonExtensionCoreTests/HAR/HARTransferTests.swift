import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A HAR's entries as the seam's recorded transfer: what each hop carries.
@Suite struct HARTransferTests {
    /// The entries the chain can reach, from the first on, in start order: the first URL and each
    /// redirect's target. Another URL's entry is left alone (entry 2 here: no request asks for it).
    @Test func makesHopsFromTheFirstEntryOnInStartOrder() throws {
        let archive = try HARReaderTests.read("chrome.har")
        let first = try #require(archive.entries.first { $0.index == 1 })
        let made = HARTransfer(archive: archive, first: first, url: "https://img.example.com/short/a", cap: 1 << 20)
        #expect(made.entries == [1, 0])
        #expect(made.transfer.hops.map(\.statusLine) == ["HTTP/2 302", "HTTP/2 200"])
        #expect(made.transfer.hops[1].remote == "203.0.113.7:443")
        #expect(made.transfer.hops[1].fields.first == HTTPField(name: "content-type", value: "image/png"))
        #expect(made.noResponse == [:])
        let gone = try #require(archive.entries.first { $0.index == 2 })
        let unanswered = HARTransfer(archive: archive, first: gone, url: gone.request.url, cap: 1 << 20)
        #expect(unanswered.noResponse == ["https://img.example.com/gone.png": "net::ERR_CERT_DATE_INVALID"])
        #expect(unanswered.transfer.hops[0].end.curlCode == 7)
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

    /// carillon's own entry: `_carillon.wire` (the body as received, inline or a file beside the HAR)
    /// and `_carillon.decoded.last_piece` reach the recorded hop; inline wire bytes whose size is not
    /// the one recorded are a note (a file is the source's to read, not the reader's).
    @Test(
        arguments: [
            (#""wire":{"bytes":3,"sha256":"ab","encoding":"base64","text":"H4sI"}"#, RecordedHop.Body.bytes([0x1F, 0x8B, 0x08]), nil),
            (
                #""wire":{"bytes":9,"sha256":"ab","_file":"bodies/ab.wire"}"#, .file(path: "/rec/bodies/ab.wire"),
                nil
            ),
            (
                #""wire":{"bytes":4,"sha256":"ab","encoding":"base64","text":"H4sI"}"#, .bytes([0x1F, 0x8B, 0x08]),
                "entry 0's wire bytes: 4 recorded, 3 bytes kept"
            ),
            (
                #""wire":{"bytes":3,"sha256":"ab","encoding":"base64","text":"H4s!"}"#,
                .absent(why: "its inline wire bytes are not valid base64"), nil
            ),
            (#""wire":{"bytes":3,"sha256":"ab","comment":"not kept"}"#, .absent(why: "its wire bytes were not kept"), nil),
            (#""wire":null"#, nil, nil), (#""wire":{"bytes":-1,"sha256":"ab"}"#, nil, nil),
        ] as [(String, RecordedHop.Body?, String?)])
    func readsTheWireBytesOfCarillonsOwnEntry(wire: String, expected: RecordedHop.Body?, note: String?) throws {
        let entry =
            #"{"startedDateTime":"2026-12-02T10:00:00.000Z","request":{"method":"GET","url":"https://a.example/i"},"#
            + #""response":{"status":200,"headers":[],"content":{"size":5,"mimeType":"image/png","text":"aW1hZ2U=","encoding":"base64"}},"#
            + #""_carillon":{"decoded":{"bytes":5,"sha256":"x","last_piece":5},\#(wire)}}"#
        let archive = try HARReader().read(HARReaderTests.document(creator: "carillon-nse", entries: entry))
        let first = try #require(archive.entries.first)
        let made = HARTransfer(archive: archive, first: first, url: "https://a.example/i", cap: 1 << 20, directory: "/rec")
        let hop = try #require(made.transfer.hops.first)
        #expect(hop.lastPiece == 5)
        #expect(hop.body == .bytes(Array("image".utf8)))
        #expect(hop.wire?.body == expected)
        if expected != nil { #expect(hop.wire?.bytes ?? 0 > 0 && hop.wire?.sha256 == "ab") }
        #expect(made.notes == (note.map { [0: [$0]] } ?? [:]))
    }

    /// A 304 answering the browser's conditional request is no answer the extension gets: with no other
    /// answer for the URL in the file it is a gap naming the conditional request (undetermined); with
    /// one, that one answers; a 304 to an unconditional request is its status, as live.
    @Test(
        arguments: [
            ([(304, #"[{"name":"If-None-Match","value":"\"v1\""}]"#)], 0, #"a 304 answering a conditional request (If-None-Match: "v1")"#),
            ([(304, #"[{"name":"if-modified-since","value":"Wed, 02 Dec 2026 09:00:00 GMT"}]"#)], 0, "(if-modified-since: Wed, 02 Dec"),
            ([(304, "[]")], 0, nil),
            ([(304, #"[{"name":"If-None-Match","value":"\"v1\""}]"#), (500, "[]")], 1, nil),
        ] as [([(Int, String)], Int, String?)])
    func aConditional304StandsInOnlyWithoutAnotherAnswer(entries: [(Int, String)], chosen: Int, words: String?) throws {
        let text = entries.enumerated().map { index, entry in
            #"{"startedDateTime":"2026-12-02T10:00:0\#(index).000Z","request":{"method":"GET","url":"https://a.example/i.png","headers":\#(entry.1)},"#
                + #""response":{"status":\#(entry.0),"headers":[],"content":{"mimeType":"image/png"}},"timings":{"wait":1}}"#
        }
        let archive = try HARReader().read(HARReaderTests.document(entries: text.joined(separator: ",")))
        let first = try #require(HARHopFinder(archive: archive).firstEntry(for: "https://a.example/i.png"))
        #expect(first.entry.index == chosen)
        let made = HARTransfer(archive: archive, first: first.entry, url: "https://a.example/i.png", cap: 1000)
        let hop = try #require(made.transfer.hops.first)
        if let words {
            #expect(hop.end.unanswered?.contains(words) == true, "\(hop.end.unanswered ?? "")")
            #expect(hop.statusLine.isEmpty)
        } else {
            #expect(hop.end.unanswered == nil)
            #expect(hop.statusLine == "HTTP/1.1 \(entries[chosen].0)")
        }
    }
}
