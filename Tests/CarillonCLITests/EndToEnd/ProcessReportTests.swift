import CarillonTestSupport
import Foundation
import Testing

/// `process --report` end to end: where it writes, what a bad path gives, and the app name.
@Suite(.timeLimit(.minutes(1))) struct ProcessReportTests {
    @Test func aReportInAMissingDirectoryIsAUsageErrorBeforeAnyPayloadRuns() async throws {
        let work = TemporaryDirectory("report-usage")
        defer { work.remove() }
        let payload = try work.write("p.json", Payloads.routed(image: nil))
        let missing = work.file("nowhere/report.html")
        let result = try await tool(["process", "--report", missing, payload])
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty)
        #expect(
            result.standardError.contains("--report '\(missing)': directory '\(work.file("nowhere"))' does not exist"),
            "\(result.standardError)")

        let underFile = try await tool(["process", "--report", payload + "/report.html", payload])
        #expect(underFile.status == 64)
        #expect(underFile.standardError.contains("'\(payload)' is not a directory"), "\(underFile.standardError)")

        let directory = try await tool(["process", "--report", work.path, payload])
        #expect(directory.status == 64)
        #expect(directory.standardError.contains("--report '\(work.path)': is a directory"), "\(directory.standardError)")
    }

    @Test func aReportThatCannotBeWrittenIsExitOneNamingTheFile() async throws {
        let work = TemporaryDirectory("report-unwritable")
        defer { work.remove() }
        let payload = try work.write("p.json", Payloads.routed(image: nil))
        // /proc exists, and no one (root included) can create a file in it.
        let result = try await tool(["process", "--report", "/proc/carillon-report.html", payload])
        #expect(result.status == 1)
        #expect(result.jsonLines.count == 1)  // the payload's own line was written first
        #expect(result.standardError.contains("cannot write report '/proc/carillon-report.html': "), "\(result.standardError)")
    }

    @Test func theReportReplacesAnOlderOneAtomicallyAndShowsTheAppName() async throws {
        let work = TemporaryDirectory("report-write")
        defer { work.remove() }
        let payload = try work.write("p.json", Payloads.routed(image: nil))
        let report = try work.write("report.html", "old")
        let result = try await tool(["process", "--report", report, "--app-name", "Acme <News>", payload])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("carillon-nse: report: \(report) (1 payload, "), "\(result.standardError)")
        #expect(result.standardError.hasSuffix(" ms)\n"))
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains(#"data-payload="\#(payload)" data-reason="no-image""#))
        #expect(html.contains("Acme &lt;News&gt;"))
        let mode = try FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int
        #expect(mode == 0o644)
        // Only the report: no temporary file left beside it.
        #expect(work.contents() == ["p.json", "report.html"])
    }

    @Test func aPathThatIsNotUTF8IsShownAsThePayloadFieldShowsIt() async throws {
        let work = TemporaryDirectory("report-bytes")
        defer { work.remove() }
        let script =
            "cd \(Shell.quote(work.path)) && printf '%s' \(Shell.quote(Payloads.routed(image: nil))) > \"$(printf 'caf\\351.json')\""
            + " && \"$TOOL\" process --report report.html caf*.json >/dev/null"
        let result = try await shell(script)
        #expect(result.status == 0, "\(result.standardError)")
        let html = try String(contentsOfFile: work.file("report.html"), encoding: .utf8)
        #expect(html.contains(#"data-payload="caf\xE9.json""#))
    }

    @Test func helpNamesTheReportOptions() async throws {
        let result = try await tool(["process", "--help"])
        #expect(result.standardOutput.contains("--report FILE.html"))
        #expect(result.standardOutput.contains("--app-name NAME"))
        #expect(result.standardOutput.contains("(default Carillon)"))
    }
}
