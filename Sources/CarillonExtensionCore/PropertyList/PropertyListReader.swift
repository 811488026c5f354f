/// Reads a property list from untrusted bytes, XML or binary (`bplist00`), into one
/// ``PropertyListValue``, within bounds: a nesting depth, a number of values, and (binary) every offset,
/// count and reference checked against the file before it is used; a cycle is an error, never a loop.
package struct PropertyListReader: Sendable {
    /// The deepest nesting read (a dictionary in an array in a dictionary is 3). Info.plists, entitlements
    /// and profiles nest four or five deep.
    package var maximumDepth: Int
    /// The most values read in all (a binary list can name one object many times: each use counts).
    package var maximumValues: Int

    /// The bounds for files from strangers: 64 levels and 200,000 values.
    package static let standard = PropertyListReader(maximumDepth: 64, maximumValues: 200_000)

    package init(maximumDepth: Int, maximumValues: Int) {
        self.maximumDepth = maximumDepth
        self.maximumValues = maximumValues
    }

    /// The form a property list's bytes are in.
    package enum Form: String, Sendable, Equatable {
        case xml
        case binary
    }

    /// The form `bytes` are in, by their first bytes: `bplist00` is binary; anything starting, after
    /// an optional byte order mark and white space, with `<` is XML; nil for anything else.
    package static func form(of bytes: [UInt8]) -> Form? {
        if bytes.starts(with: BinaryPropertyList.magic) { return .binary }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "<") ? .xml : nil
    }

    /// The value `bytes` hold.
    ///
    /// - Throws: ``PropertyListError`` saying which form and what is wrong: neither form, a broken
    ///   structure, a bound passed.
    package func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        switch Self.form(of: bytes) {
        case .binary:
            var parser = BinaryPropertyList(bytes: bytes, reader: self)
            return try parser.root()
        case .xml:
            var parser = XMLPropertyList(bytes: bytes, reader: self)
            return try parser.document()
        case nil:
            let what = bytes.isEmpty ? "an empty file" : "neither XML nor a binary property list (bplist00)"
            throw PropertyListError("not a property list: \(what)")
        }
    }
}
