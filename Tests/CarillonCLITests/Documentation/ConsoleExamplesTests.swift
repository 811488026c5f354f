import Foundation
import Testing

/// The example convention's parts from tables: finding the examples, folding, and what is normalised.
@Suite struct ConsoleExamplesTests {
    @Test func anExampleIsAConsoleBlockAfterTheCommentAndItsCommandsAreTheDollarLines() {
        let page = [
            "text", "<!-- example: samples wrap -->", "```console", "$ carillon-nse process \\", "    a.json b.json", "out 1",
            "", "out 2", "$ carillon-nse drain", "drained", "```", "```console", "$ not an example", "```",
        ]
        let examples = ConsoleExamples.examples(page)
        #expect(examples.count == 1)
        #expect(examples[0].words == ["samples", "wrap"] && examples[0].wraps && examples[0].body == 3..<10)
        #expect(examples[0].commands.map(\.text) == ["carillon-nse process a.json b.json", "carillon-nse drain"])
        #expect(examples[0].commands.map(\.output) == [["out 1", "", "out 2"], ["drained"]])
        #expect(examples[0].commands.map(\.line) == [4, 9])
        let rewritten = ConsoleExamples.rewritten(page, examples, [["new"], ["done"]])
        #expect(rewritten[3..<8] == ["$ carillon-nse process \\", "    a.json b.json", "new", "$ carillon-nse drain", "done"])
    }

    static let folds: [(String, Int, [String])] = [
        ("short line", 20, ["short line"]),
        ("one two three four", 10, ["one two", "    three", "    four"]),
        ("  indented words here", 12, ["  indented", "      words", "      here"]),
        (#"{"a":1,"b":2,"c":3}"#, 10, [#"{"a":1,"#, #"    "b":2,"#, #"    "c":3}"#]),
        ("abcdefghijkl", 5, ["abcde", "    f", "    g", "    h", "    i", "    j", "    k", "    l"]),
    ]

    @Test(arguments: folds)
    func foldingBreaksAtASpaceElseAfterACommaElseAtTheWidth(line: String, width: Int, folded: [String]) {
        #expect(ConsoleExamples.fold(line, width: width) == folded)
        #expect(folded.allSatisfy { $0.count <= width })
    }

    static let normalisations: [(String, String)] = [
        ("https://127.0.0.1:46027/img/png", "https://127.0.0.1:PORT/img/png"),
        (#""at":"2026-12-03T07:49:38.844Z""#, #""at":"INSTANT""#),
        ("att/image-22947-3-137rvsl0s44mi.png", "att/image-NAME.png"),
        ("dns 0.036 connect 0.183 total 2001.774 ms", "dns N.N connect N.N total N.N ms"),
        ("TLSv1.3 TLS_AES_256_GCM_SHA384, 11352 bytes", "TLSv1.3 TLS_AES_256_GCM_SHA384, 11352 bytes"),
        ("ran out, 2003 ms in all", "ran out, N ms in all"),
        ("campaign-summary.json (8471 bytes, written in 1.838 ms)", "campaign-summary.json (N bytes, written in N.N ms)"),
        ("/tmp/work-x/report.html", "WORK/report.html"),
    ]

    @Test(arguments: normalisations)
    func whatVariesFromRunToRunIsReplaced(text: String, normalised: String) {
        #expect(ConsoleExamples.normalised(text, workDirectory: "/tmp/work-x", wrap: false) == normalised)
    }

    @Test func aWrappedExampleIsComparedWithoutRegardToWhiteSpace() {
        let folded = ConsoleExamples.fold("hop 1: 200 from 127.0.0.1:1 over HTTP/1.1", width: 20).joined(separator: "\n")
        #expect(
            ConsoleExamples.normalised(folded, workDirectory: "/w", wrap: true)
                == ConsoleExamples.normalised("hop 1: 200 from 127.0.0.1:2 over HTTP/1.1", workDirectory: "/w", wrap: true))
    }
}
