/// Entitlements in the DER form a code signature can carry (blob 0xfade7172), as Apple's CoreEntitlements
/// writes them: `[APPLICATION 16] { INTEGER 1, [CONTEXT 16] { SEQUENCE { UTF8String key, value }… } }`,
/// a value being a BOOLEAN, an INTEGER, a UTF8String, a SEQUENCE (an array) or `[CONTEXT 16]` (a
/// dictionary). Read strictly as DER, nesting bounded.
package enum DEREntitlements {
    /// The entitlements `bytes` hold, as the property list the XML form would give.
    ///
    /// - Throws: ``BERError`` naming what is not the form.
    package static func decode(_ bytes: [UInt8]) throws(BERError) -> PropertyListValue {
        var reader = BERReader(bytes, strict: true)
        reader.maximumDepth = 32
        let root = try reader.element(at: 0)
        guard root.tagClass == 1, root.tagNumber == 16, root.constructed, root.end == bytes.count else {
            throw BERError("DER entitlements that do not start with [APPLICATION 16] spanning the blob")
        }
        let parts = try reader.children(of: root)
        guard parts.count == 2, parts[0].isUniversal(BERElement.Universal.integer), reader.content(parts[0]).elementsEqual([1]) else {
            throw BERError("DER entitlements without version 1")
        }
        return try value(parts[1], reader, depth: 1)
    }

    private static func value(_ element: BERElement, _ reader: BERReader, depth: Int) throws(BERError) -> PropertyListValue {
        guard depth <= reader.maximumDepth else { throw BERError("DER entitlements nested deeper than \(reader.maximumDepth)") }
        let content = reader.content(element)
        switch (element.tagClass, element.tagNumber, element.constructed) {
        case (0, BERElement.Universal.boolean, false):
            guard content.count == 1, content.first == 0 || content.first == 0xFF else {
                throw BERError("a BOOLEAN at \(element.contentStart) not 00 or FF")
            }
            return .bool(content.first == 0xFF)
        case (0, BERElement.Universal.integer, false):
            guard (1...8).contains(content.count) else { throw BERError("an INTEGER of \(content.count) bytes at \(element.contentStart)") }
            var value = Int64(Int8(bitPattern: content.first!))
            for byte in content.dropFirst() { value = value << 8 | Int64(byte) }
            return .integer(value)
        case (0, BERElement.Universal.utf8String, false):
            guard let text = String(validating: content, as: UTF8.self) else {
                throw BERError("a UTF8String at \(element.contentStart) that is not UTF-8")
            }
            return .string(text)
        case (0, BERElement.Universal.sequence, true):
            var elements: [PropertyListValue] = []
            for child in try reader.children(of: element, depth: depth) { elements.append(try value(child, reader, depth: depth + 1)) }
            return .array(elements)
        case (2, 16, true):
            var members: [(key: String, value: PropertyListValue)] = []
            for pair in try reader.children(of: element, depth: depth) {
                let parts = pair.isUniversal(BERElement.Universal.sequence) ? try reader.children(of: pair, depth: depth + 1) : []
                guard parts.count == 2, case .string(let key) = try value(parts[0], reader, depth: depth + 1) else {
                    throw BERError("a dictionary member at \(pair.contentStart) that is not SEQUENCE { UTF8String, value }")
                }
                members.append((key, try value(parts[1], reader, depth: depth + 1)))
            }
            return .dictionary(members)
        default:
            throw BERError(
                "a DER element of class \(element.tagClass), tag \(element.tagNumber) at \(element.contentStart): not an entitlement value")
        }
    }
}
