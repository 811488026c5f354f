/// A strict RFC 8259 JSON parser for untrusted bytes.
///
/// Written here rather than taken from Foundation so that it keeps the input's exact numbers and key
/// order, reports where and why the input is wrong, bounds nesting, and can be explored by a fuzzer
/// (Foundation is not instrumented for coverage).
@_spi(Tooling) public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted, as Foundation's parsers on Linux.
    public static let defaultMaximumDepth = 512

    /// Why bytes are not a JSON document, and where.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Byte offset of the problem from the start of the input.
        public var offset: Int
        public var line: Int
        public var column: Int
        public var message: String

        public var description: String { "\(message) at line \(line), column \(column)" }
    }

    /// Parses one JSON document (any value at the top level), surrounded by optional whitespace.
    ///
    /// - Throws: ``SyntaxError`` naming the first problem.
    public static func parse(_ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth) throws(SyntaxError) -> JSONValue {
        // Contiguous bytes (an array or a slice of one) are read where they are, without a copy.
        if let result = bytes.withContiguousStorageIfAvailable({ parse(buffer: $0, maximumDepth: maximumDepth) }) {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { parse(buffer: $0, maximumDepth: maximumDepth) }.get()
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Result<JSONValue, SyntaxError> {
        Result { () throws(SyntaxError) -> JSONValue in
            var parser = Cursor(bytes: buffer, maximumDepth: maximumDepth)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            if parser.position < buffer.count {
                throw parser.error("unexpected data after the JSON value")
            }
            return value
        }
    }

    fileprivate struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        let maximumDepth: Int
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        func error(_ message: String, at offset: Int? = nil) -> SyntaxError {
            let offset = min(offset ?? position, bytes.count)
            var line = 1
            var lineStart = 0
            for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            return SyntaxError(offset: offset, line: line, column: offset - lineStart + 1, message: message)
        }

        var atEnd: Bool { position >= bytes.count }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        func describeByte(_ byte: UInt8) -> String {
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            let hex = String(byte, radix: 16, uppercase: true)
            return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
        }

        mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONValue {
            guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            case let byte: throw error("unexpected \(describeByte(byte)), expected a value")
            }
        }

        mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
            let start = position
            let count = literal.utf8CodeUnitCount
            let matches = literal.withUTF8Buffer { expected in
                guard bytes.count - position >= count else { return false }
                for index in 0..<count where bytes[position + index] != expected[index] { return false }
                return true
            }
            guard matches else { throw error("invalid literal, expected '\(literal)'", at: start) }
            position += count
        }

        mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= maximumDepth else { throw error("nested deeper than \(maximumDepth) levels") }
            position += 1  // {
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of input inside an object") }
                guard bytes[position] == UInt8(ascii: "\"") else {
                    throw error("unexpected \(describeByte(bytes[position])), expected a member name in double quotes")
                }
                let key = try parseString()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                    throw error(atEnd ? "unexpected end of input, expected ':'" : "expected ':' after member name")
                }
                position += 1
                skipWhitespace()
                let value = try parseValue(depth: depth)
                members.append((key: key, value: value))
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of input inside an object") }
                switch bytes[position] {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(members)
                case let byte: throw error("unexpected \(describeByte(byte)), expected ',' or '}'")
                }
            }
        }

        mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= maximumDepth else { throw error("nested deeper than \(maximumDepth) levels") }
            position += 1  // [
            var elements: [JSONValue] = []
            skipWhitespace()
            if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth))
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of input inside an array") }
                switch bytes[position] {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(elements)
                case let byte: throw error("unexpected \(describeByte(byte)), expected ',' or ']'")
                }
            }
        }

        mutating func parseNumber() throws(SyntaxError) -> String {
            let start = position
            func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number: expected a digit") }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
                if position < bytes.count, isDigit(bytes[position]) { throw error("invalid number: leading zero") }
            } else {
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard position < bytes.count, isDigit(bytes[position]) else {
                    throw error("invalid number: expected a digit after '.'")
                }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                    position += 1
                }
                guard position < bytes.count, isDigit(bytes[position]) else {
                    throw error("invalid number: expected a digit in the exponent")
                }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        }

        mutating func parseHex4() throws(SyntaxError) -> UInt16 {
            guard bytes.count - position >= 4 else { throw error("unexpected end of input in a \\u escape") }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("invalid \\u escape: \(describeByte(byte)) is not a hex digit")
                }
                value = value << 4 | UInt16(digit)
                position += 1
            }
            return value
        }

        /// Parses a string starting at its opening quote. Rejects raw control characters, invalid
        /// escapes, unpaired surrogates and invalid UTF-8.
        mutating func parseString() throws(SyntaxError) -> String {
            let opening = position
            position += 1
            // Whole runs of unescaped bytes are appended as strings (one copy, no allocation for short
            // strings), escapes as scalars: building scalar by scalar was the parser's largest cost.
            var result = ""
            var runStart = position
            func flushRun(_ cursor: inout Cursor) throws(SyntaxError) {
                guard runStart < cursor.position else { return }
                let run = UnsafeBufferPointer(rebasing: cursor.bytes[runStart..<cursor.position])
                let text: String
                if Cursor.isASCII(run) {
                    // ASCII is valid UTF-8 as it is. `String(validating:as:)` is generic over the encoding and
                    // instantiated two metadata records per call: 6% of a payload's instructions.
                    text = String(decoding: run, as: UTF8.self)
                } else {
                    guard let valid = String(validating: run, as: UTF8.self) else {
                        throw cursor.error("invalid UTF-8 in a string", at: Cursor.firstInvalidUTF8(run).map { runStart + $0 })
                    }
                    text = valid
                }
                if result.isEmpty { result = text } else { result.append(text) }
            }
            while true {
                skipPlainWords()
                guard position < bytes.count else { throw error("unterminated string", at: opening) }
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    try flushRun(&self)
                    position += 1
                    return result
                } else if byte == UInt8(ascii: "\\") {
                    try flushRun(&self)
                    position += 1
                    guard position < bytes.count else { throw error("unterminated string", at: opening) }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""): result.unicodeScalars.append("\"")
                    case UInt8(ascii: "\\"): result.unicodeScalars.append("\\")
                    case UInt8(ascii: "/"): result.unicodeScalars.append("/")
                    case UInt8(ascii: "b"): result.unicodeScalars.append("\u{08}")
                    case UInt8(ascii: "f"): result.unicodeScalars.append("\u{0C}")
                    case UInt8(ascii: "n"): result.unicodeScalars.append("\n")
                    case UInt8(ascii: "r"): result.unicodeScalars.append("\r")
                    case UInt8(ascii: "t"): result.unicodeScalars.append("\t")
                    case UInt8(ascii: "u"):
                        let escapeStart = position - 2
                        let unit = try parseHex4()
                        if (0xD800...0xDBFF).contains(unit) {
                            guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"),
                                bytes[position + 1] == UInt8(ascii: "u")
                            else { throw error("unpaired surrogate in a \\u escape", at: escapeStart) }
                            position += 2
                            let low = try parseHex4()
                            guard (0xDC00...0xDFFF).contains(low) else {
                                throw error("unpaired surrogate in a \\u escape", at: escapeStart)
                            }
                            let value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
                            result.unicodeScalars.append(Unicode.Scalar(value)!)
                        } else if (0xDC00...0xDFFF).contains(unit) {
                            throw error("unpaired surrogate in a \\u escape", at: escapeStart)
                        } else {
                            result.unicodeScalars.append(Unicode.Scalar(unit)!)
                        }
                    default:
                        throw error("invalid escape '\\\(describeByte(escape).trimmingQuotes)' in a string", at: position - 2)
                    }
                    runStart = position
                } else if byte < 0x20 {
                    throw error("unescaped control character \(describeByte(byte)) in a string")
                } else {
                    position += 1
                }
            }
        }

        /// Moves past whole eight-byte words of a string that hold no quote, backslash or control
        /// character, with one test a word instead of three a byte (which, traced by a fuzzer's
        /// comparison instrumentation, were a fifth of the cost of parsing). Stops at or before the
        /// first byte that ends a run, which the byte-at-a-time loop then reads.
        mutating func skipPlainWords() {
            guard let base = bytes.baseAddress else { return }
            while bytes.count - position >= 8 {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                if Cursor.endsRun(word) { return }
                position += 8
            }
        }

        /// Whether any byte of `word` is a quote, a backslash or below 0x20 (the classic "has zero byte" and "has
        /// byte less than" word tests, exact for any byte order).
        static func endsRun(_ word: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let anyQuote = (quote &- ones) & ~quote
            let anyBackslash = (backslash &- ones) & ~backslash
            let anyControl = (word &- ones &* 0x20) & ~word
            return (anyQuote | anyBackslash | anyControl) & highs != 0
        }

        /// Whether every byte of `run` is below 0x80, tested eight at a time.
        static func isASCII(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let base = run.baseAddress else { return true }
            var offset = 0
            while run.count - offset >= 8 {
                if UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                offset += 8
            }
            while offset < run.count {
                if run[offset] >= 0x80 { return false }
                offset += 1
            }
            return true
        }

        static func firstInvalidUTF8(_ run: UnsafeBufferPointer<UInt8>) -> Int? {
            var iterator = run.makeIterator()
            var decoder = UTF8()
            var offset = 0
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): offset += UTF8.width(scalar)
                case .emptyInput: return nil
                case .error: return offset
                }
            }
        }
    }
}

extension String {
    fileprivate var trimmingQuotes: String {
        guard count >= 2, first == "'", last == "'" else { return self }
        return String(dropFirst().dropLast())
    }
}
