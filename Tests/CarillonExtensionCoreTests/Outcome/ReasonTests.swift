import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The reason codes are a contract (Documentation/Reasons.md, SPEC §3): stable, unique, kebab-case.
@Suite struct ReasonTests {
    @Test func codesAreUniqueAndKebabCase() {
        let codes = Reason.allCases.map(\.code)
        #expect(Set(codes).count == codes.count)
        for code in codes {
            #expect(!code.isEmpty && code.allSatisfy { $0.isLowercase || $0 == "-" }, "\(code)")
            #expect(!code.hasPrefix("-") && !code.hasSuffix("-") && !code.contains("--"), "\(code)")
        }
    }

    @Test func everyCodeIsDocumentedInTheReasonTable() throws {
        let page = String(
            decoding: try FileSystem.readFile(Paths.packageRoot + "/Documentation/Reasons.md", policy: .regularFile), as: UTF8.self)
        for reason in Reason.allCases {
            #expect(page.contains("| `\(reason.code)` |"), "Documentation/Reasons.md's reason table has no row for \(reason.code)")
        }
    }

    @Test func anOutcomeDescribesItselfAsCodeAndDetail() {
        let outcome = Outcome(.httpStatus, "the server answered 404")
        #expect(outcome.description == "http-status: the server answered 404")
        #expect(outcome == Outcome(.httpStatus, "the server answered 404"))
        #expect(outcome != Outcome(.httpStatus, "the server answered 500"))
    }
}
