import CarillonTestSupport
import Foundation
import Testing

/// `--report` for a campaign: cards grouped by image, the first few whole, then a compact row for every
/// other payload, so the page stays bounded and names each one; small runs keep the plain page.
@Suite(.timeLimit(.minutes(2))) struct CampaignReportTests {
    @Test func aLargeCampaignsReportGroupsByImageAndStaysSmall() async throws {
        let server = try await onOwnThread { try TestServer() }
        let work = TemporaryDirectory("campaign-report")
        defer { work.remove() }
        var lines: [String] = []
        for index in 0..<1500 {
            let id = "01937b21-0000-7000-8000-\(String(format: "%012d", index))"
            lines.append(
                index % 3 == 0
                    ? Payloads.routed(image: server.url("/img/png"), deliveryID: id) : Payloads.routed(image: nil, deliveryID: id))
        }
        try lines.joined(separator: "\n").write(toFile: work.file("c.jsonl"), atomically: true, encoding: .utf8)
        let result = try await tool([
            "process", "--ca-file", server.caFile, "--attachments", work.file("a"), "--jobs", "4", "--report", work.file("r.html"),
            work.file("c.jsonl"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let page = try String(contentsOfFile: work.file("r.html"), encoding: .utf8)
        #expect(page.components(separatedBy: "<section class=\"group\">").count - 1 == 2)
        // The image URL is a stranger's text: isolated in <bdi> (issue 22).
        #expect(page.contains("image <bdi>\(server.url("/img/png"))</bdi>") && page.contains("no image fetched: no-image"))
        #expect(page.contains("500 payloads: 500 attached") && page.contains("1000 payloads: 1000 no-image"))
        // Every payload is named: the first cards of each group whole, then a compact row each (it was 200
        // rows per group and "and 297 more payloads", on purpose no longer: a check names every payload).
        #expect(page.components(separatedBy: "<tr data-r=").count - 1 == 1500 - 2 * 3)
        #expect(!page.contains("more payloads"))
        let cards = page.split(separator: "<bdi>\(work.file("c.jsonl")):").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        let rows = page.split(separator: "<tr data-r=").dropFirst().compactMap { piece in
            piece.split(separator: "<td>", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
        }
        #expect(Set(cards + rows) == Set(1...1500) && cards.count + rows.count == 1500)
        #expect(page.contains("<th>line of <bdi>\(work.file("c.jsonl"))</bdi></th>"))
        #expect(page.utf8.count < 400_000, "\(page.utf8.count) bytes")
        #expect(page.contains("carillon-nse process: 1500 payloads"))
    }
}
