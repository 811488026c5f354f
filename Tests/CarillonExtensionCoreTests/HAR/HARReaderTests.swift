import CarillonFuzzChecks
import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The HAR reader: each exporter's files as they are written, and hostile files, which are a clear error.
@Suite struct HARReaderTests {
    static func read(_ name: String) throws -> HARArchive {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Paths.testAssets("HAR/" + name))))
        return try HARReader().read(bytes)
    }

    /// One small HAR document: `entries` as JSON text.
    static func document(creator: String = "test", version: String = "1.2", entries: String) -> [UInt8] {
        Array(#"{"log":{"version":"\#(version)","creator":{"name":"\#(creator)","version":"1"},"entries":[\#(entries)]}}"#.utf8)
    }

    static func entry(url: String = "https://img.example.com/a.png", started: String = "2026-12-02T10:00:00.000Z", response: String)
        -> String
    {
        #"{"startedDateTime":"\#(started)","request":{"method":"GET","url":"\#(url)","httpVersion":"HTTP/1.1","headers":[]},"response":\#(response),"timings":{"send":0,"wait":1,"receive":1}}"#
    }

    @Test(
        arguments: [
            ("chrome.har", HARExporter.chrome, 3, "2"),
            ("chrome-sanitized.har", .chrome, 1, "2"),
            ("chrome-304.har", .chrome, 1, "2"),
            ("firefox.har", .firefox, 1, "2"),
            ("safari.har", .safari, 1, "2"),
            ("httptoolkit.har", .httpToolkit, 2, "1.1"),
            ("proxypin.har", .proxyPin, 1, "1.1"),
            ("polly.har", .polly, 1, "1.1"),
            ("mitmproxy.zhar", .mitmproxy, 1, "1.1"),
        ] as [(String, HARExporter, Int, String)])
    func readsEachExportersShape(file: String, exporter: HARExporter, count: Int, version: String) throws {
        let archive = try Self.read(file)
        #expect(archive.exporter == exporter)
        #expect(archive.entries.count == count)
        #expect(archive.entries.first?.response?.message.httpVersion == version)
        #expect(archive.notes.contains { $0.contains("compressed") } == file.hasSuffix(".zhar"))
    }

    /// What each exporter's image body becomes: bytes, missing (naming why), or undetermined (naming why).
    @Test(arguments: [
        ("chrome.har", "/push/a.png", "bytes", ""),
        ("chrome-sanitized.har", "/push/a.png", "bytes", ""),
        ("chrome-304.har", "/push/a.png", "bytes", ""),
        ("safari.har", "/push/a.png", "bytes", ""),
        ("mitmproxy.zhar", "/push/c.jpg", "bytes", ""),
        ("firefox.har", "/push/a.png", "missing", "Response bodies are not included."),
        ("httptoolkit.har", "/push/a.png", "missing", "HTTP Toolkit leaves bodies over 40 KiB out of HARs"),
        ("httptoolkit.har", "/push/b.png", "bytes", ""),
        ("proxypin.har", "/push/a.png", "undetermined", "ProxyPin writes image bytes as Latin-1 characters"),
        ("polly.har", "/push/a.png", "undetermined", "encoding 'hex', which HAR does not define (Polly.js"),
    ])
    func readsEachExportersBody(file: String, path: String, kind: String, words: String) throws {
        let archive = try Self.read(file)
        let entry = try #require(archive.entries.first { $0.request.url.hasSuffix(path) })
        let body = HARBodyReading.read(entry, exporter: archive.exporter, cap: 10 << 20)
        switch body {
        case .bytes(let bytes, _):
            #expect(kind == "bytes")
            let image = path.hasSuffix(".jpg") ? "sample.jpg" : "sample.png"
            #expect(bytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.testAssets("Images/" + image)))))
        case .missing(let why):
            #expect(kind == "missing")
            #expect(why.contains(words), "\(why)")
            #expect(why.hasPrefix("entry \(entry.index) (image/png"))
        case .undetermined(let why):
            #expect(kind == "undetermined")
            #expect(why.contains(words), "\(why)")
        default:
            Issue.record("unexpected \(body)")
        }
    }

    /// The fixtures and the fuzz target's seeds keep the fuzz target's invariants (reordered entries and
    /// unknown `_` fields read the same).
    @Test(arguments: ["HAR", "Fuzz/Corpus/FuzzHARImport"])
    func fixturesKeepTheFuzzInvariants(folder: String) throws {
        let directory = Paths.testAssets(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix("har") }
        #expect(names.count >= 6)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            do { try FuzzChecks.harImport(bytes) } catch { Issue.record("\(name): \(error.message)") }
        }
    }

    @Test func proxyPinBodiesReadAsLatin1WhenAsked() throws {
        let archive = try Self.read("proxypin.har")
        let body = HARBodyReading.read(archive.entries[0], exporter: .proxyPin, cap: 10 << 20, latin1: true)
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.testAssets("Images/sample.png"))))
        #expect(body == .bytes(png, note: "entry 0 (image/png, \(png.count) bytes)'s text was read as Latin-1 bytes"))
    }

    @Test func chromeSetsPseudoHeadersAsideAndKeepsItsHints() throws {
        let archive = try Self.read("chrome.har")
        let image = try #require(archive.entries.first { $0.request.url.hasSuffix("/push/a.png") })
        #expect(image.request.pseudoHeaders.map(\.name) == [":method", ":authority", ":scheme", ":path"])
        #expect(!image.request.headers.contains { $0.name.hasPrefix(":") })
        #expect(image.hints.fromCache == "disk")
        #expect(image.serverIPAddress == "203.0.113.7")
        #expect(image.connection == "312")
        let failed = try #require(archive.entries.first { $0.request.url.hasSuffix("/gone.png") })
        #expect(failed.response?.status == 0)
        #expect(failed.hints.error == "net::ERR_CERT_DATE_INVALID")
        // Sorted by start: the redirect (stored second) comes first.
        #expect(archive.entries.map(\.index) == [1, 0, 2])
    }

    @Test func safariCacheHitIsAHintAndItsSizeIsNotTrusted() throws {
        let archive = try Self.read("safari.har")
        #expect(archive.entries[0].hints.fromCache == "Memory Cache")
        #expect(archive.exporter.contentSizeUnreliable)
        #expect(archive.exporter.mergesDuplicateHeaders)
    }

    @Test func mitmproxySizeIsTheWireLength() throws {
        let archive = try Self.read("mitmproxy.zhar")
        #expect(archive.exporter.contentSizeIsWire)
        let entry = archive.entries[0]
        #expect(entry.started == Timestamp(iso8601: "2026-12-02T10:00:00.200Z"))
        #expect(entry.response?.content.size == Int(entry.response?.header("Content-Length") ?? ""))
    }

    @Test(
        arguments: [
            ("HTTP/1.1", "1.1"), ("http/1.0", "1.0"), ("h2", "2"), ("http/2.0", "2"), ("HTTP/2", "2"), ("2 2", "2"),
            ("http/2.0+quic/46", "3"), ("h3", "3"), ("HTTP/3", "3"), ("spdy", nil), ("K", nil), ("", nil),
        ] as [(String, String?)])
    func mapsVersionStrings(text: String, expected: String?) {
        #expect(HARHTTPVersion.normalised(text) == expected)
    }

    /// Hostile or foreign files: one clear error each.
    @Test(
        arguments: [
            (Array("[]".utf8), "not a HAR: the document is a JSON array"),
            (Array("{}".utf8), "not a HAR: it has no \"log\" object"),
            (Array(#"{"log":[]}"#.utf8), "\"log\" is a array"),
            (Array(#"{"log":{}}"#.utf8), "has no \"entries\" array"),
            (Array(#"{"log":{"entries":{}}}"#.utf8), "\"log.entries\" is a object"),
            (Array(#"{"log":{"version":"2.0","entries":[]}}"#.utf8), "HAR version '2.0' is not supported"),
            (Array(#"{"log":{"version":2,"entries":[]}}"#.utf8), "\"log.version\" is a number"),
            ([0xFF, 0xFE, 0x7B, 0x00], "the file is UTF-16"),
            (Array(#"{"log":{"entries":["#.utf8) + [0xC3, 0x28] + Array(#""]}}"#.utf8), "not UTF-8"),
            (Array(#"{"log":{"entries":[]}} x"#.utf8), "not JSON"),
            (Array(repeating: UInt8(ascii: "["), count: 100_000), "nested deeper than 64 levels"),
            ([0x78, 0x9C, 0x01, 0x02, 0x03], "the compressed file"),
        ] as [([UInt8], String)])
    func refusesWhatIsNotAHAR(bytes: [UInt8], words: String) {
        #expect {
            _ = try HARReader().read(bytes)
        } throws: { error in
            (error as? HARReadError)?.message.contains(words) == true
        }
    }

    @Test func acceptsABOMAndAMissingVersion() throws {
        let archive = try HARReader().read([0xEF, 0xBB, 0xBF] + Array(#"{"log":{"entries":[]}}"#.utf8))
        #expect(archive.version == "1.1")
        #expect(archive.entries.isEmpty)
    }

    @Test func capsTheFileAndWhatItInflatesTo() throws {
        let text = Self.document(
            entries: Self.entry(
                response: #"{"status":200,"content":{"mimeType":"image/png","text":"\#(String(repeating: "A", count: 200_000))"}}"#))
        #expect(throws: HARReadError.self) { try HARReader(maximumBytes: 100_000).read(text) }
        let bomb = [UInt8](zlibCompress(Array(#"{"log":{"entries":[],"x":""#.utf8) + Array(repeating: UInt8(ascii: " "), count: 4 << 20)))
        #expect(bomb.count < 100_000)
        #expect {
            try HARReader(maximumBytes: 1 << 20).read(bomb)
        } throws: { error in
            (error as? HARReadError)?.message == "the compressed file inflates to more than 1048576 bytes"
        }
    }

    /// Entries of wrong types are set aside, each with why (listed with the entries, never a line's
    /// note: they are no line's entry); the others are read.
    @Test func setsAsideEntriesItCannotRead() throws {
        let good = Self.entry(response: #"{"status":200,"content":{"mimeType":"image/png"}}"#)
        let archive = try HARReader().read(Self.document(entries: #"7, {"request":{"url":1}}, {"x":1}, \#(good)"#))
        #expect(archive.entries.map(\.index) == [3])
        #expect(archive.notes.isEmpty)
        #expect(archive.setAside.map(\.index) == [0, 1, 2])
        #expect(
            archive.setAside.map(\.why) == [
                "it is a number, not an object", "\"request.url\" is not a string", "it has no \"request\" object",
            ])
    }

    /// Bodies from small documents: every way an exporter writes one.
    @Test(arguments: [
        (#"{"mimeType":"image/png","text":"iVBORw0KGgo=","encoding":"base64"}"#, "bytes 8"),
        (#"{"mimeType":"image/png","text":"iVBORw0KGgo="}"#, "bytes 8"),
        (#"{"mimeType":"image/png","text":"iVBO\r\nRw0K\nGgo=","encoding":"base64"}"#, "bytes 8"),
        (#"{"mimeType":"text/html","text":"<p>é</p>"}"#, "bytes 9"),
        (#"{"mimeType":"image/png","text":""}"#, "bytes 0"),
        (#"{"mimeType":"image/png","text":"%%%%","encoding":"base64"}"#, "undetermined not valid base64"),
        (#"{"mimeType":"image/png","text":"abcde","encoding":"base64"}"#, "undetermined truncated last group"),
        (#"{"mimeType":"image/png","text":"00ff","encoding":"hex"}"#, "undetermined encoding 'hex'"),
        (#"{"mimeType":"image/png","text":"\u0089PNG"}"#, "undetermined did not base64 it"),
        (#"{"mimeType":"image/png","text":7}"#, "undetermined \"content.text\" is a number"),
        (#"{"mimeType":"image/png","text":"x","encoding":[]}"#, "undetermined \"content.encoding\" is a array"),
        (#"{"mimeType":"image/png","size":10}"#, "missing an unknown exporter left it out"),
        (#"{"mimeType":"image/png","comment":"Body length exceeded"}"#, "missing 'Body length exceeded'"),
        (#"{"mimeType":"image/png","_file":"ab12.png"}"#, "file ab12.png"),
    ])
    func readsBodies(content: String, expected: String) throws {
        let archive = try HARReader().read(Self.document(entries: Self.entry(response: #"{"status":200,"content":\#(content)}"#)))
        let body = HARBodyReading.read(archive.entries[0], exporter: archive.exporter, cap: 1000)
        switch body {
        case .bytes(let bytes, _): #expect(expected == "bytes \(bytes.count)")
        case .missing(let why): #expect(expected.hasPrefix("missing ") && why.contains(expected.dropFirst(8)), "\(why)")
        case .undetermined(let why): #expect(expected.hasPrefix("undetermined ") && why.contains(expected.dropFirst(13)), "\(why)")
        case .file(let name): #expect(expected == "file \(name)")
        case .overCap: Issue.record("over the cap")
        }
    }

    /// An empty text where `Content-Length` announces bytes (Chrome 51) is a missing body, not an empty one.
    @Test func emptyTextWithALengthIsMissing() throws {
        let response = #"{"status":200,"headers":[{"name":"Content-Length","value":"1057"}],"content":{"mimeType":"image/png","text":""}}"#
        let archive = try HARReader().read(Self.document(entries: Self.entry(response: response)))
        guard case .missing(let why) = HARBodyReading.read(archive.entries[0], exporter: .chrome, cap: 1000) else {
            Issue.record("not missing")
            return
        }
        #expect(why.contains("empty text where Content-Length announces 1057 bytes"))
    }

    /// Base64 longer than ⌈cap/3⌉·4 + 4 is refused before decoding; at the bound it is decoded.
    @Test(arguments: [(999, 1336, false), (999, 1337, true), (1000, 1340, false), (1000, 1344, true)])
    func refusesBase64LongerThanTheCap(cap: Int, length: Int, over: Bool) throws {
        let text = String(repeating: "A", count: length)
        let archive = try HARReader().read(
            Self.document(
                entries: Self.entry(response: #"{"status":200,"content":{"mimeType":"image/png","text":"\#(text)","encoding":"base64"}}"#)))
        let body = HARBodyReading.read(archive.entries[0], exporter: .unknown, cap: cap)
        if case .overCap(let atLeast, let detail) = body {
            #expect(over)
            #expect(atLeast > cap)
            #expect(detail == "entry 0 (image/png) holds \(length) characters of base64: more than \(cap) bytes")
        } else {
            #expect(!over, "\(body)")
        }
    }

    @Test func sortsEntriesByStartWhateverTheirOrderAndFraction() throws {
        let entries = [
            Self.entry(url: "https://a/3", started: "2026-12-02T10:00:02.000001Z", response: "{}"),
            Self.entry(url: "https://a/1", started: "2026-12-02T11:00:00.5+01:00", response: "{}"),
            Self.entry(url: "https://a/x", started: "yesterday", response: "{}"),
            Self.entry(url: "https://a/2", started: "2026-12-02T10:00:01Z", response: "{}"),
        ].joined(separator: ",")
        let archive = try HARReader().read(Self.document(entries: entries))
        #expect(archive.entries.map(\.request.url) == ["https://a/1", "https://a/2", "https://a/3", "https://a/x"])
    }

    @Test(
        arguments: [
            (HARTimings(blocked: 1, dns: 2, connect: 8, ssl: 5, send: 0.5, wait: 3, receive: 0.5), [3000, 6000, 11000, 14500, 15000]),
            (HARTimings(send: 0, wait: 4, receive: 1), [0, 0, 0, 4000, 5000]),
        ] as [(HARTimings, [Int64])])
    func convertsDurationsToTheTracesCumulativeTimes(timings: HARTimings, expected: [Int64]) {
        #expect(timings.cumulativeMicroseconds == expected)
    }

    @Test(
        arguments: [
            ("WebInspector", Set<String>(), HARExporter.chrome), ("WebKit Web Inspector", [], .safari), ("Firefox", [], .firefox),
            ("mitmproxy", [], .mitmproxy), ("HTTP Toolkit", [], .httpToolkit), ("Polly.JS", [], .polly),
            ("carillon-nse", [], .carillon), ("", ["_fetchType"], .safari), ("", ["_fromCache"], .chrome), ("Foo", [], .unknown),
        ] as [(String, Set<String>, HARExporter)])
    func recognisesExporters(name: String, fields: Set<String>, expected: HARExporter) {
        #expect(HARExporter.recognise(creatorName: name, fieldNames: fields) == expected)
    }
}

/// zlib-compresses `bytes` with the system's zlib (through python3, as the fixtures are made).
private func zlibCompress(_ bytes: [UInt8]) -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", "import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read(), 9))"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try? process.run()
    input.fileHandleForWriting.write(Data(bytes))
    try? input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return [UInt8](data)
}
