/// An instant as milliseconds since the Unix epoch (UTC), the precision of receipts and events.
///
/// The representable range is 1970-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z: the span
/// the public API's `at` format (`YYYY-MM-DDTHH:MM:SS.fffZ`, four-digit years) can express, and no
/// device clock produces anything earlier that is not simply wrong.
///
/// Calendar arithmetic is Howard Hinnant's integer civil-from-days algorithm rather than Foundation's
/// `ISO8601DateFormatter`: exact, allocation-free, and no Foundation in the extension process.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1970-01-01T00:00:00.000Z.
    public static let earliest = Timestamp(exactly: 0)
    /// 9999-12-31T23:59:59.999Z.
    public static let latest = Timestamp(exactly: 253_402_300_799_999)

    /// Milliseconds since 1970-01-01T00:00:00Z, within ``earliest`` ... ``latest``.
    public let millisecondsSinceEpoch: Int64

    /// An instant from milliseconds since the epoch, clamped into ``earliest`` ... ``latest``.
    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = min(max(millisecondsSinceEpoch, 0), Timestamp.latest.millisecondsSinceEpoch)
    }

    private init(exactly milliseconds: Int64) {
        millisecondsSinceEpoch = milliseconds
    }

    /// The current wall-clock time (`clock_gettime(CLOCK_REALTIME)`), truncated to milliseconds.
    public static func now() -> Timestamp {
        var time = CTimespec()
        system_clock_gettime(_CLOCK_REALTIME, &time)
        return Timestamp(millisecondsSinceEpoch: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }

    /// This instant moved by `duration`, to the whole millisecond (the fraction dropped), clamped into
    /// the representable range.
    public func adding(_ duration: Duration) -> Timestamp {
        let milliseconds = duration.wholeMilliseconds
        let (sum, overflow) = millisecondsSinceEpoch.addingReportingOverflow(milliseconds)
        return Timestamp(millisecondsSinceEpoch: overflow ? (milliseconds < 0 ? .min : .max) : sum)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    public var description: String { iso8601 }
}

// MARK: - ISO 8601

extension Timestamp {
    /// The accepted input form, for error messages.
    public static let iso8601Form = "YYYY-MM-DDTHH:MM:SS[.fff](Z|+HH:MM|-HH:MM)"

    /// Parses an ISO 8601 date-time strictly: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of one to three
    /// digits, then `Z` or a `±HH:MM` offset. Nil for anything else — lowercase `t`/`z`, a missing offset
    /// (local time is ambiguous), a day the month does not have, a leap second, more than millisecond
    /// precision, or an instant outside 1970 ... 9999 once the offset is applied.
    public init?(iso8601 text: String) {
        var parser = DigitReader(bytes: Array(text.utf8))
        guard let year = parser.number(digits: 4), parser.expect("-"),
            let month = parser.number(digits: 2), parser.expect("-"),
            let day = parser.number(digits: 2), parser.expect("T"),
            let hour = parser.number(digits: 2), parser.expect(":"),
            let minute = parser.number(digits: 2), parser.expect(":"),
            let second = parser.number(digits: 2)
        else { return nil }

        var millisecond: Int64 = 0
        if parser.expect(".") {
            var digits = 0
            while let digit = parser.digit() {
                digits += 1
                guard digits <= 3 else { return nil }
                millisecond = millisecond * 10 + digit
            }
            guard digits > 0 else { return nil }
            for _ in digits..<3 { millisecond *= 10 }
        }

        let offsetMinutes: Int64
        if parser.expect("Z") {
            offsetMinutes = 0
        } else {
            let sign: Int64
            if parser.expect("+") {
                sign = 1
            } else if parser.expect("-") {
                sign = -1
            } else {
                return nil
            }
            guard let offsetHour = parser.number(digits: 2), parser.expect(":"),
                let offsetMinute = parser.number(digits: 2),
                offsetHour <= 23, offsetMinute <= 59
            else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        }
        guard parser.atEnd else { return nil }

        guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }

        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        let local = ((days * 24 + hour) * 60 + minute) * 60 + second
        let milliseconds = (local - offsetMinutes * 60) * 1000 + millisecond
        guard milliseconds >= Timestamp.earliest.millisecondsSinceEpoch,
            milliseconds <= Timestamp.latest.millisecondsSinceEpoch
        else { return nil }
        self.init(exactly: milliseconds)
    }

    /// The instant in UTC with exactly three fraction digits and `Z`, e.g. `2026-08-20T09:16:44.120Z`:
    /// the public API's `at` format.
    public var iso8601: String {
        let milliseconds = millisecondsSinceEpoch
        let (days, millisecondOfDay) = Timestamp.floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = Timestamp.civilFromDays(days)
        let secondOfDay = millisecondOfDay / 1000
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        append(year, digits: 4)
        bytes.append(UInt8(ascii: "-"))
        append(month, digits: 2)
        bytes.append(UInt8(ascii: "-"))
        append(day, digits: 2)
        bytes.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, digits: 2)
        bytes.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, digits: 2)
        bytes.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, digits: 2)
        bytes.append(UInt8(ascii: "."))
        append(millisecondOfDay % 1000, digits: 3)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Civil calendar (proleptic Gregorian)

    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given date (Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (Hinnant's `civil_from_days`).
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Division rounding toward negative infinity, with a non-negative remainder.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }
}

/// Reads fixed-width ASCII fields from the front of a byte string.
private struct DigitReader {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position == bytes.count }

    /// The next byte's value when it is an ASCII digit (consuming it).
    mutating func digit() -> Int64? {
        guard position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9")
        else { return nil }
        defer { position += 1 }
        return Int64(bytes[position] - UInt8(ascii: "0"))
    }

    /// Exactly `digits` ASCII digits as a number.
    mutating func number(digits: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<digits {
            guard let next = digit() else { return nil }
            value = value * 10 + next
        }
        return value
    }

    /// Consumes `character` when it comes next.
    mutating func expect(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }
}
