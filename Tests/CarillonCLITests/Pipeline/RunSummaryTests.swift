@_spi(Tooling) import CarillonExtensionCore
import Testing

@testable import CarillonCLI

/// The run summary and `--fail-on`'s parsing, from tables.
@Suite struct RunSummaryTests {
    @Test(
        arguments: [
            ([Double](), 0.0, 0.0),
            ([5], 5, 5),
            ([1, 2], 1, 2),
            ([3, 1, 2], 2, 3),
            ((1...100).map(Double.init), 50, 95),
            ((1...20).map(Double.init), 10, 19),
        ] as [([Double], Double, Double)])
    func medianAndP95AreNearestRank(_ values: [Double], _ median: Double, _ p95: Double) {
        let summary = RunSummary(values.map { (reason: Reason.attached, elapsedMilliseconds: $0) })
        #expect(summary.medianMilliseconds == median)
        #expect(summary.p95Milliseconds == p95)
    }

    @Test func countsAreMostFrequentFirstThenByCode() {
        let summary = RunSummary([(.timeout, 1), (.attached, 2), (.tls, 3), (.timeout, 4), (.attached, 5), (.noImage, 6)])
        #expect(summary.line == "6 payloads: 2 attached, 2 timeout, 1 no-image, 1 tls; elapsed_ms median 3.000, p95 6.000")
    }

    @Test func failOnParsesCodesAndFallback() throws {
        #expect(try FailOn.parse("timeout, tls").reasons == [.timeout, .tls])
        #expect(try FailOn.parse("fallback").reasons == Set(Reason.allCases).subtracting([.attached]))
        #expect(try FailOn.parse("fallback,attached").reasons == Set(Reason.allCases))
        #expect(throws: UsageError.self) { try FailOn.parse("") }
        #expect(throws: UsageError.self) { try FailOn.parse("Timeout") }
    }
}
