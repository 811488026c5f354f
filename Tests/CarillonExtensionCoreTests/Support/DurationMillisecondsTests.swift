import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct DurationMillisecondsTests {
    /// Whole milliseconds drop the fraction toward zero and saturate at Int64's ends.
    static let whole: [(Duration, Int64)] = [
        (.zero, 0), (.milliseconds(20_000), 20_000), (.microseconds(1_999), 1), (.nanoseconds(999_999), 0),
        (.microseconds(-1_999), -1), (.seconds(-3), -3_000), (.milliseconds(Int64.max), .max), (.seconds(Int64.max), .max),
        (.seconds(Int64.min), .min),
    ]

    @Test(arguments: whole)
    func wholeMillisecondsTruncateAndSaturate(duration: Duration, expected: Int64) {
        #expect(duration.wholeMilliseconds == expected)
    }

    /// The fractional form is what `elapsed_ms` prints: whole milliseconds exactly, fractions kept.
    static let fractional: [(Duration, Double)] = [
        (.zero, 0), (.milliseconds(250), 250), (.seconds(20), 20_000), (.microseconds(7_500), 7.5), (.nanoseconds(1_234_567), 1.234567),
    ]

    @Test(arguments: fractional)
    func inMillisecondsKeepsTheFraction(duration: Duration, expected: Double) {
        #expect(abs(duration.inMilliseconds - expected) < 1e-9)
        #expect(duration.inMilliseconds == Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }

    /// libcurl's timeouts round up, are at least 1 ms (0 means "no limit" to libcurl), and saturate: a
    /// public `DownloadLimits` or `RetryPolicy` may carry any `Duration`, and none may trap.
    static let curlTimeouts: [(Duration, Int)] = [
        (.zero, 1), (.nanoseconds(1), 1), (.microseconds(1_001), 2), (.milliseconds(20_000), 20_000), (.seconds(-5), 1),
        (.seconds(Int64.max / 1000), Int(Int64.max / 1000) * 1000), (.seconds(Int64.max), Int(Int64.max)), (.seconds(Int64.min), 1),
        (.milliseconds(Int64.max), Int(Int64.max)),
    ]

    @Test(arguments: curlTimeouts)
    func curlTimeoutsRoundUpAndSaturate(duration: Duration, expected: Int) {
        #expect(duration.roundedUpMilliseconds == expected)
    }
}
