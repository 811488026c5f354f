import Testing

@testable import CarillonExtensionCore

/// The libcurl-code-to-reason mapping, as a table: it is a pure function of what the transfer reported.
@Suite struct TransferReportTests {
    private static func report(
        _ code: Int32, status: Int = 200, bytes: Int = 100, encoding: String? = nil, cap: Bool = false,
        statusStop: Bool = false, encodingStop: Bool = false, writeErrno: Int32? = nil, cancelled: Bool = false
    ) -> TransferReport {
        TransferReport(
            curlCode: code, curlMessage: "message", status: status, contentEncoding: encoding, bytesWritten: bytes,
            stoppedAtCap: cap, stoppedForStatus: statusStop, stoppedForEncoding: encodingStop, writeErrno: writeErrno,
            cancelled: cancelled)
    }

    @Test(arguments: [
        (report(0), nil),
        (report(0, encoding: "identity"), nil),
        (report(0, status: 204, bytes: 0), Reason.httpStatus),
        (report(0, status: 404), .httpStatus),
        (report(0, bytes: 0), .emptyBody),
        (report(0, encoding: "gzip"), .contentEncoding),
        (report(0, encoding: "identity, br"), .contentEncoding),
        (report(23, cap: true), .tooLarge),
        (report(23, status: 500, statusStop: true), .httpStatus),
        (report(23, encoding: "gzip", encodingStop: true), .contentEncoding),
        (report(23, writeErrno: 28), .storage),
        (report(23), .storage),
        (report(42, cancelled: true), .expired),
        (report(28, cancelled: true), .expired),
        (report(1), .insecureURL),
        (report(3), .invalidURL),
        (report(47), .tooManyRedirects),
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
        #expect(Self.report(0, status: 404).failure?.detail.contains("404") == true)
    }
}
