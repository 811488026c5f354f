@_spi(Tooling) import CarillonExtensionCore
import Testing

@Suite struct RetryAfterTests {
    static let now = Timestamp(iso8601: "2026-12-01T13:00:00.000Z")!

    @Test(arguments: [
        ("0", 0), ("1", 1_000), ("120", 120_000), (" 5 ", 5_000), ("\t7", 7_000), ("007", 7_000),
        ("86400", 86_400_000), ("86401", 86_400_000), ("99999999999999999999999", 86_400_000),
        // IMF-fixdate: the date minus now; past dates are 0.
        ("Tue, 01 Dec 2026 13:00:02 GMT", 2_000), (" Tue, 01 Dec 2026 13:00:02 GMT ", 2_000), ("Tue, 01 Dec 2026 13:01:00 GMT", 60_000),
        ("Tue, 01 Dec 2026 12:00:00 GMT", 0), ("Sun, 06 Nov 1994 08:49:37 GMT", 0),
        ("Wed, 02 Dec 2026 13:00:00 GMT", 86_400_000), ("Fri, 01 Jan 2027 00:00:00 GMT", 86_400_000),
    ])
    func understood(value: String, milliseconds: Int64) {
        #expect(RetryAfter.wait(value, now: Self.now) == .milliseconds(milliseconds))
    }

    @Test(arguments: [
        "", " ", "-1", "1.5", "+3", "1e3", "soon",
        // Obsolete date forms (RFC 850, asctime) and near misses of IMF-fixdate.
        "Tuesday, 01-Dec-26 13:00:02 GMT", "Tue Dec  1 13:00:02 2026",
        "Tue, 1 Dec 2026 13:00:02 GMT", "Tue, 01 dec 2026 13:00:02 GMT", "Tue, 01 Dec 2026 13:00:02 UTC",
        "Tue, 31 Nov 2026 13:00:02 GMT", "Tue, 01 Dec 2026 24:00:00 GMT", "Xyz, 01 Dec 2026 13:00:02 GMT",
        "Tue,  01 Dec 2026 13:00:0 GMT",
    ])
    func notUnderstood(value: String) {
        #expect(RetryAfter.wait(value, now: Self.now) == nil)
    }
}
