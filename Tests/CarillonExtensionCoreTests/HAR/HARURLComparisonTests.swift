import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// URLs compared as a replay compares them: redacted on both sides, the volatile signed-URL parameters
/// ignored (and the names given with them), the rest kept; and the recorded source finding a redirect's
/// target by the same comparison.
@Suite struct HARURLComparisonTests {
    static let stand = Redaction.replacement("s3cr3t")

    /// Two URLs, the names ignored besides the defaults, and whether they are the same request.
    @Test(arguments: [
        ("https://a.example/i.png?X-Amz-Date=20261202T100000Z", "https://a.example/i.png?X-Amz-Date=20261203T110000Z", [], true),
        ("https://a.example/i.png?x-amz-expires=60&v=1", "https://a.example/i.png?X-Amz-Expires=900&v=1", [], true),
        ("https://a.example/i.png?Expires=1&v=1", "https://a.example/i.png?v=1", [], true),
        ("https://a.example/i.png?v=1", "https://a.example/i.png?v=2", [], false),
        ("https://a.example/i.png?v=1", "https://a.example/i.png?v=2", ["v"], true),
        ("https://a.example/i.png?V=1&w=1", "https://a.example/i.png?v=2&w=1", ["v"], true),
        ("https://a.example/i.png?v=1&w=1", "https://a.example/i.png?v=1&w=2", ["v"], false),
        // The live token against the recording's stand-in for it, and against another token.
        ("https://a.example/i.png?X-Amz-Signature=s3cr3t", "https://a.example/i.png?X-Amz-Signature=\(stand)", [], true),
        ("https://a.example/i.png?token=s3cr3t&v=1", "https://a.example/i.png?token=\(stand)&v=1", [], true),
        ("https://a.example/i.png?X-Amz-Signature=other", "https://a.example/i.png?X-Amz-Signature=\(stand)", [], false),
        ("https://a.example/i.png?sig=s3cr3t", "https://a.example/i.png?sig=s3cr3t", [], true),
        ("HTTPS://A.example:443/i.png#top", "https://a.example/i.png", [], true),
        ("https://a.example/I.png", "https://a.example/i.png", [], false),
    ])
    func matchesRedactedURLs(recorded: String, asked: String, ignored: [String], same: Bool) {
        let comparison = HARURLComparison(ignoredQuery: HARURLComparison.defaultIgnoredQuery.union(ignored))
        #expect((comparison.comparable(recorded) == comparison.comparable(asked)) == same, "\(recorded) / \(asked)")
    }

    @Test func aComparableURLCarriesNoLiveSecret() {
        let compared = HARURLComparison().comparable("https://a.example/i.png?X-Amz-Signature=s3cr3t&X-Amz-Date=1&v=1")
        #expect(compared == "https://a.example/i.png?X-Amz-Signature=\(Self.stand)&v=1")
    }

    /// A redirect whose Location differs from the captured target only in a volatile parameter: found
    /// by the comparison's match, a gap by the exact one; the exact URL is preferred when both are there.
    @Test func theRecordedSourceFindsARedirectTargetByTheComparison() throws {
        let redirect = TransferMachineTests.hop(
            "https://a.example/a", "302 Found", [("Location", "https://cdn.example/b.png?Expires=200&v=1")], body: .bytes([]))
        let target = TransferMachineTests.hop("https://cdn.example/b.png?Expires=100&v=1", "200 OK")
        let other = TransferMachineTests.hop("https://cdn.example/b.png?Expires=200&v=1", "200 OK", body: .bytes([0x89]))
        func run(_ hops: [RecordedHop], _ match: RecordedURLMatch) -> (TransferReport, [RecordedTransferSource.Gap]) {
            var source = RecordedTransferSource(
                transfer: RecordedTransfer(hops: hops, called: "the HAR"), configuration: DownloadConfiguration(), at: 1_800_000_000,
                match: match)
            let report = TransferFeed.run(
                try! ImageURL(validating: "https://a.example/a"), configuration: DownloadConfiguration(), source: &source,
                sink: { _ in true })
            return (report, source.gaps)
        }
        let found = run([redirect, target], HARURLComparison().match)
        #expect(found.0.failure == nil, "\(String(describing: found.0.failure))")
        #expect(found.1.isEmpty)
        #expect(found.0.hops.map(\.url) == ["https://a.example/a", "https://cdn.example/b.png?Expires=200&v=1"])
        let exact = run([redirect, target], .exact)
        #expect(exact.1 == [.hop(url: "https://cdn.example/b.png?Expires=200&v=1")])
        #expect(exact.0.failure?.reason == .undetermined)
        let both = run([redirect, target, other], HARURLComparison().match)
        #expect(both.0.bytesWritten == 1)
    }
}
