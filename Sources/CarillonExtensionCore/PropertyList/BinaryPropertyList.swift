/// A binary property list (`bplist00`) read by hand: the 32-byte trailer, the offset table and each
/// object, with every offset, count and reference checked against the file before it is used. The
/// format is Apple's CFBinaryPList.c; nothing here trusts a number the file gives.
struct BinaryPropertyList {
    static let magic: [UInt8] = Array("bplist00".utf8)
    /// Seconds from 1970-01-01 to 2001-01-01, the epoch of a binary date.
    static let referenceDateOffset: Double = 978_307_200

    let bytes: [UInt8]
    let reader: PropertyListReader
    /// Values decoded so far (each use of a shared object counts).
    private var decoded = 0
    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var tableOffset = 0

    init(bytes: [UInt8], reader: PropertyListReader) {
        self.bytes = bytes
        self.reader = reader
    }

    private func failure(_ what: String) -> PropertyListError { PropertyListError("binary property list: \(what)") }

    /// The top object, after the trailer and the offset table are checked.
    mutating func root() throws(PropertyListError) -> PropertyListValue {
        let trailerStart = bytes.count - 32
        guard trailerStart >= Self.magic.count + 1 else { throw failure("\(bytes.count) bytes: too short for a trailer") }
        offsetSize = Int(bytes[trailerStart + 6])
        referenceSize = Int(bytes[trailerStart + 7])
        guard (1...8).contains(offsetSize) else { throw failure("an offset size of \(offsetSize) bytes (1 to 8)") }
        guard (1...8).contains(referenceSize) else { throw failure("an object reference size of \(referenceSize) bytes (1 to 8)") }
        let count = unsigned(at: trailerStart + 8, size: 8)
        let top = unsigned(at: trailerStart + 16, size: 8)
        let table = unsigned(at: trailerStart + 24, size: 8)
        guard count >= 1, count <= UInt64(bytes.count) else { throw failure("an object count of \(count) in \(bytes.count) bytes") }
        guard top < count else { throw failure("the top object \(top) is not one of the \(count) objects") }
        guard table >= UInt64(Self.magic.count + 1), table < UInt64(trailerStart) else {
            throw failure("an offset table at \(table), outside the objects (\(Self.magic.count + 1) to \(trailerStart))")
        }
        objectCount = Int(count)
        tableOffset = Int(table)
        let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
        guard !overflow, tableSize <= trailerStart - tableOffset else {
            throw failure("an offset table of \(objectCount) offsets of \(offsetSize) bytes runs past the trailer")
        }
        var path: [Int] = []
        return try object(Int(top), path: &path)
    }

