extension ResultBundle {
    /// The header from line 1: a file whose first line is not JSON is no bundle.
    static func headerLine(_ line: [UInt8]) throws(ResultBundleError) -> Header {
        guard let value = try? JSONParser.parse(line) else { throw ResultBundleError("not a carillon-nse result bundle", line: 1) }
        return try header(value)
    }

    /// The header from line 1's value, when it is one this reader reads.
    static func header(_ value: JSONValue) throws(ResultBundleError) -> Header {
        guard value["format"] == .string(format) else { throw ResultBundleError("not a carillon-nse result bundle", line: 1) }
        guard value["version"] == .number(String(version)) else {
            let found = value["version"].map { JSONWriter.string($0) } ?? "none"
            throw ResultBundleError("bundle version \(found); this carillon-nse reads version \(version)", line: 1)
        }
        guard case .string(let tool)? = value["tool"], case .string(let shardText)? = value["shard"], let shard = Shard(shardText),
            case .string(let ruleText)? = value["rule"], let rule = ShardRule(rawValue: ruleText),
            case .array(let runnerValues)? = value["runners"], case .string(let startedText)? = value["started"],
            let started = Timestamp(iso8601: startedText)
        else { throw ResultBundleError("a header without its tool, shard, rule, runners or start time", line: 1) }
        let runners = runnerValues.compactMap(\.stringValue)
        guard runners.count == runnerValues.count, let options = entries(value["options"]), let settings = entries(value["settings"])
        else { throw ResultBundleError("a header whose runners, options or settings are not text", line: 1) }
        let appName = settings.last { $0.name == appNameSetting }?.value
        return Header(tool: tool, shard: shard, rule: rule, runners: runners, options: options, appName: appName, started: started)
    }

    /// An object of strings, bounded; nil for anything else.
    private static func entries(_ value: JSONValue?) -> [Option]? {
        guard case .object(let members)? = value, members.count <= maximumHeaderEntries else { return nil }
        var options: [Option] = []
        for member in members {
            guard case .string(let text) = member.value else { return nil }
            options.append(Option(member.key, text))
        }
        return options
    }

    /// The end line's facts from its value; nil when the value is no end line at all.
    static func end(_ value: JSONValue, line: Int) throws(ResultBundleError) -> End? {
        guard value["end"] == .string(format) else { return nil }
        let input = value["input"]
        guard let records = count(value["records"]), let attachments = count(value["attachments"]), let bytes = count(value["bytes"]),
            case .string(let crc32)? = value["crc32"], let payloads = count(input?["payloads"]),
            case .string(let inputDigest)? = input?["sha256"], case .bool(let whole)? = input?["whole"],
            case .string(let namesDigest)? = input?["names_sha256"], let first = input?["first"],
            first == .null || first.stringValue != nil,
            case .string(let finishedText)? = value["finished"], let finished = Timestamp(iso8601: finishedText)
        else { throw ResultBundleError("an end line without its counts, input, time or check", line: line) }
        let read = Input(payloads: payloads, sha256: inputDigest, whole: whole, namesSHA256: namesDigest, firstName: first.stringValue)
        return End(records: records, attachments: attachments, input: read, finished: finished, bytes: bytes, crc32: crc32)
    }

    /// A count: a JSON number of ASCII digits only, at most 15 of them.
    package static func count(_ value: JSONValue?) -> Int? {
        guard case .number(let text)? = value else { return nil }
        return number(Array(text.utf8)[...])
    }

    /// Digits only, 1 to 15 of them.
    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// A record's line, parsed whole (exactly `position`, as its light read found it, and `data`), with
    /// the line after it, its result line, taken as it is.
    static func record(_ line: [UInt8], number: Int, resultLine: [UInt8]) throws(ResultBundleError) -> Record {
        let value = try parse(line, number: number)
        guard case .object(let members) = value, members.count == 2, members[0].key == "position", members[1].key == "data",
            let position = count(members[0].value)
        else { throw ResultBundleError("a record that is not {\"position\":N,\"data\":…}", line: number) }
        guard isResultLine(resultLine) else { throw ResultBundleError("a record's line that is not one JSON object", line: number + 1) }
        return Record(position: position, data: members[1].value, line: resultLine)
    }

    /// An attachment's line, parsed whole: its `data`.
    static func attachment(_ line: [UInt8], number: Int, index: Int) throws(ResultBundleError) -> JSONValue {
        let value = try parse(line, number: number)
        guard case .object(let members) = value, members.count == 2, members[0].key == "attachment", members[1].key == "data",
            count(members[0].value) == index
        else { throw ResultBundleError("an attachment that is not {\"attachment\":\(index),\"data\":…}", line: number) }
        return members[1].value
    }

    static func parse(_ line: [UInt8], number: Int) throws(ResultBundleError) -> JSONValue {
        do throws(JSONParser.SyntaxError) {
            return try JSONParser.parse(line)
        } catch {
            throw ResultBundleError("not JSON: \(error.message) at column \(error.column)", line: number)
        }
    }
}
