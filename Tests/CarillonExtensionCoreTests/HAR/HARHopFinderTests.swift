import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Finding the entry that answered each request of the extension's chain, and what a capture's request
/// says about the answer.
@Suite struct HARHopFinderTests {
    static func archive(_ entries: [(url: String, started: String, status: Int)], headers: String = "[]") throws -> HARArchive {
        let text = entries.map {
            HARReaderTests.entry(
                url: $0.url, started: $0.started,
                response: #"{"status":\#($0.status),"headers":\#(headers),"content":{"mimeType":"image/png"}}"#)
        }
        return try HARReader().read(HARReaderTests.document(entries: text.joined(separator: ",")))
    }

    @Test(arguments: [
        ("HTTPS://IMG.Example.com:443/a.png#x", "https://img.example.com/a.png"),
        ("https://img.example.com", "https://img.example.com/"),
        ("https://img.example.com/A.png?b=1&X-Amz-Date=20261202T100000Z&c=2", "https://img.example.com/A.png?b=1&c=2"),
        ("https://img.example.com/a.png?Expires=1", "https://img.example.com/a.png"),
        ("https://img.example.com:8443/a.png", "https://img.example.com:8443/a.png"),
    ])
    func comparesNormalisedURLs(url: String, expected: String) throws {
        #expect(HARHopFinder(archive: try Self.archive([])).comparable(url) == expected)
    }

    /// A redirect's target stored before the redirect in the file is found by start time; one that
    /// started before the redirect is not its answer.
    @Test func findsRedirectTargetsAcrossEntriesStoredOutOfOrder() throws {
        let archive = try Self.archive([
            ("https://a.example/b.png", "2026-12-02T10:00:02.000Z", 200),
            ("https://a.example/b.png", "2026-12-02T09:00:00.000Z", 200),
            ("https://a.example/a", "2026-12-02T10:00:01.000Z", 302),
        ])
        let finder = HARHopFinder(archive: archive)
        let first = try #require(finder.firstEntry(for: "https://a.example/a"))
        #expect(first.entry.index == 2)
        #expect(first.warning == nil)
        #expect(finder.entry(for: "https://A.example/b.png", after: first.entry)?.index == 0)
        #expect(finder.entry(for: "https://a.example/c.png", after: first.entry) == nil)
        #expect(finder.nearest(to: "https://a.example/b.png?v=2").map(\.index) == [1, 0])
    }

    /// carillon's entry for a refused handshake asked again with relaxed TLS rules (`_carillon.relaxed_tls`)
    /// is never the first answer nor a redirect's target, however full: the refused entry is, and the
    /// transfer keeps the relaxed one as its alternative, marked.
    @Test func aRelaxedTLSEntryIsNeverAHopOfItsOwn() throws {
        let url = "https://a.example/a.png"
        let refused = HARReaderTests.entry(url: url, response: #"{"status":0,"headers":[],"content":{}}"#)
        let relaxed = HARReaderTests.entry(
            url: url, started: "2026-12-02T10:00:01.000Z", response: #"{"status":200,"headers":[],"content":{"mimeType":"image/png"}}"#
        ).replacingOccurrences(of: #""timings""#, with: #""_carillon":{"relaxed_tls":true},"timings""#)
        // carillon's own file: another exporter's `_carillon` fields are ignored, as HAR says of custom fields.
        let archive = try HARReader().read(HARReaderTests.document(creator: "carillon-nse", entries: refused + "," + relaxed))
        let finder = HARHopFinder(archive: archive)
        let first = try #require(finder.firstEntry(for: url))
        #expect(first.entry.index == 0)
        #expect(first.warning == nil)
        #expect(finder.entry(for: url, after: first.entry) == nil)
        let transfer = HARTransfer(archive: archive, first: first.entry, url: url, cap: 1000)
        #expect(transfer.transfer.hops.map(\.relaxedTLS) == [false, true])
    }

    @Test func prefersAFullAnswerOverA304AndSaysSo() throws {
        let archive = try Self.archive([
            ("https://a.example/a.png", "2026-12-02T10:00:00.000Z", 304), ("https://a.example/a.png", "2026-12-02T10:00:01.000Z", 200),
        ])
        let found = try #require(HARHopFinder(archive: archive).firstEntry(for: "https://a.example/a.png"))
        #expect(found.entry.index == 1)
        #expect(
            found.warning
                == "the HAR has 2 entries for this URL, which answered differently: entry 1 (200) was replayed; entry 0 answered 304")
        #expect(
            HARRequestComparison.warnings(archive.entries[0]) == [
                "entry 0 is a 304 answer to a conditional request; an extension's first fetch is unconditional and would get the full answer"
            ])
    }

    @Test func comparesTheCapturedRequestWithTheExtensions() throws {
        let archive = try HARReaderTests.read("chrome.har")
        let image = try #require(archive.entries.first { $0.request.url.hasSuffix("/push/a.png") })
        let differences = HARRequestComparison.differences(image, extensionHeaders: .iPhone)
        #expect(differences.map(\.header) == ["accept", "user-agent", "accept-encoding"])
        #expect(differences[0].varies)
        #expect(differences[0].extensionValue == "*/*")
        #expect(!differences[1].varies)
        #expect(HARRequestComparison.warnings(image).first?.contains("carried Cookie") == true)
        #expect(
            HARRequestComparison.notes(image, exporter: .chrome) == [
                "entry 0 came from the browser's cache (disk)",
                "entry 0's HTTP/2 pseudo-header fields (:method, :authority, :scheme, :path) were set aside",
            ])
        let failed = try #require(archive.entries.first { $0.response?.status == 0 })
        #expect(HARRequestComparison.notes(failed, exporter: .chrome).first == "entry 2 recorded an error: net::ERR_CERT_DATE_INVALID")
        let sanitized = try HARReaderTests.read("chrome-sanitized.har")
        #expect(HARRequestComparison.warnings(sanitized.entries[0]).isEmpty)
    }
}
