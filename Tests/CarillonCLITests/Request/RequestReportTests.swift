import CarillonTestSupport
import Foundation
import Testing

/// The report card says which surfaces show the image and why (SPEC §12), rendered by headless Chromium
/// as the report's other browser tests render it: offline, no console message.
@Suite(.timeLimit(.minutes(3))) struct RequestReportTests {
    @Test func aRequestsCardSaysWhereTheImageShowsAndWhy() async throws {
        let directory = try RequestEndToEndTests.mixed()
        defer { directory.remove() }
        let report = directory.file("report.html")
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--report", report, "--previews", "when-unlocked",
            directory.file("r/01-alert.http"), directory.file("r/02-collapse.curl"), directory.file("r/03-fcm.json"),
            directory.file("r/04-payload.apns"), directory.file("r/05-background.sh"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let dom = try await ReportBrowserTests.render("dom", report, in: directory)
        #expect(dom.console.isEmpty, "console: \(dom.console)")
        let cards = dom.output.components(separatedBy: "<article").dropFirst()
        #expect(cards.count == 5)
        func section(_ name: String) -> String? {
            guard let card = cards.first(where: { $0.contains(name) }), let start = card.range(of: #"data-section="request""#) else {
                return nil
            }
            return String(card[start.lowerBound...].prefix { $0 != "§" }).components(separatedBy: "</section>").first
        }
        let alert = try #require(section("01-alert.http"))
        #expect(alert.contains("<dt>banner</dt><dd><bdi>shown: the attachment's thumbnail"), "\(alert)")
        #expect(alert.contains("<dt>lock screen</dt><dd><bdi>not-shown: Show Previews When Unlocked"), "\(alert)")
        let fcm = try #require(section("03-fcm.json"))
        #expect(fcm.contains("sent to APNs by FCM"))
        #expect(fcm.contains("<dt>banner</dt><dd><bdi>not-shown: interruption-level passive"), "\(fcm)")
        let refused = try #require(section("02-collapse.curl"))
        // The image was attached by the pipeline: the card says why it shows nowhere all the same.
        #expect(
            refused.contains("BadCollapseId 400") && refused.contains("nowhere: APNs refuses the request (BadCollapseId)"), "\(refused)")
        let background = try #require(section("05-background.sh"))
        #expect(background.contains("nowhere: the extension does not run: apns-push-type background"), "\(background)")
        #expect(!dom.output.contains("nothing is attached"), "every card's image was attached")
        #expect(section("04-payload.apns") == nil, "a payload file's card has no request section")
    }
}
