/// The result of one shard of a campaign (SPEC §6c), as one self-describing file that `merge` joins
/// with the other shards' into what one unsharded run writes. JSON Lines, each line ending in LF:
///
/// ```
/// {"format":"carillon-nse-bundle","version":2,"tool":"0.1.0","shard":"1/4","rule":"image","runners":["GitLab"],
///  "options":{…},"settings":{"app_name":"Carillon"},"started":"2026-12-03T07:50:19.730Z"}
/// {"attachment":0,"data":{…}}                  an attached image (``BundledImage``), before the first record that names it
/// {"position":1,"data":{…}}                    a payload's record (``BundledPayload``), by its position over the whole input,
/// {"payload":"c.jsonl:2","routed":true,…}      then its line as the tool printed it, on a line of its own
/// {"summary":{…}}                              the shard's per-image summary
/// {"end":"carillon-nse-bundle","records":2,"attachments":1,"input":{"payloads":8,"sha256":"…","whole":true,
///  "names_sha256":"…","first":"c.jsonl:1"},
///  "finished":"…","bytes":1234,"crc32":"9a3f01c2"}
/// ```
///
/// The end line says how many bytes come before it and their CRC-32, so a bundle cut short at any byte
/// (no end line, half of one, or one whose count and check do not match what precedes it) is refused,
/// never merged, and so is one damaged on its way (a CRC is enough for that: whoever could forge a bundle
/// could as well recompute a digest; the input's own identity is a SHA-256). The CRC is CRC32's, folded
/// by carry-less multiplication, which reads a 100 MB bundle in a fraction of the time SHA-256 takes.
/// This type frames the lines; what a record's `data` holds is ``BundledPayload``'s, an attachment's
/// ``BundledImage``'s.
/// A record's line is one JSON object on a line of its own, so that a merge copies it out without
/// parsing it (it is checked to hold no control character, as the writer's JSON never does).
package enum ResultBundle {
    package static let format = "carillon-nse-bundle"
    /// 2: a record's attachment index inside its attachment, its source, its request and its image's digest.
    package static let version = 2
    /// The header's `settings` member that keeps the report's app name.
    static let appNameSetting = "app_name"

    /// The longest line read: an embedded image of 2 MiB is about 2.8 MB of base64.
    package static let maximumLineBytes = 4 * 1_048_576
    /// The most options (and settings) a header holds.
    package static let maximumHeaderEntries = 256

    /// What a shard says of itself before its first payload.
    package struct Header: Sendable, Equatable {
        /// The version of the tool that wrote it.
        package var tool: String
        package var shard: Shard
        package var rule: ShardRule
        /// The job runners `auto` found the shard from (none for a shard given as K/N).
        package var runners: [String]
        /// The options that change a verdict, by name, as canonical text: equal in every shard of one campaign.
        package var options: [Option]
        /// The name the report gives the app (no verdict depends on it, but a merged report shows one).
        package var appName: String?
        package var started: Timestamp

        package init(
            tool: String, shard: Shard, rule: ShardRule, runners: [String] = [], options: [Option], appName: String? = nil,
            started: Timestamp
        ) {
            self.tool = tool
            self.shard = shard
            self.rule = rule
            self.runners = runners
            self.options = options
            self.appName = appName
            self.started = started
        }

        /// The value of the option `name`, if written.
        package func option(_ name: String) -> String? { options.first { $0.name == name }?.value }
    }

    /// One option: a name and its value as text.
    package struct Option: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// What every shard read: the same for every shard of one campaign.
    package struct Input: Sendable, Equatable {
        /// Payload positions over all inputs (every shard counts all of them, taken or not).
        package var payloads: Int
        /// SHA-256 of every payload's name and bytes, in order.
        package var sha256: String
        /// False when a named input could not be listed (a directory that cannot be read, one with no payload).
        package var whole: Bool
        /// SHA-256 of the payloads' names alone, in order, and the first one: what says that two inputs
        /// differ by their names (a path given as `./c.jsonl` in one shard and `c.jsonl` in another).
        package var namesSHA256: String
        package var firstName: String?

        package init(payloads: Int, sha256: String, whole: Bool, namesSHA256: String = "", firstName: String? = nil) {
            self.payloads = payloads
            self.sha256 = sha256
            self.whole = whole
            self.namesSHA256 = namesSHA256
            self.firstName = firstName
        }
    }

    /// The end line's facts.
    package struct End: Sendable, Equatable {
        package var records: Int
        package var attachments: Int
        package var input: Input
        package var finished: Timestamp
        /// The bytes before the end line, and their CRC-32 (8 lowercase hex digits).
        package var bytes: Int
        package var crc32: String
    }

    /// One payload's result: its position over the whole input, what the writer keeps of it, and its
    /// line as the tool printed it (one JSON object, without its LF).
    package struct Record: Sendable, Equatable {
        package var position: Int
        package var data: JSONValue
        package var line: [UInt8]

        package init(position: Int, data: JSONValue, line: [UInt8]) {
            self.position = position
            self.data = data
            self.line = line
        }
    }

    /// Whether `bytes` can be a record's line: `{…}` with no control character (no byte below 0x20, no
    /// DEL), as JSON written compactly is. What a merge copies out unparsed is at least that.
    package static func isResultLine(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return false }
        return !bytes.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// The running CRC-32 of a bundle's bytes: ``crc32`` of what has been added.
    struct Check {
        private var running: UInt32 = 0xFFFF_FFFF

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            running = CRC32.update(running, bytes.assumingMemoryBound(to: UInt8.self))
        }

        var hex: String {
            let value = String(running ^ 0xFFFF_FFFF, radix: 16)
            return String(repeating: "0", count: 8 - value.count) + value
        }
    }

    /// A line's bytes as the file holds them (its LF included), for the check.
    static func line(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        JSONWriter.write(value, to: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    static func headerValue(_ header: Header) -> JSONValue {
        .object([
            (key: "format", value: .string(format)),
            (key: "version", value: .number(String(version))),
            (key: "tool", value: .string(header.tool)),
            (key: "shard", value: .string(header.shard.description)),
            (key: "rule", value: .string(header.rule.rawValue)),
            (key: "runners", value: .array(header.runners.map { .string($0) })),
            (key: "options", value: .object(header.options.map { (key: $0.name, value: .string($0.value)) })),
            (key: "settings", value: .object(header.appName.map { [(key: appNameSetting, value: .string($0))] } ?? [])),
            (key: "started", value: .string(header.started.iso8601)),
        ])
    }

    static func endValue(_ end: End) -> JSONValue {
        .object([
            (key: "end", value: .string(format)),
            (key: "records", value: .number(String(end.records))),
            (key: "attachments", value: .number(String(end.attachments))),
            (
                key: "input",
                value: .object([
                    (key: "payloads", value: .number(String(end.input.payloads))),
                    (key: "sha256", value: .string(end.input.sha256)),
                    (key: "whole", value: .bool(end.input.whole)),
                    (key: "names_sha256", value: .string(end.input.namesSHA256)),
                    (key: "first", value: end.input.firstName.map { .string($0) } ?? .null),
                ])
            ),
            (key: "finished", value: .string(end.finished.iso8601)),
            (key: "bytes", value: .number(String(end.bytes))),
            (key: "crc32", value: .string(end.crc32)),
        ])
    }
}
