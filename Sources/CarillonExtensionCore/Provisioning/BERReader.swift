/// Reads BER elements from bytes, bounded in depth, never past the buffer.
package struct BERReader: Sendable {
    package let bytes: [UInt8]
    /// Whether only DER is accepted: definite, minimal lengths.
    package let strict: Bool
    /// The deepest nesting walked when an indefinite length has to be measured.
    package var maximumDepth = 64

    package init(_ bytes: [UInt8], strict: Bool = false) {
        self.bytes = bytes
        self.strict = strict
    }

    /// The element starting at `offset`, which must end by `limit`.
    package func element(at offset: Int, limit: Int? = nil, depth: Int = 0) throws(BERError) -> BERElement {
        let limit = min(limit ?? bytes.count, bytes.count)
        guard depth <= maximumDepth else { throw BERError("ASN.1 nested deeper than \(maximumDepth) levels at \(offset)") }
        guard offset < limit else { throw BERError("an ASN.1 element expected at \(offset), past the end (\(limit))") }
        var position = offset
        let first = bytes[position]
        position += 1
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            number = 0
            var digits = 0
            repeat {
                guard position < limit, digits < 4 else { throw BERError("an ASN.1 tag at \(offset) that is cut short or too long") }
                number = number << 7 | UInt32(bytes[position] & 0x7F)
                digits += 1
                position += 1
            } while bytes[position - 1] & 0x80 != 0
        }
        let constructed = first & 0x20 != 0
        guard position < limit else { throw BERError("an ASN.1 length at \(offset) is cut short") }
        let lengthByte = bytes[position]
        position += 1
        var element = BERElement(
            tagClass: first >> 6, constructed: constructed, tagNumber: number, contentStart: position, contentEnd: 0, end: 0)
        if lengthByte == 0x80 {
            guard !strict, constructed else { throw BERError("an indefinite ASN.1 length at \(offset) where DER needs a definite one") }
            element.contentEnd = try endOfContents(from: position, limit: limit, depth: depth)
            element.end = element.contentEnd + 2
            return element
        }
        var length = Int(lengthByte)
        if lengthByte & 0x80 != 0 {
            let count = Int(lengthByte & 0x7F)
            guard count <= 4, count <= limit - position else { throw BERError("an ASN.1 length of \(count) bytes at \(offset)") }
            length = 0
            for index in 0..<count { length = length << 8 | Int(bytes[position + index]) }
            position += count
            if strict, length < 0x80 || (count > 1 && length >> (8 * (count - 1)) == 0) {
                throw BERError("an ASN.1 length at \(offset) not in DER's shortest form")
            }
        }
        guard length <= limit - position else {
            throw BERError("an ASN.1 element at \(offset) says \(length) bytes, with \(limit - position) left")
        }
        element.contentStart = position
        element.contentEnd = position + length
        element.end = position + length
        return element
    }

    /// Where an indefinite length's content ends: the elements from `start` walked to the end-of-contents
    /// octets (`00 00`) at their level.
    private func endOfContents(from start: Int, limit: Int, depth: Int) throws(BERError) -> Int {
        var position = start
        while true {
            guard position + 2 <= limit else { throw BERError("an indefinite ASN.1 length from \(start) with no end-of-contents") }
            if bytes[position] == 0, bytes[position + 1] == 0 { return position }
            position = try element(at: position, limit: limit, depth: depth + 1).end
        }
    }

    /// The elements inside a constructed element, in order.
    package func children(of parent: BERElement, depth: Int = 0) throws(BERError) -> [BERElement] {
        var children: [BERElement] = []
        var position = parent.contentStart
        while position < parent.contentEnd {
            let child = try element(at: position, limit: parent.contentEnd, depth: depth + 1)
            children.append(child)
            position = child.end
        }
        return children
    }

    /// An element's content bytes.
    package func content(_ element: BERElement) -> ArraySlice<UInt8> { bytes[element.contentStart..<element.contentEnd] }

    /// An octet string's bytes, joined from its pieces when BER cut it up (a constructed octet string),
    /// at most `limit` bytes.
    package func octets(_ element: BERElement, limit: Int, depth: Int = 0) throws(BERError) -> [UInt8] {
        guard element.isUniversal(BERElement.Universal.octetString) else {
            throw BERError("an OCTET STRING expected at \(element.contentStart), found tag \(element.tagNumber)")
        }
        guard element.constructed else {
            guard element.contentEnd - element.contentStart <= limit else { throw BERError("an OCTET STRING over \(limit) bytes") }
            return Array(content(element))
        }
        var joined: [UInt8] = []
        for piece in try children(of: element, depth: depth) {
            let bytes = try octets(piece, limit: limit - joined.count, depth: depth + 1)
            joined += bytes
        }
        return joined
    }

    /// An object identifier's dotted text (`1.2.840.113549.1.7.2`).
    package func objectIdentifier(_ element: BERElement) throws(BERError) -> String {
        guard element.isUniversal(BERElement.Universal.objectIdentifier), !element.constructed, element.contentEnd > element.contentStart
        else { throw BERError("an OBJECT IDENTIFIER expected at \(element.contentStart)") }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        for byte in content(element) {
            guard value < (1 << 56) else { throw BERError("an OBJECT IDENTIFIER arc too large at \(element.contentStart)") }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                arcs.append(value)
                value = 0
            }
        }
        guard let first = arcs.first else { throw BERError("an empty OBJECT IDENTIFIER at \(element.contentStart)") }
        let head = first < 80 ? [first / 40, first % 40] : [2, first - 80]
        return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }
}
