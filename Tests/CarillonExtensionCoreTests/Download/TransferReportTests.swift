import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The libcurl-code-to-reason mapping, as a table: it is a pure function of what the transfer reported.
@Suite struct TransferReportTests {
    private static func report(
        _ code: Int32, status: Int = 200, bytes: Int = 100, message: String = "message", refusal: Outcome? = nil,
        cap: Bool = false, sink: Bool = false, cancelled: Bool = false
    ) -> TransferReport {
        TransferReport(
            curlCode: code, curlMessage: message, status: status, bytesWritten: bytes, refusal: refusal,
            stoppedAtCap: cap, stoppedBySink: sink, cancelled: cancelled)
    }

    @Test(
        arguments: [
            (report(0), nil),
            (report(0, status: 204, bytes: 0), Reason.httpStatus),
            (report(0, status: 404), .httpStatus),
            (report(0, bytes: 0), .emptyBody),
            (report(23, refusal: Outcome(.contentEncoding, "x")), .contentEncoding),
            (report(23, refusal: Outcome(.httpStatus, "x")), .httpStatus),
            (report(23, cap: true), .tooLarge),
            (report(23, sink: true), .storage),
            (report(23), .storage),
            (report(42, cancelled: true), .expired),
            (report(28, cancelled: true), .expired),
            (report(23, refusal: Outcome(.tooLarge, "x"), cancelled: true), .expired),
            // Every URL libcurl sees passed ImageURL: error 1 is the reply (HTTP/0.9), not a scheme.
            (report(1), .network),
            (report(8), .network),
            (report(56, message: "Illegal or missing hexadecimal sequence in chunked-encoding"), .network),
            (report(3), .invalidURL),
            (report(28), .timeout),
            (report(63), .tooLarge),
            // Round 3: a body that does not decode is network (URLSession fails it: cannot decode raw data).
            (report(61), .network),
            (report(35), .tls),
            (report(60), .tls),
            (report(58), .tls),
            (report(77), .tls),
            (report(6), .network),
            (report(7), .network),
            (report(18), .network),
            (report(52), .network),
            (report(56), .network),
            (report(55), .network),
            (report(16), .network),
            (report(92), .network),
        ] as [(TransferReport, Reason?)])
    func classifiesEveryOutcome(report: TransferReport, reason: Reason?) {
        #expect(report.failure?.reason == reason)
    }

