import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The rule catalogue: every rule once, with a source; Apple's documents first; an observation says so.
@Suite struct RequestRulesTests {
    @Test func everyRuleIsListedOnceWithASource() {
        let ids = RequestRules.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(RequestRules.all.allSatisfy { !$0.statement.isEmpty && !$0.source.title.isEmpty })
        let checks = APNsChecks.all.map(\.0)
        #expect(checks.allSatisfy { RequestRules.all.contains($0) })
    }

    @Test func applesDocumentsComeFirstAndObservationsLast() {
        let ranks = RequestRules.all.map { rule in
            rule.source.isObservation ? 3 : rule.source.title.hasPrefix("Apple") ? 0 : rule.source.title.hasPrefix("Firebase") ? 1 : 2
        }
        #expect(ranks == ranks.sorted())
        #expect(RequestRules.all.filter(\.source.isObservation).allSatisfy { $0.statement.contains("report") })
    }
}
