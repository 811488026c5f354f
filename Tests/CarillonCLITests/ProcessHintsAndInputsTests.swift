import CarillonTestSupport
import Foundation
import Testing

/// The tool explaining itself (issue 12): hints in `warnings`, and what it says about its inputs.
@Suite(.timeLimit(.minutes(1))) struct ProcessHintsAndInputsTests {
    @Test func aLookAlikeKeyIsNamedInTheLine() async throws {
        let directory = try TemporaryDirectory("hints")
        defer { directory.remove() }
        try directory.write("typo.json", #"{"aps":{"alert":"Hi","mutable_content":1},"carillon":{"image":"https://127.0.0.1/a.png"}}"#)
        let result = try await tool(["process", "--attachments", directory.file("att"), directory.file("typo.json")])
        #expect(result.status == 0)
        let line = try #require(result.jsonLines.first)
        #expect(line["reason"] as? String == "not-mutable")
        #expect((line["warnings"] as? [String])?.contains("aps key 'mutable_content' is not 'mutable-content': did you mean 'mutable-content'? (keys are exact)") == true, "\(line)")
    }
}
