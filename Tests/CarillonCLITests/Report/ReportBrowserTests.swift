import CarillonTestSupport
import Foundation
import Testing

/// `process --report` rendered by a real browser: the page loads without a console message or a CSP
/// refusal, an attached card's thumbnail is the attached image's colour, a fallback shows no image, and
/// a hostile title is text. Chromium (Debian `chromium`) renders it headless and offline; where it is
/// missing, each test fails naming the package.
@Suite(.timeLimit(.minutes(3)))
struct ReportBrowserTests {
    /// `TestAssets/Report/chromium.sh`: the DOM after load, or a screenshot, and the console's lines.
    struct Rendered {
        var output: String
        var console: String
    }

    static func render(_ mode: String, _ report: String, in work: TemporaryDirectory, size: (Int, Int) = (640, 900)) async throws
        -> Rendered
    {
        try RequiredPackage.command("chromium", "chromium-browser", package: "chromium")
        let out = work.file(mode == "dom" ? "dom.html" : "shot.png")
        let console = work.file("console-\(mode).txt")
        var arguments = [Paths.testAssets("Report/chromium.sh"), mode, report, out]
        if mode == "screenshot" { arguments += [String(size.0), String(size.1)] }
        let all = arguments + [console]
        let result = try await onOwnThread { try Command.run("/bin/bash", all) }
        #expect(result.status == 0, "\(result.standardError)")
        let text = mode == "dom" ? ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "") : out
        return Rendered(output: text, console: (try? String(contentsOfFile: console, encoding: .utf8)) ?? "")
    }

    /// The connected regions of one colour in a screenshot (`TestAssets/Report/png_regions.py`).
    static func regions(_ png: String, _ rgb: (Int, Int, Int), tolerance: Int = 40) async throws -> [[String: Int]] {
        let result = try await onOwnThread {
            try Command.run(
                "/usr/bin/env",
                ["python3", Paths.testAssets("Report/png_regions.py"), png, String(rgb.0), String(rgb.1), String(rgb.2), String(tolerance)])
        }
        #expect(result.status == 0, "\(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return (object?["regions"] as? [[String: Int]]) ?? []
    }

    /// Runs `process --report` on payloads written into `work`; returns the report's path.
    static func report(_ payloads: [(name: String, json: String)], in work: TemporaryDirectory) async throws -> String {
        let paths = try payloads.map { try work.write($0.name, $0.json) }
        let report = work.file("report.html")
        let result = try await tool(
            [
                "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--budget", "5", "--report",
                report,
            ] + paths)
        #expect(result.status == 0, "\(result.standardError)")
        return report
    }

    static func payload(title: String, body: String = "Body", image: String?) -> String {
        let imagePart = image.map { #","image":"\#($0)""# } ?? ""
        let escapedTitle = title.replacingOccurrences(of: "\"", with: "\\\"")
        return
            #"{"aps":{"alert":{"title":"\#(escapedTitle)","body":"\#(body)"},"mutable-content":1},"carillon":{"delivery_id":"01937b21-0000-7000-8000-000000000001"\#(imagePart)}}"#
    }

    @Test func anAttachedCardShowsTheAttachedImageAsThumbnailAndFullWidth() async throws {
        let work = TemporaryDirectory("report-attached")
        defer { work.remove() }
        // The server's tiny PNG is one pure red pixel: every pixel of its thumbnail and its expanded view is red.
        let report = try await Self.report(
            [("red.json", Self.payload(title: "Red", image: TestServer.shared.baseURL + "/img/tiny-png"))], in: work)
        let dom = try await Self.render("dom", report, in: work)
        #expect(dom.console.isEmpty, "console: \(dom.console)")
        #expect(dom.output.contains(#"data-reason="attached""#))
        let shot = try await Self.render("screenshot", report, in: work)
        #expect(shot.console.isEmpty, "console: \(shot.console)")
        let red = try await Self.regions(shot.output, (255, 0, 0))
        // The thumbnail: a 40 px square at the banner's trailing edge (its rounded corners aside).
        let thumbnail = red.first { (36...42).contains($0["width"] ?? 0) && (36...42).contains($0["height"] ?? 0) }
        #expect(thumbnail != nil, "red regions: \(red)")
        #expect((thumbnail?["pixels"] ?? 0) > 36 * 36)
        // The expanded view: the image full width of its 320 px preview, square as the image is.
        let hero = red.first { ($0["width"] ?? 0) >= 300 && ($0["height"] ?? 0) >= 300 }
        #expect(hero != nil, "red regions: \(red)")
    }

    /// A 5,000-character body is clamped as iOS clamps it, in the banner and in the expanded view: the
    /// card stays about a screen tall (it was ~3,000 px), and the APNs size warning is seen above the
    /// expanded view's image, not below the whole text.
    @Test func aLongBodyIsClampedAndItsWarningIsNearTheTop() async throws {
        let work = TemporaryDirectory("report-clamped")
        defer { work.remove() }
        let body = String(repeating: "A long alert body that goes on. ", count: 157)
        let report = try await Self.report(
            [("long.json", Self.payload(title: "Long", body: body, image: TestServer.shared.baseURL + "/img/tiny-png"))], in: work)
        let shot = try await Self.render("screenshot", report, in: work, size: (1200, 4000))
        #expect(shot.console.isEmpty, "console: \(shot.console)")
        // The card: the largest pure white region (the page around it is #eceef2).
        let card = try #require(try await Self.regions(shot.output, (255, 255, 255), tolerance: 4).first)
        #expect((card["height"] ?? 0) < 1100, "card: \(card)")
        let hero = try #require(try await Self.regions(shot.output, (255, 0, 0)).first { ($0["width"] ?? 0) >= 300 })
        // The warning's text colour, #8a5a12 (the attached card's badge is green).
        let warning = try await Self.regions(shot.output, (0x8A, 0x5A, 0x12), tolerance: 30)
        let warningTop = try #require(warning.map { $0["y"] ?? .max }.min())
        #expect(warningTop < (hero["y"] ?? 0), "warning at y \(warningTop), image at \(hero)")
    }

    @Test func aFallbackShowsNoImageAndAHostileTitleIsText() async throws {
        let work = TemporaryDirectory("report-hostile")
        defer { work.remove() }
        let hostile = "<img src=x onerror=alert(1)>"
        let report = try await Self.report(
            [
                ("a-fallback.json", Self.payload(title: "Fallback title", image: TestServer.shared.baseURL + "/status/404")),
                ("b-hostile.json", Self.payload(title: hostile, body: "<script>alert(2)</script>", image: nil)),
            ], in: work)
        let dom = try await Self.render("dom", report, in: work)
        #expect(dom.console.isEmpty, "console: \(dom.console)")
        // The title is a text node (serialised escaped), and no element came of it.
        #expect(dom.output.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(dom.output.contains("&lt;script&gt;alert(2)&lt;/script&gt;"))
        #expect(!dom.output.contains("<img"), "an <img> element exists")
        #expect(!dom.output.contains("<script"), "a <script> element exists")
        // The fallback card: the notification as delivered, text and no image.
        let cards = dom.output.components(separatedBy: "<article").dropFirst()
        let fallback = try #require(cards.first { $0.contains(#"data-reason="http-status""#) })
        #expect(fallback.contains("Fallback title"))
        #expect(!fallback.contains("thumb") && !fallback.contains("hero"))
        let shot = try await Self.render("screenshot", report, in: work)
        #expect(shot.console.isEmpty, "console: \(shot.console)")
        #expect(try await Self.regions(shot.output, (255, 0, 0)).filter { ($0["pixels"] ?? 0) > 20 }.isEmpty)
    }

    @Test func theSampleCatalogueReportLoadsCleanlyWithACardPerPayloadInOrder() async throws {
        let catalogue = try ProcessEndToEndTests.Catalogue()
        defer { catalogue.directory.remove() }
        let work = TemporaryDirectory("report-catalogue")
        defer { work.remove() }
        let report = work.file("report.html")
        let result = try await tool(
            [
                "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--budget", "2", "--jobs", "4",
                "--report", report,
            ] + catalogue.groups.map { catalogue.directory.file($0) })
        #expect(result.status == 1)  // the malformed inputs
        let dom = try await Self.render("dom", report, in: work)
        #expect(dom.console.isEmpty, "console: \(dom.console)")
        let shown = dom.output.components(separatedBy: "<article").dropFirst().compactMap { card -> String? in
            guard let start = card.range(of: #"data-payload=""#), let end = card[start.upperBound...].firstIndex(of: "\"") else {
                return nil
            }
            return String(card[start.upperBound..<end])
        }
        #expect(shown == catalogue.expected.map { catalogue.directory.file($0.path) })
    }

    /// The filters are radio buttons and CSS: with "no-image" chosen, the attached card (and its red
    /// image) is hidden. The page is the report with that button checked instead of "all", as a click
    /// would leave it.
    @Test func aReasonFilterHidesTheOtherCards() async throws {
        let work = TemporaryDirectory("report-filter")
        defer { work.remove() }
        let report = try await Self.report(
            [
                ("a-red.json", Self.payload(title: "Red", image: TestServer.shared.baseURL + "/img/tiny-png")),
                ("b-plain.json", Self.payload(title: "Plain", image: nil)),
            ], in: work)
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(page.contains(#"id="f-all" checked>"#) && page.contains(#"id="f-no-image">"#))
        let filtered = page.replacingOccurrences(of: #"id="f-all" checked>"#, with: #"id="f-all">"#)
            .replacingOccurrences(of: #"id="f-no-image">"#, with: #"id="f-no-image" checked>"#)
        let filteredPath = try work.write("filtered.html", filtered)
        let shot = try await Self.render("screenshot", filteredPath, in: work)
        #expect(shot.console.isEmpty, "console: \(shot.console)")
        #expect(try await Self.regions(shot.output, (255, 0, 0)).filter { ($0["pixels"] ?? 0) > 20 }.isEmpty)
        let unfiltered = try await Self.render("screenshot", report, in: work)
        #expect(!(try await Self.regions(unfiltered.output, (255, 0, 0))).filter { ($0["pixels"] ?? 0) > 20 }.isEmpty)
    }

    /// Issue 22 as the browser parses the page: a title, a body and a delivery id holding C1 and bidi
    /// controls reach the DOM with no C1 control (each became U+FFFD), and every bidi control inside a
    /// `<bdi>` element — the element that keeps it from reordering the card around it; the warning that
    /// quotes the delivery id shows it as `\u{202E}`.
    @Test func controlCharactersLeaveTheDOMAndBidiControlsStayIsolated() async throws {
        let work = TemporaryDirectory("report-bidi")
        defer { work.remove() }
        let json =
            #"{"aps":{"alert":{"title":"\u202eeltit\u0085","body":"B\u2067ody\u009b"},"mutable-content":1},"#
            + #""carillon":{"delivery_id":"\u202eid"}}"#
        let report = try await Self.report([("bidi.json", json)], in: work)
        let dom = try await Self.render("dom", report, in: work)
        #expect(dom.console.isEmpty, "console: \(dom.console)")
        #expect(!dom.output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "a C1 control reached the DOM")
        #expect(dom.output.contains("<bdi>\u{202E}eltit\u{FFFD}</bdi>"), "the title is not isolated")
        #expect(dom.output.contains("<bdi>B\u{2067}ody\u{FFFD}</bdi>"), "the body is not isolated")
        #expect(dom.output.contains(#"carillon.delivery_id '\u{202E}id' is not a UUID"#))
        let outside = dom.output.replacing(#/<bdi>[^<]*</bdi>/#, with: "").replacing(#/="[^"]*"/#, with: "=\"\"")
        #expect(!outside.unicodeScalars.contains { [0x202E, 0x2067].contains($0.value) }, "a bidi control outside <bdi>")
    }

    /// The check above would be worthless if a refusal went unseen: a page that asks for a remote image
    /// under the same policy must show one.
    @Test func aRefusedLoadIsSeenOnTheConsole() async throws {
        let work = TemporaryDirectory("report-negative")
        defer { work.remove() }
        let page = try work.write(
            "bad.html",
            #"<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:"></head><body><img src="https://example.invalid/x.png"></body></html>"#
        )
        let dom = try await Self.render("dom", page, in: work)
        // Chromium 156 says "Loading the image … violates the following Content Security Policy directive";
        // older ones "Refused to load the image …". Either is a CONSOLE line, which is what the checks look for.
        #expect(dom.console.contains("CONSOLE") && dom.console.contains("x.png"), "console: \(dom.console)")
    }
}
