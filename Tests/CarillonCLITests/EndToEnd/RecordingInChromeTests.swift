import CarillonTestSupport
import Foundation
import Testing

/// Recordings opened by Chrome's own HAR importer (`TestAssets/HAR/chrome_import.py`): the code behind
/// the Network panel's "Import HAR file", as the installed Chromium bundles it, run headless and
/// offline. Each recording must be accepted, list every hop as the tool recorded it, and show the image
/// the tool attached at the geometry the tool read. Chromium (Debian `chromium`) is required: where it
/// is missing, the test fails naming the package.
@Suite(.timeLimit(.minutes(3)))
struct RecordingInChromeTests {
    /// What Chrome's importer made of one file.
    struct Imported {
        var error: String?
        var requests: [[String: Any]]
    }

    static func importInChrome(_ files: [String]) async throws -> (chrome: String, files: [String: Imported]) {
        try RequiredPackage.command("chromium", "chromium-browser", package: "chromium")
        let result = try await onOwnThread {
            try Command.run("/usr/bin/env", ["python3", Paths.testAssets("HAR/chrome_import.py")] + files)
        }
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "exit \(result.status): \(result.standardError)")
        var imported: [String: Imported] = [:]
        for file in (object["files"] as? [[String: Any]]) ?? [] {
            guard let path = file["file"] as? String else { continue }
            imported[path] = Imported(error: file["error"] as? String, requests: (file["requests"] as? [[String: Any]]) ?? [])
        }
        return (object["chrome"] as? String ?? "", imported)
    }

    @Test func chromeImportsEveryRecordingAndShowsTheAttachedImage() async throws {
        let work = TemporaryDirectory("record-chrome")
        defer { work.remove() }
        let server = TestServer.shared
        // An image of each format, a redirect chain, a gzip-coded answer, a refused type and an HTTP error.
        let routes = [
            "/img/png", "/img/jpeg", "/img/gif-animated", "/redirect/relative", "/enc/gzip", "/bad/html", "/bad/status-404-large",
        ]
        var inputs: [String] = []
        for (index, route) in routes.enumerated() {
            inputs.append(
                try work.write(
                    "p\(index).json", #"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"image":"\#(server.url(route))"}}"#))
        }
        let run = try await tool(["process", "--ca-file", server.caFile, "--budget", "5", "--record", work.file("rec")] + inputs)
        let lines = run.jsonLines
        try #require(lines.count == routes.count, "\(run.standardError)")
        let recordings = try lines.map { try #require($0["recording"] as? String) }
        let (chrome, imported) = try await Self.importInChrome(recordings)
        #expect(chrome.hasPrefix("Chrome/"), "\(chrome)")
        for (line, recording) in zip(lines, recordings) {
            let file = try #require(imported[recording], "\(recording) was not imported")
            #expect(file.error == nil, "Chrome refused \(recording): \(file.error ?? "")")
            let har = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: recording))) as? [String: Any]
            let entries = ((har?["log"] as? [String: Any])?["entries"] as? [[String: Any]]) ?? []
            // Every hop is listed, with the URL and status the recording holds.
            #expect(file.requests.count == entries.count, "\(recording)")
            for (request, entry) in zip(file.requests, entries) {
                #expect(request["url"] as? String == (entry["request"] as? [String: Any])?["url"] as? String)
                #expect(request["status"] as? Int == (entry["response"] as? [String: Any])?["status"] as? Int)
                #expect(request["method"] as? String == "GET")
            }
            guard line["reason"] as? String == "attached" else { continue }
            // The attached image is shown: Chrome decodes the recorded body at the size the tool read.
            let image = try #require((line["trace"] as? [String: Any])?["image"] as? [String: Any])
            let shown = try #require(file.requests.last)
            #expect(shown["content"] as? String == "base64", "\(recording): \(shown)")
            #expect(shown["image"] as? [Int] == [image["width"] as? Int ?? -1, image["height"] as? Int ?? -1], "\(recording): \(shown)")
        }
    }
}
