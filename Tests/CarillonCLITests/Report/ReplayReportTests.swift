import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI
@_spi(Tooling) @testable import CarillonExtensionCore

/// `replay --report`: process's page, one card per replayed image with the replay object as its own
/// section. The section from a table (every field, hostile values as text); the page rendered by
/// headless Chromium offline (no console line, the verdicts, the replay section, the image); and
/// `--attachments` keeping each replayed image.
@Suite(.timeLimit(.minutes(3))) struct ReplayReportTests {
    @Test func theSectionShowsEveryFieldOfTheReplayObjectAsText() throws {
        let object = try JSONParser.parse(
            Array(
                #"""
                {"source":"har","file":"<b>x</b>.har","creator":"WebInspector 537.36","entries":[3,4],"checked":["status","image"],
                 "not_checked":[{"check":"ats","why":"the HAR has no certificate chain"}],
                 "request_differs":[{"header":"accept","recorded":"image/avif","extension":"*/*","varies":true},
                                    {"header":"cookie","recorded":"a=1","extension":null,"varies":false}],
                 "notes":[]}
                """#.utf8))
        let html = ReplayReport.section(object).html
        #expect(html.hasPrefix(#"<section class="card-extra" data-section="replay"><h3>replay</h3>"#))
        for expected in [
            "<dt>source</dt><dd><bdi>har</bdi></dd>", "<dt>file</dt><dd><bdi>&lt;b&gt;x&lt;/b&gt;.har</bdi></dd>",
            "<dt>entries</dt><dd><bdi>3, 4</bdi></dd>", "<dt>checked</dt><dd><bdi>status, image</bdi></dd>",
            "<dt>not checked</dt><dd><bdi>ats: the HAR has no certificate chain</bdi></dd>",
            "<bdi>accept: recorded &#39;image/avif&#39;, the extension&#39;s &#39;*/*&#39; (the response varies on it)</bdi><br>",
            "<bdi>cookie: recorded &#39;a=1&#39;, the extension&#39;s none</bdi>", "<dt>notes</dt><dd>none</dd>",
        ] {
            #expect(html.contains(expected), "\(expected) not in \(html)")
        }
        #expect(!html.contains("<b>"))
    }

    /// Chrome's capture (two images attached, a status-0 entry) and Firefox's (no body): four cards in
    /// order, each verdict and detail shown, each card with its replay section, the images embedded.
    @Test func aReplayedCaptureRendersWithItsVerdictsAndReplaySections() async throws {
        let work = TemporaryDirectory("replay-report")
        defer { work.remove() }
        let report = work.file("replay.html")
        let run = try await tool([
            "replay", "--report", report, ReplayEndToEndTests.fixture("chrome.har"), ReplayEndToEndTests.fixture("firefox.har"),
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.hasPrefix("carillon-nse: report: \(report) (4 payloads, "), "\(run.standardError)")
        let dom = try await ReportBrowserTests.render("dom", report, in: work)
        #expect(dom.console.isEmpty, "console: \(dom.console)")
        #expect(dom.output.contains("<h1>carillon-nse replay: 4 payloads</h1>"))
        let cards = dom.output.components(separatedBy: "<article").dropFirst()
        #expect(
            cards.map {
                $0.contains(#"data-reason="attached""#) ? "attached" : $0.contains(#"data-reason="undetermined""#) ? "undetermined" : "?"
            }
                == ["attached", "attached", "undetermined", "undetermined"])
        #expect(cards.allSatisfy { $0.contains(#"<section class="card-extra" data-section="replay">"#) })
        let firefox = try #require(cards.last)
        #expect(firefox.contains("has no body: 'Response bodies are not included.'"))
        #expect(firefox.contains("<dt>creator</dt>") && firefox.contains("Firefox"))
        let gone = Array(cards)[2]
        #expect(gone.contains("no response for 'https://img.example.com/gone.png' in the HAR: net::ERR_CERT_DATE_INVALID"))
        #expect(gone.contains("ats: the HAR has no certificate chain and no TLS facts"))
        #expect(gone.contains("entry 2 recorded an error: net::ERR_CERT_DATE_INVALID"))
        let redirected = Array(cards)[1]
        #expect(redirected.contains("<dt>entries</dt><dd><bdi>1, 0</bdi></dd>"))
        #expect(redirected.contains("accept: recorded 'image/avif,image/webp,image/apng,*/*;q=0.8', the extension's '*/*'"))
        #expect(redirected.contains(#"class="waterfall""#))
        // The attached cards show their image, embedded (the run's own attachments are gone by now).
        #expect(cards.prefix(2).allSatisfy { $0.contains("thumb") && $0.contains("hero") })
        #expect(!gone.contains("thumb"))
        let shot = try await ReportBrowserTests.render("screenshot", report, in: work)
        #expect(shot.console.isEmpty, "console: \(shot.console)")
    }

    @Test func attachmentsKeepsEachReplayedImage() throws {
        let work = TemporaryDirectory("replay-attachments")
        defer { work.remove() }
        let directory = work.file("kept")
        let run = try ReplayEndToEndTests.replay(["--attachments", directory, ReplayEndToEndTests.fixture("chrome.har")])
        #expect(run.status == 0, "\(run.standardError)")
        let files = run.jsonLines.compactMap { ($0["attachments"] as? [[String: Any]])?.first?["file"] as? String }
        #expect(files.count == 2)
        for file in files {
            #expect(file.hasPrefix(directory + "/"))
            #expect(FileManager.default.contents(atPath: file)?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        }
        let inside = try ReplayEndToEndTests.replay([
            "--report", work.file("no/such/dir/r.html"), ReplayEndToEndTests.fixture("chrome.har"),
        ])
        #expect(inside.status == 64)
        #expect(inside.standardError.contains("--report"))
    }
}
