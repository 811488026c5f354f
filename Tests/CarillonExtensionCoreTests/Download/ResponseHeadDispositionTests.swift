import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// What the downloader does with a response, decided from its head alone (SPEC §2), as a table.
@Suite struct ResponseHeadDispositionTests {
    static let cap = 10_485_760

    @Test(
        arguments: [
            (["HTTP/1.1 200 OK", "Content-Length: 70"], ResponseHead.Disposition.image(announcedLength: 70)),
            (["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"], .image(announcedLength: nil)),
            (["HTTP/1.1 200 OK", "Transfer-Encoding: Chunked", "Content-Encoding: identity"], .image(announcedLength: nil)),
            (["HTTP/1.1 200 OK", "Content-Length: 70", "Content-Length: 70"], .image(announcedLength: 70)),
            (["HTTP/1.1 200 OK", "Content-Length: 70, 70"], .image(announcedLength: 70)),
            (["HTTP/1.1 200 OK", "Content-Length: 10485760"], .image(announcedLength: 10_485_760)),
            (["HTTP/1.1 200 OK", "Content-Encoding: identity", "Content-Encoding: "], .image(announcedLength: nil)),
            (["HTTP/1.1 302 Found", "Location: /a", "Content-Length: 11534336"], .redirect),
            (["HTTP/1.1 301 Moved", "Content-Encoding: gzip"], .redirect),
            // Round 3: the codings URLSession decodes pass, lowercased, in order, identity dropped; the
            // announced length of a coded body is its encoded size and is not compared with the cap.
            (["HTTP/1.1 200 OK", "Content-Encoding: gzip"], .image(announcedLength: nil, codings: ["gzip"])),
            (["HTTP/1.1 200 OK", "Content-Encoding: GZIP, Br"], .image(announcedLength: nil, codings: ["gzip", "br"])),
            (
                ["HTTP/1.1 200 OK", "Content-Encoding: identity", "Content-Encoding: deflate", "Content-Length: 99999999"],
                .image(announcedLength: 99_999_999, codings: ["deflate"])
            ),
            (["HTTP/1.1 303 See Other"], .redirect),
            (["HTTP/1.1 307 Temporary Redirect"], .redirect),
            (["HTTP/1.1 308 Permanent Redirect"], .redirect),
            (
                ["HTTP/1.1 404 Not Found", "Content-Length: 11534336"],
                .refused(Outcome(.httpStatus, "final response status 404, expected 200"))
            ),
            (
                ["HTTP/1.1 300 Multiple Choices", "Location: /a"],
                .refused(Outcome(.httpStatus, "final response status 300, expected 200 (only 301, 302, 303, 307 and 308 are followed)"))
            ),
            (
                ["HTTP/1.1 304 Not Modified"],
                .refused(Outcome(.httpStatus, "final response status 304, expected 200 (only 301, 302, 303, 307 and 308 are followed)"))
            ),
            (["HTTP/1.1 204 No Content"], .refused(Outcome(.httpStatus, "final response status 204, expected 200"))),
            (
                ["HTTP/1.1 200 OK", "Content-Length: 70", "Content-Length: 71"],
                .refused(Outcome(.network, "malformed response: conflicting Content-Length values '70' and '71'"))
            ),
            (
                ["HTTP/1.1 200 OK", "Content-Length: 70, 71"],
                .refused(Outcome(.network, "malformed response: conflicting Content-Length values '70' and '71'"))
            ),
            (
                ["HTTP/1.1 200 OK", "Content-Length: -1"],
                .refused(Outcome(.network, "malformed response: Content-Length '-1' is not a number"))
            ),
            (
                ["HTTP/1.1 200 OK", "Content-Length: 10485761"],
                .refused(Outcome(.tooLarge, "announced Content-Length 10485761 is over the 10 MiB cap; refused before the body"))
            ),
            (
                ["HTTP/1.1 200 OK", "Content-Encoding: identity", "Content-Encoding: zstd"],
                .refused(
                    Outcome(
                        .contentEncoding,
                        "response has Content-Encoding 'identity', 'zstd': 'zstd' is a coding URLSession does not decode (it decodes gzip, deflate and br)"
                    ))
            ),
            (
                ["HTTP/1.1 200 OK", "Content-Encoding: br, compress", "Content-Length: 10485761"],
                .refused(
                    Outcome(
                        .contentEncoding,
                        "response has Content-Encoding 'br, compress': 'compress' is a coding URLSession does not decode (it decodes gzip, deflate and br)"
                    ))
            ),
            (
                ["HTTP/1.1 200 OK", "Transfer-Encoding: gzip, chunked"],
                .refused(
                    Outcome(
                        .network,
                        "malformed response: Transfer-Encoding 'gzip, chunked'; only chunked is a transfer coding HTTP/1.1 clients take"))
            ),
            (
                ["HTTP/1.1 200 OK", "Transfer-Encoding: chunked", "Transfer-Encoding: gzip"],
                .refused(
                    Outcome(
                        .network,
                        "malformed response: Transfer-Encoding 'chunked', 'gzip'; only chunked is a transfer coding HTTP/1.1 clients take"))
            ),
            // A non-200 is http-status whatever else is wrong with it.
            (
                ["HTTP/1.1 500 Oops", "Content-Encoding: gzip", "Content-Length: 1", "Content-Length: 2"],
                .refused(Outcome(.httpStatus, "final response status 500, expected 200"))
            ),
        ] as [([String], ResponseHead.Disposition)])
    func decidesBeforeTheBody(lines: [String], disposition: ResponseHead.Disposition) {
        #expect(ResponseHeadTests.head(lines).disposition(cap: Self.cap) == disposition)
    }
}
