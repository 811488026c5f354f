import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI

/// `Documentation/Requests.md`'s table of rules is the core's catalogue, generated: a rule added,
/// changed or given another source changes the page, or this fails.
@Suite struct RequestsDocumentationTests {
    @Test func theRulesTableIsGenerated() throws {
        let path = Paths.packageRoot + "/Documentation/Requests.md"
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(page.range(of: RequestRulesTable.start))
        let end = try #require(page.range(of: RequestRulesTable.end))
        let current = String(page[start.lowerBound..<end.upperBound])
        let generated = RequestRulesTable.markdown()
        if current != generated && ProcessInfo.processInfo.environment["CARILLON_WRITE_FIXTURES"] == "1" {
            try page.replacingCharacters(in: start.lowerBound..<end.upperBound, with: generated).write(
                toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            current == generated,
            "Documentation/Requests.md's rules are stale: CARILLON_WRITE_FIXTURES=1 swift test --filter RequestsDocumentationTests")
    }
}
