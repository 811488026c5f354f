@_spi(Tooling) import CarillonExtensionCore

/// The `replay` object of a replay's line: the core's ``ReplayFacts`` as JSON, in the documented order.
enum ReplayObject {
    static func json(_ facts: ReplayFacts) -> JSONValue {
        let differs: [JSONValue] = facts.requestDiffers.map { difference in
            .object([
                (key: "header", value: .string(difference.header)),
                (key: "recorded", value: difference.recorded.map { .string($0) } ?? .null),
                (key: "extension", value: difference.extensionValue.map { .string($0) } ?? .null),
                (key: "varies", value: .bool(difference.varies)),
            ])
        }
        return .object([
            (key: "source", value: .string(facts.source)),
            (key: "file", value: .string(facts.file)),
            (key: "creator", value: .string(facts.creator)),
            (key: "entries", value: .array(facts.entries.map { .number(String($0)) })),
            (key: "checked", value: .array(facts.checked.map { .string($0) })),
            (
                key: "not_checked",
                value: .array(
                    facts.notChecked.map { .object([(key: "check", value: .string($0.check)), (key: "why", value: .string($0.why))]) })
            ),
            (key: "request_differs", value: .array(differs)),
            (key: "notes", value: .array(facts.notes.map { .string($0) })),
        ])
    }
}
