@_spi(Tooling) import CarillonExtensionCore

extension FuzzChecks {
    // MARK: - FuzzPropertyList

    /// The reader's bounds, small, so that libFuzzer reaches them.
    static let propertyListReader = PropertyListReader(maximumDepth: 16, maximumValues: 2000)

    /// `PropertyListReader.read` (`FuzzPropertyList`): never a trap; a refusal names its form; what is
    /// read stays within the depth and count bounds, reads the same twice and under looser bounds, and
    /// converts to JSON (its JSON parses back).
    public static func propertyList(_ bytes: [UInt8]) throws(FuzzFailure) {
        let value: PropertyListValue
        do {
            value = try propertyListReader.read(bytes)
        } catch {
            let known = ["binary property list: ", "XML property list, line ", "not a property list: "]
            try check(known.contains { error.message.hasPrefix($0) }, "a refusal that names no form: \(error.message)")
            return
        }
        let (depth, count) = shape(value)
        try check(
            depth <= propertyListReader.maximumDepth + 1, "a value \(depth) deep read under a bound of \(propertyListReader.maximumDepth)")
        try check(count <= propertyListReader.maximumValues, "\(count) values read under a bound of \(propertyListReader.maximumValues)")
        try check((try? propertyListReader.read(bytes)) == value, "the list reads differently twice")
        try check((try? PropertyListReader.standard.read(bytes)) == value, "looser bounds read it differently")
        let json = JSONWriter.string(value.json)
        try check((try? JSONParser.parse(Array(json.utf8))) != nil, "its JSON does not parse: \(json.prefix(200))")
    }

    /// The depth and the number of values of a property list.
    static func shape(_ value: PropertyListValue) -> (depth: Int, count: Int) {
        switch value {
        case .array(let elements):
            let inner = elements.map(shape)
            return (1 + (inner.map(\.depth).max() ?? 0), 1 + inner.reduce(0) { $0 + $1.count })
        case .dictionary(let members):
            let inner = members.map { shape($0.value) }
            return (1 + (inner.map(\.depth).max() ?? 0), 1 + inner.reduce(0) { $0 + $1.count })
        default:
            return (1, 1)
        }
    }
}
