import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The reason codes are a contract (README, SPEC §3): stable, unique, kebab-case.
@Suite struct ReasonTests {
    @Test func codesAreUniqueAndKebabCase() {
        let codes = Reason.allCases.map(\.code)
        #expect(Set(codes).count == codes.count)
        for code in codes {
            #expect(!code.isEmpty && code.allSatisfy { $0.isLowercase || $0 == "-" }, "\(code)")
            #expect(!code.hasPrefix("-") && !code.hasSuffix("-") && !code.contains("--"), "\(code)")
        }
    }

    @Test func everyCodeIsDocumentedInTheREADME() throws {
        let readme = String(decoding: try FileSystem.readFile(Paths.packageRoot + "/README.md", policy: .regularFile), as: UTF8.self)
        for reason in Reason.allCases {
            #expect(readme.contains("| `\(reason.code)` |"), "README's reason table has no row for \(reason.code)")
        }
    }

    @Test func anOutcomeDescribesItselfAsCodeAndDetail() {
        let outcome = Outcome(.httpStatus, "the server answered 404")
        #expect(outcome.description == "http-status: the server answered 404")
        #expect(outcome == Outcome(.httpStatus, "the server answered 404"))
        #expect(outcome != Outcome(.httpStatus, "the server answered 500"))
    }
}
