import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct TimestampTests {
    /// Inputs and the instant they denote, in milliseconds since the epoch.
    static let valid: [(String, Int64)] = [
        ("1970-01-01T00:00:00Z", 0),
        ("1970-01-01T00:00:00.000Z", 0),
        ("1970-01-01T00:00:00.001Z", 1),
        ("1970-01-01T00:00:00.5Z", 500),
        ("1970-01-01T00:00:00.12Z", 120),
        ("1970-01-02T00:00:00Z", 86_400_000),
        ("2000-02-29T00:00:00Z", 951_782_400_000),  // divisible by 400: leap
        ("2024-02-29T12:00:00Z", 1_709_208_000_000),
        ("2026-08-20T09:16:44.120Z", 1_787_217_404_120),
        ("2026-08-20T11:16:44.120+02:00", 1_787_217_404_120),
        ("2026-08-20T04:46:44.120-04:30", 1_787_217_404_120),
        ("2026-08-20T09:16:44.120+00:00", 1_787_217_404_120),
        ("2026-08-20T09:16:44.120-00:00", 1_787_217_404_120),
        ("2038-01-19T03:14:07Z", 2_147_483_647_000),  // the 32-bit time_t limit...
        ("2038-01-19T03:14:08Z", 2_147_483_648_000),  // ...and past it
        ("2100-03-01T00:00:00Z", 4_107_542_400_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
        ("1970-01-01T01:00:00+01:00", 0),
        ("2026-01-01T00:30:00+23:59", 1_767_141_060_000),
    ]

    @Test(arguments: valid)
    func parsesValidTimes(text: String, milliseconds: Int64) {
        #expect(Timestamp(iso8601: text)?.millisecondsSinceEpoch == milliseconds)
    }

    static let invalid: [String] = [
        "",
        "2026-08-20",
        "2026-08-20T09:16:44",  // no offset: local time is ambiguous
        "2026-08-20 09:16:44Z",
        "2026-08-20t09:16:44Z",
        "2026-08-20T09:16:44z",
        "2026-8-20T09:16:44Z",
        "26-08-20T09:16:44Z",
        "+2026-08-20T09:16:44Z",
        "2026-08-20T09:16:44.Z",
        "2026-08-20T09:16:44.1234Z",  // finer than milliseconds
        "2026-08-20T09:16:44,120Z",
        "2026-08-20T09:16Z",
        "2026-00-10T00:00:00Z",
        "2026-13-10T00:00:00Z",
        "2026-01-00T00:00:00Z",
        "2026-01-32T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "2026-02-29T00:00:00Z",  // not a leap year
        "1900-02-29T00:00:00Z",  // divisible by 100 but not 400
        "2100-02-29T00:00:00Z",
        "2026-08-20T24:00:00Z",
        "2026-08-20T23:60:00Z",
        "2026-08-20T23:59:60Z",  // leap seconds are not representable
        "2026-08-20T09:16:44+2:00",
        "2026-08-20T09:16:44+02",
        "2026-08-20T09:16:44+0200",
        "2026-08-20T09:16:44+24:00",
        "2026-08-20T09:16:44+02:60",
        "2026-08-20T09:16:44Z ",
        " 2026-08-20T09:16:44Z",
        "2026-08-20T09:16:44ZZ",
        "1969-12-31T23:59:59.999Z",  // before the epoch
        "1970-01-01T00:30:00+01:00",  // before the epoch once the offset is applied
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999-00:01",  // past 9999 once the offset is applied
        "２０２６-08-20T09:16:44Z",  // non-ASCII digits
    ]

    @Test(arguments: invalid)
    func rejectsInvalidTimes(text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }

    static let formatted: [(Int64, String)] = [
        (0, "1970-01-01T00:00:00.000Z"),
        (1, "1970-01-01T00:00:00.001Z"),
        (86_399_999, "1970-01-01T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (1_787_217_404_120, "2026-08-20T09:16:44.120Z"),
        (2_147_483_648_000, "2038-01-19T03:14:08.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ]

    @Test(arguments: formatted)
    func formatsAsUTCWithMilliseconds(milliseconds: Int64, text: String) {
        #expect(Timestamp(millisecondsSinceEpoch: milliseconds).iso8601 == text)
    }

    @Test func clampsOutOfRangeMilliseconds() {
        #expect(Timestamp(millisecondsSinceEpoch: -5) == Timestamp.earliest)
        #expect(Timestamp(millisecondsSinceEpoch: .max) == Timestamp.latest)
        #expect(Timestamp.latest.adding(.milliseconds(Int64.max)) == Timestamp.latest)
        #expect(Timestamp.earliest.adding(.milliseconds(Int64.min)) == Timestamp.earliest)
        // Past Int64 milliseconds: the conversion saturates instead of trapping.
        #expect(Timestamp.latest.adding(.seconds(Int64.max)) == Timestamp.latest)
        #expect(Timestamp.earliest.adding(.seconds(Int64.min)) == Timestamp.earliest)
    }

    /// An interval is added to the whole millisecond, its fraction dropped (toward zero).
    @Test(arguments: [
        (Duration.milliseconds(1), Int64(1_001)), (.microseconds(1_999), 1_001), (.microseconds(999), 1_000),
        (.microseconds(-1_999), 999), (.seconds(-1), 0), (.seconds(86_400), 86_401_000),
    ])
    func addsDurationsToTheMillisecond(duration: Duration, expected: Int64) {
        #expect(Timestamp(millisecondsSinceEpoch: 1_000).adding(duration).millisecondsSinceEpoch == expected)
    }

    /// Every day from 1970 to 2500 (and around 9999) survives format → parse, and consecutive days are
    /// exactly 86,400,000 ms apart: checks the calendar arithmetic against itself over every leap rule.
    @Test func roundTripsEveryDay() {
        var previous: String?
        for day in Int64(0)..<Int64(193_000) {
            let time = Timestamp(millisecondsSinceEpoch: day * 86_400_000 + 45_296_789)
            let text = time.iso8601
            #expect(Timestamp(iso8601: text) == time, "\(text)")
            if let previous { #expect(previous < text) }
            previous = text
        }
        for day in Int64(2_932_800)..<Int64(2_932_897) {
            let time = Timestamp(millisecondsSinceEpoch: day * 86_400_000)
            #expect(Timestamp(iso8601: time.iso8601) == time)
        }
    }

    @Test func civilCalendarMatchesKnownDates() {
        #expect(Timestamp.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
        #expect(Timestamp.daysFromCivil(year: 1969, month: 12, day: 31) == -1)
        #expect(Timestamp.civilFromDays(-1) == (1969, 12, 31))
        #expect(Timestamp.civilFromDays(11_016) == (2000, 2, 29))
        #expect(Timestamp.isLeapYear(2000) && !Timestamp.isLeapYear(1900) && Timestamp.isLeapYear(2024))
    }

    @Test func nowIsAPlausibleWallClockTime() {
        let now = Timestamp.now()
        #expect(now > Timestamp(iso8601: "2024-01-01T00:00:00Z")!)
        #expect(now < Timestamp(iso8601: "2200-01-01T00:00:00Z")!)
        #expect(Timestamp.now() >= now)
    }
}