    @Test func detailsKeepTheLibcurlCodeAndMessage() {
        let outcome = Self.report(60).failure
        #expect(outcome?.detail.contains("libcurl error 60: message") == true)
        #expect(Self.report(0, status: 404).failure?.detail == "final response status 404, expected 200")
        #expect(Self.report(1).failure?.detail.hasPrefix("malformed response: no valid HTTP/1.x status line") == true)
        #expect(
            Self.report(56, message: "Illegal or missing hexadecimal sequence in chunked-encoding").failure?.detail
                .hasPrefix("malformed response: broken chunked framing") == true)
    }

    /// A timeout in a chain counts the whole chain, not the last request as libcurl's message does.
    @Test func timeoutDetailCountsTheWholeChain() {
        var report = Self.report(28, status: 0, bytes: 0, message: "Operation timed out after 101 milliseconds")
        report.budget = .milliseconds(500)
        report.elapsedMilliseconds = 503
        let hop = TransferHop(
            url: "https://h/", status: 302, location: "/n", bodyBytes: 0, newConnection: false, curlCode: 0, endMilliseconds: 200)
        var stalled = TransferHop(url: "https://h/n", status: 0, bodyBytes: 0, newConnection: false, curlCode: 28, endMilliseconds: 503)
        stalled.facts.remote = "127.0.0.1:443"
        stalled.facts.microseconds = [30, 30, 30, 0, 300_000]
        report.hops = [hop, hop, stalled]
        #expect(
            report.failure
                == Outcome(
                    .timeout,
                    "the download's 500 ms time budget ran out on request 3 of the chain, after 2 redirects, 503 ms in all, while waiting for the response head from h, after 0 body bytes (libcurl error 28)"
                ))
    }

    struct EndCase: Sendable, CustomTestStringConvertible {
        var microseconds: [Int64]
        var remote: String?
        var bytes: Int
        var detail: String
        var testDescription: String { detail }
    }

    /// timeout and expired name the phase, the host and the bytes received.
    @Test(arguments: [
        EndCase(microseconds: [0, 0, 0, 0, 5], remote: nil, bytes: 0, detail: "while resolving cdn.example, after 0 body bytes"),
        EndCase(microseconds: [40, 0, 0, 0, 5], remote: nil, bytes: 0, detail: "while connecting to cdn.example, after 0 body bytes"),
        EndCase(
            microseconds: [40, 0, 0, 0, 5], remote: "192.0.2.1:443", bytes: 0,
            detail: "during the TLS handshake with cdn.example, after 0 body bytes"),
        EndCase(
            microseconds: [40, 90, 900, 1_000, 5_000], remote: "192.0.2.1:443", bytes: 1,
            detail: "while receiving the body from cdn.example, after 1 body byte"),
    ])
    func interruptedDetailsNameThePhaseHostAndBytes(_ test: EndCase) {
        for (code, cancelled, prefix) in [
            (Int32(28), false, "the download's 20000 ms time budget ran out, 0 ms in all, "),
            (Int32(42), true, "time-will-expire arrived before the download finished, "),
        ] {
            var report = Self.report(code, status: 0, bytes: test.bytes)
            report.cancelled = cancelled
            var hop = TransferHop(
                url: "https://cdn.example/i.png", status: 0, bodyBytes: test.bytes, newConnection: true, curlCode: code, endMilliseconds: 0)
            hop.facts.microseconds = test.microseconds
            hop.facts.remote = test.remote
            report.hops = [hop]
            let suffix = code == 28 ? " (libcurl error 28)" : ""
            #expect(report.failure?.detail == prefix + test.detail + suffix)
        }
    }

    /// A hop that ended at the cap, with libcurl's count of its wire bytes.
    private static func cappedHop(wireBytes: Int, keptBytes: Int) -> TransferHop {
        var hop = TransferHop(
            url: "https://example.com/a.png", status: 200, location: nil, bodyBytes: keptBytes, newConnection: true, curlCode: 23,
            endMilliseconds: 5)
        hop.facts.wireBytes = wireBytes
        return hop
    }

    /// A body cut at the cap states the count that passed it, never the bytes kept below it, as decoded
    /// and wire bytes — the same two numbers the trace shows (one byte count per fact): libcurl had not
    /// counted the identity piece it was refusing, which was received all the same.
    @Test func tooLargeStatesTheCountThatPassedTheCap() {
        var report = Self.report(23, status: 200, bytes: 10_400_000)
        report.stoppedAtCap = true
        report.bytesReceivedAtCap = 10_502_400
        report.hops = [Self.cappedHop(wireBytes: 10_400_000, keptBytes: 10_400_000)]
        #expect(
            report.failure
                == Outcome(
                    .tooLarge,
                    "body passed the 10 MiB cap while streaming: 10502400 decoded bytes from 10502400 wire bytes, 16640 over the cap; stopped there"
                ))
        let hop = report.trace(image: nil).hops[0]
        #expect(hop.decodedBytes == 10_502_400 && hop.wireBytes == 10_502_400)
    }

    /// A server's request for a client certificate names the failure it caused before any response;
    /// a server that asked and answered all the same is judged by its answer.
    @Test(
        arguments: [
            (35, 0, Reason.tls, "the server asked for a client certificate, which an extension never sends (libcurl error 35: m)"),
            (56, 0, .tls, "the server asked for a client certificate, which an extension never sends (libcurl error 56: m)"),
            (0, 404, .httpStatus, "final response status 404, expected 200"),
        ] as [(Int32, Int, Reason, String)])
    func aClientCertificateRequestNamesTheFailure(code: Int32, status: Int, reason: Reason, detail: String) {
        var report = Self.report(code, status: status, message: "m")
        report.clientCertificateRequested = true
        #expect(report.failure == Outcome(reason, detail))
    }

    /// The cap's detail says when the bytes were decoded ones, naming the coding.
    @Test func aCapPassedWhileDecodingSaysSo() {
        var report = Self.report(23, cap: true)
        report.contentCodings = ["gzip", "br"]
        report.bytesReceivedAtCap = 10_485_770
        report.hops = [Self.cappedHop(wireBytes: 16_384, keptBytes: 10_480_000)]
        #expect(
            report.failure
                == Outcome(
                    .tooLarge,
                    "decoded body passed the 10 MiB cap while decoding 'gzip, br': 10485770 decoded bytes from 16384 wire bytes, 10 over the cap; decoding stopped there"
                ))
        let hop = report.trace(image: nil).hops[0]
        #expect(hop.decodedBytes == 10_485_770 && hop.wireBytes == 16_384)
    }
}
