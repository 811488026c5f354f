import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The one loop every download goes through (``TransferFeed/run(_:configuration:source:tap:sink:)``),
/// fed recorded hops from tables: the exact outcome and the bytes the sink saw for every decision that
/// needs no socket (statuses, redirects by the extension's rules, heads, the cap, recorded time). These
/// rows stand where live downloads of the same answers stood; what only libcurl does (TLS, HTTP/2,
/// decoding, framing it parses, waking and cancelling) stays live (CurlDownloader*Tests).
@Suite struct TransferFeedTests {
    static let base = "https://img.test"
    static let png = TransferMachineTests.png

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The hops: path, status line after "HTTP/1.1 ", fields; the last one's body is `png`.
        var hops: [(path: String, status: String, fields: [(String, String)])]
        var reason: Reason?
        /// The outcome's exact detail (`{base}` is the recording's origin).
        var detail: String?
        var delivered: Int
        var budget: Duration = .seconds(20)
        var expireAfter: Duration? = nil
        /// Each hop's steps in microseconds (name looked up, connected, TLS done, first byte, total).
        var steps: [Int64] = [100, 200, 300, 1_000, 2_000]
        var testDescription: String { name }
    }

    static func refused(
        _ name: String, _ path: String, _ status: String, _ fields: [(String, String)] = [], _ reason: Reason, _ detail: String
    )
        -> Case
    {
        Case(name: name, hops: [(path, status, fields)], reason: reason, detail: detail, delivered: 0)
    }

    static let statuses: [Case] = [
        refused(
            "a 404 announcing a large body", "/bad/status-404-large", "404 Not Found", [("Content-Length", "11534336")], .httpStatus,
            "final response status 404, expected 200"),
        refused(
            "a 300 with a Location", "/redirect/to?status=300&location=/img/png", "300 Multiple Choices", [("Location", "/img/png")],
            .httpStatus, "final response status 300, expected 200 (only 301, 302, 303, 307 and 308 are followed)"),
        refused(
            "a 303 without Location", "/redirect/to?status=303", "303 See Other", [], .httpStatus,
            "redirect 1 (303 from '{base}/redirect/to?status=303') has no Location header"),
    ]

    static let heads: [Case] = [
        refused(
            "zstd", "/enc/zstd", "200 OK", [("Content-Encoding", "zstd")], .contentEncoding,
            "response has Content-Encoding 'zstd': 'zstd' is a coding URLSession does not decode (it decodes gzip, deflate and br)"),
        refused(
            "compress", "/enc/compress", "200 OK", [("Content-Encoding", "compress")], .contentEncoding,
            "response has Content-Encoding 'compress': 'compress' is a coding URLSession does not decode (it decodes gzip, deflate and br)"),
        refused(
            "an unknown coding after gzip", "/enc/unknown", "200 OK", [("Content-Encoding", "gzip, x-carillon")], .contentEncoding,
            "response has Content-Encoding 'gzip, x-carillon': 'x-carillon' is a coding URLSession does not decode (it decodes gzip, deflate and br)"
        ),
        refused(
            "an announced length one over the cap", "/size/cap-plus-1", "200 OK", [("Content-Length", "10485761")], .tooLarge,
            "announced Content-Length 10485761 is over the 10 MiB cap; refused before the body"),
    ]

    static let redirects: [Case] = [
        refused(
            "a redirect to file:", "/redirect/to-file", "302 Found", [("Location", "file:///etc/passwd")], .insecureURL,
            "redirect 1 (302 from '{base}/redirect/to-file'): Location 'file:///etc/passwd' uses scheme 'file'; only https is allowed"),
        refused(
            "a redirect with user info", "/redirect/to?location=https://user:secret@img.test/img/png", "302 Found",
            [("Location", "https://user:secret@img.test/img/png")], .invalidURL,
            "redirect 1 (302 from '{base}/redirect/to?location=https://user:secret@img.test/img/png'): Location 'https://user:secret@img.test/img/png' contains user info before the host"
        ),
        refused(
            "a redirect to port 0", "/redirect/to?location=https://127.0.0.1:0/img/png", "302 Found",
            [("Location", "https://127.0.0.1:0/img/png")], .invalidURL,
            "redirect 1 (302 from '{base}/redirect/to?location=https://127.0.0.1:0/img/png'): Location 'https://127.0.0.1:0/img/png' has an invalid port '0'"
        ),
        Case(
            name: "six redirects",
            hops: (1...6).reversed().map { ("/redirect/hops/\($0)", "302 Found", [("Location", "/redirect/hops/\($0 - 1)")]) },
            reason: .tooManyRedirects,
            detail: "more than 5 redirects: redirect 6 (302 from '{base}/redirect/hops/1') to '/redirect/hops/0'",
            delivered: 0),
    ]

    static func followed(_ name: String, _ first: (String, String, [(String, String)]), _ target: String) -> Case {
        Case(
            name: name, hops: [first, (target, "200 OK", [("Content-Type", "image/png")])], reason: nil, detail: nil, delivered: png.count)
    }

    static let accepted: [Case] = [
        followed("an absolute redirect", ("/redirect/absolute", "302 Found", [("Location", "https://img.test/img/png")]), "/img/png"),
        followed("a 307", ("/redirect/307", "307 Temporary Redirect", [("Location", "/img/png")]), "/img/png"),
        followed("a 308", ("/redirect/308", "308 Permanent Redirect", [("Location", "/img/png")]), "/img/png"),
        followed(
            "a 303 elsewhere", ("/redirect/to?status=303&location=/img/jpeg", "303 See Other", [("Location", "/img/jpeg")]), "/img/jpeg"),
        Case(
            name: "one length repeated",
            hops: [("/bad/content-length-repeated", "200 OK", [("Content-Length", "100"), ("Content-Length", "100")])],
            reason: nil, detail: nil, delivered: png.count),
        Case(
            name: "identity", hops: [("/enc/identity", "200 OK", [("Content-Encoding", "identity")])], reason: nil, detail: nil,
            delivered: png.count),
    ]

    static let limits: [Case] = [
        Case(
            name: "a body over a cap of 60 bytes, streamed", hops: [("/img/png", "200 OK", [])], reason: .tooLarge,
            detail: "body passed the 60 bytes cap while streaming: 100 decoded bytes from 100 wire bytes, 40 over the cap; stopped there",
            delivered: 0),
        Case(
            name: "a 1.5 s head under a 0.5 s budget", hops: [("/late/headers", "200 OK", [])], reason: .timeout,
            detail:
                "the download's 500 ms time budget ran out, 500 ms in all, while waiting for the response head from img.test, after 0 body bytes (libcurl error 28)",
            delivered: 0, budget: .milliseconds(500), steps: [100, 200, 300, 1_500_000, 1_510_000]),
        Case(
            name: "a 1.5 s head and time-will-expire at 0.5 s", hops: [("/late/headers", "200 OK", [])], reason: .expired,
            detail:
                "time-will-expire arrived before the download finished, while waiting for the response head from img.test, after 0 body bytes",
            delivered: 0, expireAfter: .milliseconds(500), steps: [100, 200, 300, 1_500_000, 1_510_000]),
        Case(
            name: "a 1.5 s head within the budget", hops: [("/late/headers", "200 OK", [])], reason: nil, detail: nil, delivered: png.count,
            budget: .seconds(5), steps: [100, 200, 300, 1_500_000, 1_510_000]),
        Case(
            name: "two hops of 0.3 s under a 0.5 s budget",
            hops: [("/redirect/307", "307 Temporary Redirect", [("Location", "/img/png")]), ("/img/png", "200 OK", [])],
            reason: .timeout,
            detail:
                "the download's 500 ms time budget ran out on request 2 of the chain, after 1 redirect, 500 ms in all, while waiting for the response head from img.test, after 0 body bytes (libcurl error 28)",
            delivered: 0, budget: .milliseconds(500), steps: [100, 200, 300, 250_000, 300_000]),
    ]

    @Test(arguments: statuses + heads + redirects + accepted + limits)
    func decidesAsLiveFromRecordedHops(_ test: Case) throws {
        var configuration = DownloadConfiguration(limits: DownloadLimits(budget: test.budget, maximumBytes: 10_485_760))
        if test.name.contains("cap of 60") { configuration.limits.maximumBytes = 60 }
        let hops = test.hops.enumerated().map { index, hop in
            var made = TransferMachineTests.hop(
                Self.base + hop.path, hop.status, hop.fields,
                body: index == test.hops.count - 1 ? .bytes(Self.png) : .absent(why: "not kept"))
            made.microseconds = test.steps
            return made
        }
        var source = RecordedTransferSource(
            transfer: RecordedTransfer(hops: hops), configuration: configuration, at: 1_800_000_000, expireAfter: test.expireAfter)
        var delivered = 0
        let report = TransferFeed.run(
            try ImageURL(validating: Self.base + test.hops[0].path), configuration: configuration, source: &source,
            sink: { piece in
                delivered += piece.count
                return true
            })
        #expect(report.failure?.reason == test.reason, "\(String(describing: report.failure))")
        if let detail = test.detail { #expect(report.failure?.detail == detail.replacingOccurrences(of: "{base}", with: Self.base)) }
        #expect(delivered == test.delivered, "no byte of a refused response reaches the sink")
    }
}
