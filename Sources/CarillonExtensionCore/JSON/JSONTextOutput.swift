/// A ``JSONOutput`` that writes compact JSON text as ``JSONWriter`` writes a value: the same bytes,
/// without a ``JSONValue`` made first.
@_spi(Tooling) public struct JSONTextOutput: JSONOutput {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next key or value follows another at its level (and takes a comma).
    private var follows = false

    /// `capacity`: the room reserved at once (a process line with its trace is about 1.3 KB).
    public init(capacity: Int = 2048) { bytes.reserveCapacity(capacity) }

    /// The text written.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if follows { bytes.append(UInt8(ascii: ",")) }
        follows = true
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        follows = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        follows = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        follows = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        follows = true
    }

    public mutating func key(_ key: String) {
        separate()
        JSONWriter.writeString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        follows = false
    }

    public mutating func string(_ text: String) {
        separate()
        JSONWriter.writeString(text, to: &bytes)
    }

    public mutating func number(_ text: String) {
        separate()
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    public mutating func integer(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumCount: 1)
    }

    /// ``JSONWriter/milliseconds(_:)``'s text, its digits appended as they are found (made as a `String`
    /// by interpolation it was about 1,300 instructions a time, six times a line).
    public mutating func milliseconds(_ value: Double) {
        separate()
        let thousandths = Int((max(0, value) * 1000).rounded())
        appendDigits(UInt(thousandths / 1000), minimumCount: 1)
        bytes.append(UInt8(ascii: "."))
        appendDigits(UInt(thousandths % 1000), minimumCount: 3)
    }

    /// `value`'s decimal digits, with leading zeros up to `minimumCount`.
    private mutating func appendDigits(_ value: UInt, minimumCount: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0 || buffer.count - start < minimumCount
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    public mutating func bool(_ flag: Bool) {
        separate()
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    public mutating func value(_ value: JSONValue) {
        separate()
        JSONWriter.write(value, to: &bytes)
    }
}
