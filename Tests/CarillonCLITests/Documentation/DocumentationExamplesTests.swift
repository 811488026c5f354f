import CarillonTestSupport
import Foundation
import Testing

/// Every documentation example marked `<!-- example: … -->` (``ConsoleExamples``) is the real output
/// of today's tool against the local servers, up to what varies from run to run. After a change of
/// output, `CARILLON_WRITE_FIXTURES=1 swift test --filter DocumentationExamplesTests` rewrites the
/// examples in place with a real run; review the diff.
@Suite(.serialized, .timeLimit(.minutes(3))) struct DocumentationExamplesTests {
    static let rewriteCommand = "CARILLON_WRITE_FIXTURES=1 swift test --filter DocumentationExamplesTests"
    static var rewriting: Bool { ProcessInfo.processInfo.environment["CARILLON_WRITE_FIXTURES"] == "1" }

    /// The pages, relative to the package root: the README and every page of Documentation/.
    static let pages: [String] = {
        let documentation = Paths.packageRoot + "/Documentation"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: documentation)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
    }()

    @Test func theREADMEAndProcessPageExamplesAreFound() throws {
        let kept = try Self.pages.filter { !ConsoleExamples.examples(try Self.lines($0)).isEmpty }
        #expect(Set(["README.md", "Documentation/Process.md"]).isSubset(of: kept), "the convention is found where it is used")
    }

    static func lines(_ page: String) throws -> [String] {
        try String(contentsOfFile: Paths.packageRoot + "/" + page, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test(arguments: pages)
    func everyExampleIsTheToolsRealOutput(page: String) async throws {
        let lines = try Self.lines(page)
        let examples = ConsoleExamples.examples(lines)
        guard !examples.isEmpty else { return }
        let outputs = try await onOwnThread { () throws -> [[String]] in
            let session = ExampleSession()
            var outputs: [[String]] = []
            for example in examples {
                try session.prepare(example.words)
                for command in example.commands {
                    let actual = try session.run(command.text)
                    outputs.append(actual)
                    let work = session.work.path
                    let want = ConsoleExamples.normalised(command.output.joined(separator: "\n"), workDirectory: work, wrap: example.wraps)
                    let got = ConsoleExamples.normalised(actual.joined(separator: "\n"), workDirectory: work, wrap: example.wraps)
                    if !Self.rewriting {
                        let printed = actual.joined(separator: "\n")
                        #expect(
                            want == got,
                            "\(page):\(command.line): `\(command.text)` printed\n\(printed)\nrewrite: \(Self.rewriteCommand)")
                    }
                }
            }
            return outputs
        }
        if Self.rewriting {
            let text = ConsoleExamples.rewritten(lines, examples, outputs).joined(separator: "\n")
            try Data(text.utf8).write(to: URL(fileURLWithPath: Paths.packageRoot + "/" + page))
        }
    }
}
