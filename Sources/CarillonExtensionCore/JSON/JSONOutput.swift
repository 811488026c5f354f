/// Where a document is written member by member: as text straight into bytes (``JSONTextOutput``), or as
/// a ``JSONValue`` (``JSONValueBuilder``). A document written for every payload (SPEC §6's line) is
/// written once against this, and whoever keeps it as a value (a recording's verdict, a bundle) and
/// whoever prints it get the same members in the same order, without the printed line building a
/// value first (TestAssets/Bench/README.md, "Measurements behind the code").
@_spi(Tooling) public protocol JSONOutput {
    mutating func beginObject()
    mutating func endObject()
    mutating func beginArray()
    mutating func endArray()
    /// The next member's key, in an object.
    mutating func key(_ key: String)
    mutating func string(_ text: String)
    /// A number as its JSON text.
    mutating func number(_ text: String)
    mutating func bool(_ flag: Bool)
    mutating func null()
    /// A whole value made elsewhere.
    mutating func value(_ value: JSONValue)
    /// An integer as its decimal text.
    mutating func integer(_ value: Int)
    /// Milliseconds with three decimals (``JSONWriter/milliseconds(_:)``'s text).
    mutating func milliseconds(_ value: Double)
}

extension JSONOutput {
    public mutating func integer(_ value: Int) { number(String(value)) }
    public mutating func milliseconds(_ value: Double) { number(JSONWriter.milliseconds(value)) }

    /// An integer of another width.
    public mutating func integer(_ value: Int64) { integer(Int(value)) }

    /// A string, or null.
    public mutating func string(orNull text: String?) {
        if let text { string(text) } else { null() }
    }

    /// An integer, or null.
    public mutating func integer(orNull value: Int?) {
        if let value { integer(value) } else { null() }
    }
}
