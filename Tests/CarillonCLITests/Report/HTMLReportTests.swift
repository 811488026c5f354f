import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI
@_spi(Tooling) @testable import CarillonExtensionCore

/// The report's pure parts from tables: escaping, the waterfall's stretches, the cards' attributes, the
/// policy, each distinct image embedded once, and the size of a large report.
@Suite struct HTMLReportTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
        ("a & b", "a &amp; b"),
        (#"say "hi" it's"#, "say &quot;hi&quot; it&#39;s"),
        ("tab\tnew\nline", "tab\tnew\nline"),
        ("nul\u{0}esc\u{1B}del\u{7F}", "nul\u{FFFD}esc\u{FFFD}del\u{FFFD}"),
        ("café 🔔", "café 🔔"),
        (#"\xFF.json"#, #"\xFF.json"#),
    ])
    func escapingLeavesNoMarkup(_ text: String, _ expected: String) {
        #expect(HTMLEscaping.escape(text) == expected)
    }

    typealias T = DownloadTrace.Timings
    @Test(
        arguments: [
            // A complete request: every step a stretch.
            (
                T(dns: 1, connect: 2, tls: 5, firstByte: 6, total: 8),
                [("dns", 0.0, 1.0), ("connect", 1, 2), ("tls", 2, 5), ("waiting", 5, 6), ("body", 6, 8)]
            ),
            // A reused connection: dns, connect and tls take no time of their own.
            (T(dns: 0, connect: 0, tls: 0, firstByte: 3, total: 4), [("waiting", 0, 3), ("body", 3, 4)]),
            // Stalled before the head: the rest is waiting.
            (
                T(dns: 1, connect: 2, tls: 5, firstByte: nil, total: 2000),
                [("dns", 0, 1), ("connect", 1, 2), ("tls", 2, 5), ("waiting", 5, 2000)]
            ),
            // Stalled in the handshake (libcurl gives no connect time before it is done).
            (T(dns: 1, connect: nil, tls: nil, firstByte: nil, total: 200), [("dns", 0, 1), ("connect", 1, 200)]),
            // Nothing reached.
            (T(dns: nil, connect: nil, tls: nil, firstByte: nil, total: 30), [("dns", 0, 30)]),
            (T(dns: nil, connect: nil, tls: nil, firstByte: nil, total: 0), []),
        ] as [(T, [(String, Double, Double)])])
    func waterfallSegmentsFollowTheCumulativeTimings(_ timings: T, _ expected: [(String, Double, Double)]) {
        let segments = Waterfall.segments(timings)
        #expect(segments.map(\.phase.rawValue) == expected.map(\.0))
        #expect(segments.map(\.start) == expected.map(\.1))
        #expect(segments.map(\.end) == expected.map(\.2))
    }

    @Test(arguments: [(0.0, 100.0, "0.00%"), (5, 100, "5.00%"), (1, 3, "33.33%"), (200, 100, "100.00%"), (-1, 100, "0.00%")])
    func waterfallPercentages(_ value: Double, _ scale: Double, _ expected: String) {
        #expect(Waterfall.percent(value, of: scale) == expected)
    }

    @Test(arguments: [(20_000.0, "20 s"), (500, "0.5 s"), (1250, "1.25 s"), (1, "0.001 s"), (30_000, "30 s")])
    func secondsAsTheOptionsWriteThem(_ milliseconds: Double, _ expected: String) {
        #expect(Waterfall.seconds(milliseconds) == expected)
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 11_344)

    static func trace(total: Double = 8) -> DownloadTrace {
        DownloadTrace(
            hops: [
                DownloadTrace.Hop(
                    url: "https://cdn.example/a.png", status: 200, timings: T(dns: 1, connect: 2, tls: 5, firstByte: 6, total: total))
            ],
            bodyBytes: png.count, budget: .seconds(20), phase: .done,
            image: DownloadTrace.Image(type: .png, width: 64, height: 32, frames: 1))
    }

    static func attached(_ number: Int, path: String = "/a/image.png") -> ReportEntry {
        ReportEntry(
            payload: "payloads/\(number).json", reason: .attached, detail: "png image attached", title: "Photo \(number)",
            body: "Tap to see it", receipt: "stored", deliveryID: TestDeliveryID.text(number), elapsedMilliseconds: Double(number),
            attachment: ReportEntry.Attachment(path: path, type: .png), trace: trace())
    }

    static let page = HTMLReport(budgetMilliseconds: 20_000, expireMilliseconds: 30_000)

    @Test func aHostilePayloadIsTextInElementsAndAttributes() {
        let entry = ReportEntry(
            payload: #"x" onmouseover="alert(1)<b>.json"#, reason: .noImage, detail: "<b>no</b>", title: "<img src=x onerror=alert(1)>",
            subtitle: "</div><script>", body: "<script>alert(2)</script>", warnings: ["<i>warn</i>"])
        let html = Self.page.render([entry]) { _ in nil }
        #expect(!html.contains("<img"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>") && !html.contains("<i>"))
        #expect(html.contains(#"data-payload="x&quot; onmouseover=&quot;alert(1)&lt;b&gt;.json""#))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
    }

    @Test func thePageFetchesNothingAndRunsNoScript() {
        let html = Self.page.render([Self.attached(1)]) { _ in Self.png }
        #expect(
            html.contains(
                #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline';"#))
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://") && !html.contains("src=\""))
        // The only URLs the page loads are its data: images (a hop's URL is text).
        #expect(html.components(separatedBy: "url(").count - 1 == 1)
    }

    @Test func cardsAreInInputOrderWithTheirReasonAndEachDistinctImageOnce() {
        let other: [UInt8] = Array(Self.png.prefix(8)) + Array(repeating: 9, count: 100)
        let entries = [
            Self.attached(1), ReportEntry(payload: "b.json", reason: .timeout, detail: "slow", trace: Self.trace(total: 20_000)),
            Self.attached(3, path: "/a/other.png"), Self.attached(4), ReportEntry(invalid: "d.json", detail: "not JSON"),
        ]
        let html = Self.page.render(entries) { $0.path == "/a/other.png" ? other : Self.png }
        let cards = html.components(separatedBy: "<article").dropFirst()
        #expect(
            cards.map {
                $0.contains(#"data-reason="attached""#)
                    ? "attached" : $0.contains(#"data-reason="timeout""#) ? "timeout" : "invalid-payload"
            }
                == ["attached", "timeout", "attached", "attached", "invalid-payload"])
        #expect(
            cards.map { $0.components(separatedBy: "data-payload=\"")[1].prefix { $0 != "\"" } }
                == ["payloads/1.json", "b.json", "payloads/3.json", "payloads/4.json", "d.json"])
        #expect(html.components(separatedBy: Base64.encode(Self.png)).count - 1 == 1)
        #expect(html.components(separatedBy: Base64.encode(other)).count - 1 == 1)
        #expect(cards[cards.startIndex].contains("card ok img-0") && cards[cards.startIndex + 3].contains("card ok img-0"))
        #expect(cards[cards.startIndex + 2].contains("img-1"))
        // The timeout's card has no image; its waterfall marks the budget and time-will-expire.
        #expect(!cards[cards.startIndex + 1].contains("thumb"))
        #expect(cards[cards.startIndex + 1].contains(#"class="mark budget" style="left:63.49%""#))
        #expect(cards[cards.startIndex + 1].contains(#"class="mark expire" style="left:95.24%""#))
        // Filters for the reasons present.
        #expect(html.contains(#"id="f-attached""#) && html.contains(#"<label for="f-attached">attached 3</label>"#))
    }

    /// An image left out of the page says which reason and its size, first among the card's warnings.
    @Test(
        arguments: [
            (11_352, "report: the png attachment (11352 bytes) is not shown on this page: its file could not be read"),
            (2_097_152, "report: the png attachment (2097152 bytes) is not shown on this page: its file could not be read"),
            (
                10_485_760,
                "report: the png attachment (10485760 bytes) is not shown on this page: it is over the page's 2 MiB embed limit"
            ),
        ])
    func anAttachmentLeftOutSaysWhyAndItsSize(bytes: Int, warning: String) {
        var entry = Self.attached(1)
        entry.attachment?.byteCount = bytes
        entry.warnings = ["a payload warning"]
        let html = Self.page.render([entry]) { _ in nil }
        #expect(!html.contains("class=\"thumb\""))
        #expect(
            html.contains(
                "<ul class=\"warnings\"><li><bdi>\(HTMLEscaping.escape(warning))</bdi></li><li><bdi>a payload warning</bdi></li></ul>"))
    }

    /// Warnings come right below the card's title, before the preview and the outcome.
    @Test func warningsHeadTheCard() throws {
        var entry = Self.attached(1)
        entry.warnings = ["payload is 5000 bytes as compact JSON; APNs refuses payloads over 4096 bytes (PayloadTooLarge)"]
        let html = Self.page.render([entry]) { _ in Self.png }
        let warnings = try #require(html.range(of: "<ul class=\"warnings\">"))
        let title = try #require(html.range(of: "</h2>", range: html.range(of: "<article")!.upperBound..<html.endIndex))
        let preview = try #require(html.range(of: "<div class=\"preview\">"))
        #expect(title.upperBound == warnings.lowerBound)
        #expect(warnings.upperBound < preview.lowerBound)
    }

    /// Rows name their JSON Lines file once, in the table's heading, when every row is a line of it.
    @Test(
        arguments: [
            (["c.jsonl:4", "c.jsonl:5"], "c.jsonl"),
            (["/tmp/a:b/c.jsonl:4", "/tmp/a:b/c.jsonl:10"], "/tmp/a:b/c.jsonl"),
            (["c.jsonl:4", "d.jsonl:5"], nil),
            (["c.jsonl:4", "c.jsonl:x"], nil),
            (["c.jsonl:4", "c.jsonl:"], nil),
            (["payloads/a.json", "payloads/b.json"], nil),
        ] as [([String], String?)])
    func rowsOfOneFileNameItOnce(payloads: [String], file: String?) {
        let rows = payloads.map { ReportGroups.Row(payload: $0, reason: .attached, detail: "d", elapsedMilliseconds: 1) }
        #expect(HTMLReport.sharedFile(rows) == file)
    }

    /// Long text is clamped in both views, as iOS clamps it: the style says so for each element.
    @Test(
        arguments: [
            ".n-title{font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}",
            "-webkit-line-clamp:4;overflow:hidden",
            ".full .n-body{-webkit-line-clamp:16}",
            ".full .n-title,.full .n-subtitle{white-space:normal;overflow-wrap:anywhere;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:3;overflow:hidden}",
        ])
    func longTextIsClampedInBothViews(rule: String) {
        #expect(ReportStyle.css.contains(rule))
        #expect(!ReportStyle.css.contains("-webkit-line-clamp:unset"))
    }

    /// A grouped report of 100,000 payloads over 1,000 images names every payload, in compact rows, and
    /// stays one page under 10 MB.
    @Test func aGroupedReportOf100000PayloadsNamesEachOneUnder10MB() {
        var groups = ReportGroups()
        var outcomes: [(reason: Reason, elapsedMilliseconds: Double)] = []
        for number in 0..<100_000 {
            let image = "https://images.example.com/campaign/\(number % 1000).png"
            var entry =
                number % 1000 == 999
                ? ReportEntry(payload: "", reason: .timeout, detail: "the download's 20000 ms time budget ran out")
                : Self.attached(number, path: "/a/\(number % 1000).png")
            entry.payload = "campaign.jsonl:\(number + 1)"
            groups.add(entry, image: image)
            outcomes.append((entry.reason, Double(number % 50) / 7))
        }
        let html = Self.page.render(groups, outcomes: outcomes) { _ in Self.png }
        #expect(html.utf8.count < 10_000_000, "\(html.utf8.count) bytes")
        print("grouped report of 100,000 payloads over 1,000 images: \(html.utf8.count) bytes")
        #expect(!html.contains("more payloads"))
        // Each payload's name, once: in its card's title, or as a line of the file its table names.
        let cards = html.split(separator: "<bdi>campaign.jsonl:").dropFirst().compactMap { piece in
            piece.split(separator: "<", maxSplits: 1).first.flatMap { Int($0) }
        }
        let rows = html.split(separator: "<tr data-r=").dropFirst().compactMap { piece in
            piece.split(separator: "<td>", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
        }
        #expect(cards.count == 1000 && rows.count == 99_000)
        #expect(Set(cards + rows) == Set(1...100_000))
        #expect(html.components(separatedBy: "<th>line of <bdi>campaign.jsonl</bdi></th>").count - 1 == 1000)
    }

    /// SPEC-sized: 1,000 attached payloads whose images repeat stay well under 5 MB.
    @Test func aThousandPayloadsWithRepeatedImagesStayUnderFiveMegabytes() {
        let images: [[UInt8]] = (0..<4).map { Array(Self.png.prefix(8)) + Array(repeating: UInt8($0), count: 11_344) }
        let entries = (1...1000).map { Self.attached($0, path: "/a/\($0 % 4).png") }
        let html = Self.page.render(entries) { images[Int($0.path.dropFirst(3).prefix(1))!] }
        #expect(html.components(separatedBy: "<article").count - 1 == 1000)
        #expect(html.utf8.count < 5_000_000, "\(html.utf8.count) bytes")
    }
}
