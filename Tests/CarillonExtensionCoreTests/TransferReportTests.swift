import Testing

@testable import CarillonExtensionCore

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

    @Test(arguments: [
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
        (report(61), .contentEncoding),
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
        #expect(Self.report(56, message: "Illegal or missing hexadecimal sequence in chunked-encoding").failure?.detail
            .hasPrefix("malformed response: broken chunked framing") == true)
    }

    /// A timeout in a chain counts the whole chain, not the last request as libcurl's message does.
    @Test func timeoutDetailCountsTheWholeChain() {
        var report = Self.report(28, status: 0, bytes: 0, message: "Operation timed out after 101 milliseconds")
        report.budgetMilliseconds = 500
        report.elapsedMilliseconds = 503
        let hop = TransferHop(url: "https://h/", status: 302, location: "/n", bodyBytes: 0, newConnection: false, curlCode: 0, endMilliseconds: 200)
        report.hops = [hop, hop, TransferHop(url: "https://h/n", status: 0, bodyBytes: 0, newConnection: false, curlCode: 28, endMilliseconds: 503)]
        #expect(report.failure == Outcome(
            .timeout, "the download's 500 ms time budget ran out on request 3 of the chain, after 2 redirects, 503 ms in all, after 0 body bytes (libcurl error 28)"))
    }
}