    /// A big-endian unsigned integer of `size` bytes at `offset` (the caller has checked the range).
    private func unsigned(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// Where object `index` starts, from the offset table.
    private func offset(of index: Int) throws(PropertyListError) -> Int {
        let offset = unsigned(at: tableOffset + index * offsetSize, size: offsetSize)
        guard offset >= UInt64(Self.magic.count), offset < UInt64(tableOffset) else {
            throw failure("object \(index) at offset \(offset), outside the objects (\(Self.magic.count) to \(tableOffset))")
        }
        return Int(offset)
    }

    /// Object `index`, decoded; `path` holds the containers being decoded, so that a reference back to
    /// one of them is a cycle.
    private mutating func object(_ index: Int, path: inout [Int]) throws(PropertyListError) -> PropertyListValue {
        decoded += 1
        guard decoded <= reader.maximumValues else { throw failure("more than \(reader.maximumValues) values") }
        let start = try offset(of: index)
        let marker = bytes[start]
        let kind = marker >> 4
        let info = Int(marker & 0x0F)
        switch kind {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw failure("object \(index) at \(start): marker 0x\(hex(marker)) (null or fill) is not a value")
            }
        case 0x1: return .integer(try integer(index, start, info))
        case 0x2: return .real(try real(index, start, info))
        case 0x3:
            guard marker == 0x33 else { throw failure("object \(index) at \(start): a date marker 0x\(hex(marker)) (0x33)") }
            return .date(try date(index, start))
        case 0x4:
            let (count, body) = try length(index, start, info, unit: 1)
            return .data(Array(bytes[body..<(body + count)]))
        case 0x5:
            let (count, body) = try length(index, start, info, unit: 1)
            let slice = bytes[body..<(body + count)]
            guard slice.allSatisfy({ $0 < 0x80 }) else {
                throw failure("object \(index) at \(start): an ASCII string with a byte over 0x7F")
            }
            return .string(String(decoding: slice, as: UTF8.self))
        case 0x6:
            let (count, body) = try length(index, start, info, unit: 2)
            let units = (0..<count).map { UInt16(bytes[body + 2 * $0]) << 8 | UInt16(bytes[body + 2 * $0 + 1]) }
            guard let text = String(validating: units, as: UTF16.self) else {
                throw failure("object \(index) at \(start): a UTF-16 string with an unpaired surrogate")
            }
            return .string(text)
        case 0xA, 0xC:
            return .array(try container(index, start, info, path: &path).values)
        case 0xD:
            let (keys, values) = try container(index, start, info, pairs: true, path: &path)
            var members: [(key: String, value: PropertyListValue)] = []
            members.reserveCapacity(values.count)
            for (key, value) in zip(keys, values) {
                guard case .string(let name) = key else {
                    throw failure("object \(index) at \(start): a dict key that is a \(key.typeName)")
                }
                members.append((name, value))
            }
            return .dictionary(members)
        default:
            throw failure("object \(index) at \(start): marker 0x\(hex(marker)) is not a type property lists use")
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    /// The bytes `start ..< start + count` lie before the offset table.
    private func check(_ index: Int, _ start: Int, _ count: Int) throws(PropertyListError) {
        guard count >= 0, count <= tableOffset - start else {
            throw failure("object \(index) at \(start): \(count) bytes run past the objects (the offset table is at \(tableOffset))")
        }
    }

    private func integer(_ index: Int, _ start: Int, _ info: Int) throws(PropertyListError) -> Int64 {
        guard info <= 4 else { throw failure("object \(index) at \(start): an integer of 2^\(info) bytes") }
        let size = 1 << info
        try check(index, start + 1, size)
        if size == 16 {
            // CFBinaryPList writes an unsigned 64-bit value over Int64.max this way: the high half is 0.
            let high = unsigned(at: start + 1, size: 8)
            let low = unsigned(at: start + 9, size: 8)
            guard high == 0, low <= UInt64(Int64.max) else {
                throw failure("object \(index) at \(start): an integer outside 64-bit signed range")
            }
            return Int64(low)
        }
        let value = unsigned(at: start + 1, size: size)
        // 1, 2 and 4 bytes are unsigned; 8 bytes are signed.
        return size == 8 ? Int64(bitPattern: value) : Int64(value)
    }

    private func real(_ index: Int, _ start: Int, _ info: Int) throws(PropertyListError) -> Double {
        switch info {
        case 2:
            try check(index, start + 1, 4)
            return Double(Float(bitPattern: UInt32(unsigned(at: start + 1, size: 4))))
        case 3:
            try check(index, start + 1, 8)
            return Double(bitPattern: unsigned(at: start + 1, size: 8))
        default:
            throw failure("object \(index) at \(start): a real of 2^\(info) bytes (4 or 8)")
        }
    }

    private func date(_ index: Int, _ start: Int) throws(PropertyListError) -> Timestamp {
        try check(index, start + 1, 8)
        let seconds = Double(bitPattern: unsigned(at: start + 1, size: 8))
        let milliseconds = (seconds + Self.referenceDateOffset) * 1000
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds <= Double(Timestamp.latest.millisecondsSinceEpoch) else {
            throw failure("object \(index) at \(start): a date of \(seconds) s after 2001, outside 1970 to 9999")
        }
        return Timestamp(millisecondsSinceEpoch: Int64(milliseconds.rounded()))
    }

    /// A data, string or container object's count (in the marker, or as an integer object after it when
    /// the marker says 0xF) and where its body starts; the body of `count × unit` bytes is checked to lie
    /// before the offset table.
    private func length(_ index: Int, _ start: Int, _ info: Int, unit: Int) throws(PropertyListError) -> (count: Int, body: Int) {
        var count = info
        var body = start + 1
        if info == 0x0F {
            try check(index, body, 1)
            let marker = bytes[body]
            guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
                throw failure("object \(index) at \(start): a count marker 0x\(hex(marker)) that is not a 1- to 8-byte integer")
            }
            let size = 1 << Int(marker & 0x0F)
            try check(index, body + 1, size)
            let value = unsigned(at: body + 1, size: size)
            guard value <= UInt64(tableOffset) else { throw failure("object \(index) at \(start): a count of \(value)") }
            count = Int(value)
            body += 1 + size
        }
        let (bytesNeeded, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow else { throw failure("object \(index) at \(start): a count of \(count)") }
        try check(index, body, bytesNeeded)
        return (count, body)
    }

    /// An array's values, or a dictionary's keys and values (`pairs`), each reference checked.
    private mutating func container(_ index: Int, _ start: Int, _ info: Int, pairs: Bool = false, path: inout [Int])
        throws(PropertyListError) -> (keys: [PropertyListValue], values: [PropertyListValue])
    {
        guard path.count < reader.maximumDepth else { throw failure("nested deeper than \(reader.maximumDepth) levels") }
        guard !path.contains(index) else { throw failure("object \(index) at \(start) contains itself (a cycle)") }
        let (count, body) = try length(index, start, info, unit: (pairs ? 2 : 1) * referenceSize)
        path.append(index)
        defer { path.removeLast() }
        var references: [Int] = []
        references.reserveCapacity(pairs ? 2 * count : count)
        for slot in 0..<(pairs ? 2 * count : count) {
            let reference = unsigned(at: body + slot * referenceSize, size: referenceSize)
            guard reference < UInt64(objectCount) else {
                throw failure("object \(index) at \(start) refers to object \(reference) of \(objectCount)")
            }
            references.append(Int(reference))
        }
        var keys: [PropertyListValue] = []
        if pairs {
            for reference in references[..<count] { keys.append(try object(reference, path: &path)) }
        }
        var values: [PropertyListValue] = []
        values.reserveCapacity(count)
        for reference in references[(pairs ? count : 0)...] { values.append(try object(reference, path: &path)) }
        return (keys, values)
    }
}
