// The fuzz targets' invariant checks, and a test that replays every saved fuzz input through them.
//
// This one file is compiled twice: here, as part of the test target, and in the fuzz package
// (TestAssets/Fuzz/Sources/FuzzChecks/FuzzChecks.swift is a symbolic link to it), where
// CARILLON_FUZZ_CHECKS_ONLY is defined so that only `FuzzChecks` is built. The targets and the
// regression test therefore check exactly the same things. See TestAssets/Fuzz/README.md.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
@testable import CarillonExtensionCore
#if !CARILLON_FUZZ_CHECKS_ONLY
import CarillonTestSupport
import Testing
#endif

/// A broken invariant: what a fuzz target traps on and what the regression test reports.
public struct FuzzFailure: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The invariants of every fuzz target, one function per target. Each throws ``FuzzFailure`` for a broken
/// invariant; a crash inside the code under test is a crash in both the fuzzer and the test.
public enum FuzzChecks {
    /// The fuzz targets, which are also the folder names under `Corpus/` and `Regressions/`.
    /// (`FuzzImageDecoders` compares with the reference decoders, which only the fuzz package links: its
    /// saved inputs are replayed here through the `FuzzImageVerifier` checks, and against the decoders by
    /// smoke.sh.)
    public static let targets = ["FuzzPayload", "FuzzImageVerifier", "FuzzImageDecoders", "FuzzReceipt", "FuzzEventQueueFile", "FuzzArguments"]

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFailure) {
        if !condition { throw FuzzFailure(message: message()) }
    }

    // MARK: - FuzzPayload

    /// bytes → `Payload` → `Routing.decide` → `CarillonStamp` → `ImageURL` → `NotificationContent`.
    public static func payload(_ bytes: [UInt8]) throws(FuzzFailure) {
        // The JSON layer alone: any value (not only objects) writes and re-parses to itself.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let parsed = try? JSONParser.parse(body)
        if let parsed { try jsonRoundTrip(parsed) }

        let payload: Payload
        do {
            payload = try Payload(bytes: bytes)
        } catch {
            try check(parsed == nil || parsed?.isObject == false || bytes.isEmpty,
                      "Payload refused a JSON object: \(error.message)")
            return
        }
        try check(parsed == payload.userInfo, "Payload's userInfo differs from JSONParser's value")

        // Routing: a routed payload has aps as an object, mutable-content numerically 1, a displayable alert.
        let decision = Routing.decide(payload.userInfo)
        if let decision {
            try check(decision.reason == .notMutable || decision.reason == .noAlert,
                      "routing refused with reason \(decision.reason.code)")
        } else {
            guard case .object? = payload.userInfo["aps"] else { throw FuzzFailure(message: "routed, but aps is not an object") }
            guard case .number(let text)? = payload.userInfo["aps"]?["mutable-content"], Double(text) == 1 else {
                throw FuzzFailure(message: "routed, but aps.mutable-content is not numerically 1")
            }
            switch payload.userInfo["aps"]?["alert"] {
            case .string(let text)?: try check(!text.isEmpty, "routed with an empty alert string")
            case let alert? where alert.isObject:
                try check(Routing.alertKeys.contains { alert[$0]?.stringValue?.isEmpty == false },
                          "routed with an alert object that displays nothing")
            default: throw FuzzFailure(message: "routed without an alert string or object")
            }
        }

        // The stamp: delivery id canonical, image accepted only when valid.
        let stamp = CarillonStamp(userInfo: payload.userInfo)
        if let id = stamp.deliveryID { try deliveryID(id) }
        switch stamp.image {
        case .absent:
            break
        case .url(let url):
            try imageURL(url)
        case .rejected(let outcome):
            try check(outcome.reason == .invalidURL || outcome.reason == .insecureURL,
                      "image rejected with reason \(outcome.reason.code)")
        }
        // ImageURL directly on any string the stamp could hold (also the Android string form's inner value).
        if case .string(let text)? = payload.userInfo["carillon"]?["image"] {
            if let url = try? ImageURL(validating: text) { try imageURL(url) }
        }

        // The content: a fallback delivers the original bytes unchanged.
        let content = NotificationContent(payload: payload)
        try check(content.userInfoBytes == bytes, "NotificationContent.userInfoBytes differ from the input bytes")
        try check(content.userInfo == payload.userInfo, "NotificationContent.userInfo differs from the payload")
        try check(content.attachments.isEmpty, "a new NotificationContent has attachments")
    }

    /// `JSONWriter.string(value)` re-parses to an equal value, and writing that gives the same text.
    static func jsonRoundTrip(_ value: JSONValue) throws(FuzzFailure) {
        let text = JSONWriter.string(value)
        let again: JSONValue
        do {
            again = try JSONParser.parse(Array(text.utf8))
        } catch {
            throw FuzzFailure(message: "JSONWriter output does not parse (\(error)): \(text.prefix(300))")
        }
        try check(again == value, "JSON round trip changed the value: \(text.prefix(300))")
        try check(JSONWriter.string(again) == text, "JSONWriter is not stable over a round trip")
    }

    /// A delivery id is 36 lowercase characters in the canonical form, and parses back to itself.
    static func deliveryID(_ id: DeliveryID) throws(FuzzFailure) {
        let utf8 = Array(id.rawValue.utf8)
        try check(utf8.count == 36, "DeliveryID \(id.rawValue) is not 36 bytes")
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                try check(byte == UInt8(ascii: "-"), "DeliveryID \(id.rawValue) lacks a dash at \(index)")
            } else {
                try check((UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte),
                          "DeliveryID \(id.rawValue) is not lowercase hex at \(index)")
            }
        }
        try check(DeliveryID(id.rawValue) == id && DeliveryID(id.rawValue.uppercased()) == id,
                  "DeliveryID \(id.rawValue) does not parse back to itself")
    }

    /// An accepted image URL: https in any case, a host, no '@' in the authority, nothing to escape.
    static func imageURL(_ url: ImageURL) throws(FuzzFailure) {
        let text = url.absoluteString
        try check(text.lowercased().hasPrefix("https://"), "accepted image URL without https: \(text)")
        try check(text.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value != 0x7F },
                  "accepted image URL with a space, control or non-ASCII character: \(text)")
        let afterScheme = text.dropFirst("https://".count)
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        try check(!authority.contains("@"), "accepted image URL with user info: \(text)")
        try check(!url.host.isEmpty, "accepted image URL without a host: \(text)")
        try check(authority.contains(url.host), "accepted image URL's host \(url.host) is not in its authority: \(text)")
        try check((try? ImageURL(validating: text)) == url, "ImageURL does not re-validate to itself: \(text)")
    }

    // MARK: - FuzzImageVerifier

    /// `ImageVerifier.verify(bytes:)`: an accepted type's bytes begin with its signature (a JPEG's `FF D8 FF`
    /// unless it warns of stray bytes); an image decided
    /// before its last byte (complete, or damaged where decoders stop) keeps exactly that verdict with bytes
    /// appended (trailing data is tolerated); an accepted image has at most `ImageWarnings.limit` non-empty
    /// warnings; the stream verifier the downloader uses decides exactly the same, fed in pieces of 1, 7, an
    /// input-chosen size and 4096 bytes; and, when `checkFile`, the file reader decides exactly as the
    /// in-memory one.
    public static func imageVerifier(_ bytes: [UInt8], checkFile: Bool) throws(FuzzFailure) {
        let decision = Result { () throws(Outcome) in try ImageVerifier.verify(bytes: bytes) }
        switch decision {
        case .success(let image):
            switch image.type {
            case .jpeg:
                // libjpeg skips stray bytes after SOI too, with a warning, and so does the verifier.
                try check(bytes.starts(with: [0xFF, 0xD8]), "accepted as JPEG without FF D8")
                // (Past `ImageWarnings.limit` warnings the last one only counts the rest.)
                try check(bytes.count > 2 && (bytes[2] == 0xFF || image.warnings.contains { $0.contains("stray byte") || $0.hasPrefix("and ") }),
                          "accepted as JPEG without FF D8 FF and without a stray-byte warning")
            case .png:
                try check(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "accepted as PNG without its signature")
            case .gif:
                try check(bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)),
                          "accepted as GIF without GIF87a/GIF89a")
                try check(bytes.count >= 13 + 10 + 1 + 2 + 1, "accepted as GIF with fewer bytes than one image needs")
            }
            try check(image.warnings.count <= ImageWarnings.limit && image.warnings.allSatisfy { !$0.isEmpty },
                      "accepted with warnings \(image.warnings)")
        case .failure(let outcome):
            try check(outcome.reason == (bytes.isEmpty ? .emptyBody : .unsupportedType),
                      "refused with reason \(outcome.reason.code): \(outcome.detail)")
            try check(!outcome.detail.isEmpty, "refused without a detail")
        }
        var whole = ImageStreamVerifier()
        bytes.withUnsafeBufferPointer { whole.feed($0) }
        if whole.isDecided {
            let padded = Result { () throws(Outcome) in try ImageVerifier.verify(bytes: bytes + [0x00, 0xFF, 0x3B]) }
            try check(padded == decision, "decided before its end, then with bytes appended it is decided \(padded), not \(decision)")
        }
        // Verifying while downloading must decide the same, with the same words, however the body is split.
        let oddSize = Int(bytes.first ?? 0) % 61 + 2
        for pieceSize in [1, 7, oddSize, 4096] where pieceSize == 1 || pieceSize < bytes.count {
            let streamed = ImageStreamVerifier.decide(bytes, pieceSize: pieceSize)
            try check(streamed == decision, "streamed in pieces of \(pieceSize) it is decided \(streamed), but verify(bytes:) says \(decision)")
        }
        guard checkFile else { return }
        let path = FuzzScratch.path(FuzzScratch.uniqueName("image"))
        guard FuzzScratch.writeFile(bytes, to: path) else { throw FuzzFailure(message: "cannot write \(path)") }
        defer { unlink(path) }
        let fromFile = Result { () throws(Outcome) in try ImageVerifier.verify(fileAt: path) }
        try check(fromFile == decision, "verify(fileAt:) says \(fromFile) but verify(bytes:) says \(decision)")
    }

    // MARK: - FuzzReceipt

    /// `Receipt.decode`: a decoded receipt re-encodes to bytes that decode to an equal receipt, and encoding
    /// is stable; the file name check accepts its own name.
    public static func receipt(_ bytes: [UInt8]) throws(FuzzFailure) {
        let receipt: Receipt
        do {
            receipt = try Receipt.decode(bytes)
        } catch {
            try check(!error.message.isEmpty, "a receipt refused without a message")
            return
        }
        try check(!bytes.isEmpty && bytes.count <= Receipt.maximumFileBytes && bytes.last == UInt8(ascii: "\n"),
                  "a receipt decoded from empty, oversized or unterminated bytes")
        try deliveryID(receipt.deliveryID)
        try timestamp(receipt.receivedAt)
        let encoded = receipt.encoded()
        try check(encoded.last == UInt8(ascii: "\n") && encoded.count <= Receipt.maximumFileBytes, "a bad receipt encoding")
        let again: Receipt
        do {
            again = try Receipt.decode(encoded, fileName: receipt.fileName)
        } catch {
            throw FuzzFailure(message: "a re-encoded receipt does not decode: \(error.message)")
        }
        try check(again == receipt, "receipt round trip changed it: \(receipt) became \(again)")
        try check(again.encoded() == encoded, "receipt encoding is not stable")
    }

    /// A timestamp is in range and its ISO 8601 text parses back to it.
    static func timestamp(_ time: Timestamp) throws(FuzzFailure) {
        try check(time >= Timestamp.earliest && time <= Timestamp.latest, "timestamp \(time.millisecondsSinceEpoch) out of range")
        try check(time.iso8601.utf8.count == 24, "timestamp text \(time.iso8601) is not 24 characters")
        try check(Timestamp(iso8601: time.iso8601) == time, "timestamp \(time.iso8601) does not parse back to itself")
    }

    // MARK: - FuzzEventQueueFile

    /// The event-queue file reader. The input is one or more event records, one per line (each line keeps
    /// its newline; the last may lack one). Each record is read under the name its own `type` and
    /// `delivery_id` give. A decoded event re-encodes and decodes equal; the decoded events make
    /// well-formed `POST /v1/events` batches. When `throughQueue`, the records are also written as files of
    /// a real queue directory and `EventQueue.contents` must find exactly the events decoded here, and set
    /// aside exactly the records that did not decode.
    public static func eventQueueFile(_ bytes: [UInt8], throughQueue: Bool) throws(FuzzFailure) {
        var records: [[UInt8]] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            records.append(Array(bytes[start...index]))
            start = index + 1
        }
        if start < bytes.count || bytes.isEmpty { records.append(Array(bytes[start...])) }

        var decoded: [(name: String, event: QueuedEvent)] = []
        for record in records {
            let name = claimedFileName(record)
            let queued: QueuedEvent
            do {
                queued = try QueuedEvent.decode(record, fileName: name)
            } catch {
                try check(!error.message.isEmpty, "an event record refused without a message")
                continue
            }
            try queuedEvent(queued, fileName: name)
            decoded.append((name, queued))
        }

        // Queue order, as EventQueue.contents gives it.
        let ordered = decoded.map(\.event).sorted {
            ($0.sequence, $0.event.type.rawValue, $0.event.deliveryID) < ($1.sequence, $1.event.type.rawValue, $1.event.deliveryID)
        }.map(\.event)
        try batches(ordered, maximumEvents: EventBatch.maximumEvents, checkBodies: true)
        // Smaller and out-of-range batch sizes, chosen by the input, and more than one full batch.
        let sizes = [-1, 0, 1, 2, 3, 7, 101, Int.max]
        try batches(ordered, maximumEvents: sizes[Int(bytes.first ?? 0) % sizes.count], checkBodies: false)
        if !ordered.isEmpty {
            let many = Array(repeatElement(ordered, count: 201 / ordered.count + 1).joined().prefix(201))
            try batches(many, maximumEvents: EventBatch.maximumEvents, checkBodies: false)
        }

        guard throughQueue, records.count <= 16 else { return }
        try throughEventQueue(records: records)
    }

    /// The file name a record claims: `<type>-<delivery_id>.event` from its own members, as given.
    static func claimedFileName(_ record: [UInt8]) -> String {
        guard let value = try? JSONParser.parse(record),
            case .string(let type)? = value["type"], case .string(let id)? = value["delivery_id"]
        else { return "unnamed.event" }
        return "\(type)-\(id).event"
    }

    /// A decoded event: its name is the canonical one, and it re-encodes to bytes that decode equal.
    static func queuedEvent(_ queued: QueuedEvent, fileName: String) throws(FuzzFailure) {
        try check(fileName == QueuedEvent.fileName(for: queued.event.type, queued.event.deliveryID),
                  "event decoded under the non-canonical name \(fileName)")
        try check(queued.sequence >= 0, "event decoded with a negative sequence \(queued.sequence)")
        try deliveryID(queued.event.deliveryID)
        try timestamp(queued.event.at)
        let encoded = queued.encoded()
        let again: QueuedEvent
        do {
            again = try QueuedEvent.decode(encoded, fileName: fileName)
        } catch {
            throw FuzzFailure(message: "a re-encoded event does not decode: \(error.message)")
        }
        try check(again == queued, "event round trip changed it: \(queued) became \(again)")
        try check(again.encoded() == encoded, "event encoding is not stable")
    }

    /// `EventBatch.batches(of:)`: each batch at most the limit, all events in order, and (when `checkBodies`)
    /// each body exactly `{"events":[{"type","delivery_id","at"}, …]}`.
    static func batches(_ events: [Event], maximumEvents: Int, checkBodies: Bool) throws(FuzzFailure) {
        let limit = min(max(maximumEvents, 1), EventBatch.maximumEvents)
        let batches = EventBatch.batches(of: events, maximumEvents: maximumEvents)
        try check(batches.count == (events.count + limit - 1) / limit, "\(events.count) events made \(batches.count) batches of \(limit)")
        try check(batches.allSatisfy { !$0.events.isEmpty && $0.events.count <= limit }, "a batch is empty or over \(limit) events")
        try check(batches.flatMap(\.events) == events, "batches do not keep the events and their order")
        guard checkBodies else { return }
        for batch in batches {
            let body = batch.requestBody
            guard let value = try? JSONParser.parse(Array(body.utf8)), case .object(let top) = value, top.count == 1,
                top[0].key == "events", case .array(let items) = top[0].value, items.count == batch.events.count
            else { throw FuzzFailure(message: "a request body is not {\"events\":[…]}: \(body.prefix(300))") }
            for (item, event) in zip(items, batch.events) {
                guard case .object(let members) = item, members.map(\.key) == ["type", "delivery_id", "at"],
                    members[0].value == .string(event.type.rawValue), members[1].value == .string(event.deliveryID.rawValue),
                    members[2].value == .string(event.at.iso8601)
                else { throw FuzzFailure(message: "a request body's event is not {type, delivery_id, at}: \(JSONWriter.string(item))") }
            }
            // Another parser agrees that it is JSON.
            try check((try? JSONSerialization.jsonObject(with: Data(body.utf8))) is [String: Any],
                      "JSONSerialization does not read a request body")
        }
    }

    /// Writes the records into a fresh queue directory and reads it with `EventQueue.contents`.
    static func throughEventQueue(records: [[UInt8]]) throws(FuzzFailure) {
        let directory = FuzzScratch.freshDirectory("queue")
        defer { FuzzScratch.remove(directory) }
        // A record that decodes goes under its own name (a later record of the same name replaces an earlier
        // one, as the file would); one that does not, under a name of its own.
        var good: [String: QueuedEvent] = [:]
        var corrupt = 0
        for (index, record) in records.enumerated() {
            let name = claimedFileName(record)
            let queued = try? QueuedEvent.decode(record, fileName: name)
            let fileName = queued == nil ? "corrupt-\(index).event" : name
            guard FuzzScratch.writeFile(record, to: directory + "/" + fileName) else {
                throw FuzzFailure(message: "cannot write \(fileName)")
            }
            if let queued { good[name] = queued } else { corrupt += 1 }
        }
        let contents: EventQueue.Contents
        do {
            contents = try EventQueue(directory: directory).contents()
        } catch {
            throw FuzzFailure(message: "EventQueue.contents failed: \(error)")
        }
        let expected = good.values.sorted {
            ($0.sequence, $0.event.type.rawValue, $0.event.deliveryID) < ($1.sequence, $1.event.type.rawValue, $1.event.deliveryID)
        }.map(\.event)
        try check(contents.events == expected, "EventQueue.contents found \(contents.events.count) events, expected \(expected.count)")
        try check(contents.quarantined.count == corrupt,
                  "EventQueue.contents set aside \(contents.quarantined.count) files, expected \(corrupt)")
    }

    // MARK: - FuzzArguments (the parts that need no CarillonCLI)

    /// The input split on NUL into arguments (no input: no arguments).
    public static func arguments(_ bytes: [UInt8]) -> [String] {
        guard !bytes.isEmpty else { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// What a command's option takes.
    public enum OptionValue: Equatable, Sendable {
        case none, text, directory, file
    }

    /// The subcommands' options, as the tool declares them (the fuzz target checks this table against
    /// the real declarations on its first run, so it cannot fall behind silently).
    public static let commandOptions: [String: [String: OptionValue]] = [
        "process": ["--container": .directory, "--attachments": .directory, "--ca-file": .file, "--budget": .text,
                    "--max-bytes": .text, "--expire-after": .text, "--jobs": .text, "--tls-minimum": .text,
                    "--no-forward-secrecy": .none, "--recursive": .none, "--format": .text, "--fail-on": .text,
                    "--help": .none],
        "drain": ["--container": .directory, "--queue": .directory, "--help": .none],
        "open": ["--queue": .directory, "--at": .text, "--help": .none],
        "batches": ["--queue": .directory, "--help": .none],
        // The key file is sandboxed to paths that hold no key, and FuzzArguments clears
        // CARILLON_MOBILE_KEY: every fuzzed upload ends in a usage error before any connection.
        "upload": ["--queue": .directory, "--endpoint": .text, "--key-file": .file, "--ca-file": .file,
                   "--max-attempts": .text, "--deadline": .text, "--help": .none],
    ]

    /// A command line as the tool's rules read it: option values by name, flags, positionals.
    public struct ParsedLine: Equatable, Sendable {
        public var values: [String: String] = [:]
        public var flags: Set<String> = []
        public var positionals: [String] = []

        public init(values: [String: String] = [:], flags: Set<String> = [], positionals: [String] = []) {
            self.values = values
            self.flags = flags
            self.positionals = positionals
        }
    }

    /// A model of the tool's documented rules for a subcommand's arguments: `--name VALUE` and
    /// `--name=VALUE` (split at the first `=`, whatever follows it), flags, `-h` for `--help`, `--` ending
    /// the options, `-` and anything not starting with `-` positional; nil (a usage error) for an unknown
    /// option, an option given twice, a missing value, or a value given to a flag.
    public static func modelParse(_ arguments: [String], command: String) -> ParsedLine? {
        guard let options = commandOptions[command] else { return nil }
        var parsed = ParsedLine()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let (written, inlineValue) = splitAtEquals(argument)
            let name = written == "-h" ? "--help" : written
            guard let kind = options[name], parsed.values[name] == nil, !parsed.flags.contains(name) else { return nil }
            if kind == .none {
                guard inlineValue == nil else { return nil }
                parsed.flags.insert(name)
            } else if let inlineValue {
                parsed.values[name] = inlineValue
            } else {
                guard index < arguments.count else { return nil }
                parsed.values[name] = arguments[index]
                index += 1
            }
        }
        return parsed
    }

    /// `--name=VALUE` split at its first `=` scalar (a value may start with a combining mark, which would
    /// hide the `=` from a search by `Character`).
    static func splitAtEquals(_ argument: String) -> (name: String, value: String?) {
        let scalars = argument.unicodeScalars
        guard let equals = scalars.firstIndex(of: "=") else { return (argument, nil) }
        return (String(scalars[..<equals]), String(scalars[scalars.index(after: equals)...]))
    }

    /// The one canonical spelling of a parsed command line: `--name=value` for each value, the flags,
    /// `--`, the positionals.
    public static func canonicalSpelling(_ parsed: ParsedLine) -> [String] {
        parsed.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + parsed.flags.sorted() + ["--"] + parsed.positionals
    }

    /// A payload that is routed and stamped but asks for no image, so running it never opens a connection.
    public static let sandboxPayload = Array(
        #"{"aps":{"alert":{"title":"Hello","body":"World"},"mutable-content":1},"carillon":{"delivery_id":"01937b21-0000-7000-8000-000000000001"}}"#.utf8)

    /// Makes a sandbox directory for one run of the tool: payload files, a payload directory and a receipt
    /// container with one receipt. Returns its path.
    public static func makeSandbox() -> String {
        let root = FuzzScratch.freshDirectory("args")
        _ = FuzzScratch.writeFile(sandboxPayload, to: root + "/payload.json")
        _ = FuzzScratch.writeFile(Array("[1]".utf8), to: root + "/not-object.json")
        mkdir(root + "/payloads", 0o700)
        _ = FuzzScratch.writeFile(sandboxPayload, to: root + "/payloads/a.json")
        _ = FuzzScratch.writeFile(Array("{\"aps\":".utf8), to: root + "/payloads/b.json")
        mkdir(root + "/container", 0o700)
        mkdir(root + "/container/" + ReceiptStore.directoryName, 0o700)
        let id = DeliveryID("01937b21-0000-7000-8000-000000000002")!
        let receipt = Receipt(deliveryID: id, receivedAt: Timestamp(millisecondsSinceEpoch: 1_787_217_404_120))
        _ = FuzzScratch.writeFile(receipt.encoded(), to: root + "/container/" + ReceiptStore.directoryName + "/" + receipt.fileName)
        return root
    }

    /// `arguments` with every path the tool could touch — a positional or the value of a directory or file
    /// option — replaced by a path inside `sandbox` (chosen by the original text), following the tool's
    /// parsing rules (as ``modelParse(_:command:)`` states them). Anything else is kept as it is. Empty values and `-` are kept (they are safe, and the
    /// tool has rules for them). An argument list that does not start with a subcommand is returned as is:
    /// the tool only prints help, its version or a usage error for it.
    public static func sandboxed(_ arguments: [String], in sandbox: String) -> [String] {
        guard let command = arguments.first, let options = commandOptions[command] else { return arguments }
        func pick(_ text: String, from choices: [String]) -> String {
            text.isEmpty ? "" : sandbox + "/" + choices[text.utf8.reduce(0) { $0 &+ Int($1) } % choices.count]
        }
        func replace(_ text: String, as kind: OptionValue) -> String {
            switch kind {
            case .directory: return pick(text, from: ["queue", "container", "payload.json", "new/nested"])
            case .file: return pick(text, from: ["missing.pem", "payloads"])
            case .none, .text: return text
            }
        }
        var result = [command]
        var index = 1
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.append(argument == "-" ? "-" : pick(argument, from: ["payload.json", "payloads", "missing.json", "not-object.json"]))
                continue
            }
            if argument == "--" {
                optionsEnded = true
                result.append(argument)
                continue
            }
            let (name, inlineValue) = splitAtEquals(argument)
            guard let value = inlineValue else {
                result.append(argument)
                if let kind = options[name == "-h" ? "--help" : name], kind != .none, index < arguments.count {
                    result.append(replace(arguments[index], as: kind))
                    index += 1
                }
                continue
            }
            result.append(name + "=" + replace(value, as: options[name == "-h" ? "--help" : name] ?? .text))
        }
        return result
    }

    /// The statuses the tool may exit with: success, data error, usage error.
    public static let exitStatuses: Set<Int32> = [0, 1, 64]
}

/// A per-process scratch directory for the checks that need files, removed at exit. Safe to use from
/// concurrent test cases: every name it hands out is unique in the process.
public enum FuzzScratch {
    private static let counter = Atomic<Int>(0)

    /// The scratch directory (under `$TMPDIR`), made on first use.
    public static let directory: String = {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/carillon-fuzz-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { fatalError("cannot make a scratch directory under \(base)") }
        atexit { FuzzScratch.remove(FuzzScratch.directory) }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// A name not handed out before in this process.
    public static func uniqueName(_ label: String) -> String {
        "\(label)-\(counter.add(1, ordering: .relaxed).newValue)"
    }

    public static func path(_ name: String) -> String { directory + "/" + name }

    /// A new, empty directory inside the scratch directory.
    public static func freshDirectory(_ label: String) -> String {
        let path = directory + "/" + uniqueName(label)
        mkdir(path, 0o700)
        return path
    }

    /// Writes `bytes` to `path` (created or truncated, 0600); false when it cannot.
    public static func writeFile(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Removes a file or directory tree.
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}

#if !CARILLON_FUZZ_CHECKS_ONLY

// MARK: - The regression test

@Suite struct FuzzRegressionTests {
    /// One saved input: its target and file.
    struct Input: Sendable, CustomTestStringConvertible {
        var target: String
        var path: String
        var testDescription: String { target + "/" + (path as NSString).lastPathComponent }
    }

    static let regressions = Paths.testAssets("Fuzz/Regressions")

    /// Every file under `Regressions/<target>/` (hidden files and READMEs aside).
    static let inputs: [Input] = FuzzChecks.targets.flatMap { target in
        let folder = regressions + "/" + target
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") && $0 != "README.md" }.map { Input(target: target, path: folder + "/" + $0) }
    }

    @Test func everyRegressionFolderIsATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.regressions).filter { !$0.hasPrefix(".") && $0 != "README.md" }
        #expect(Set(folders).isSubset(of: FuzzChecks.targets), "unknown folders: \(folders)")
    }

    @Test(arguments: inputs)
    func replays(_ input: Input) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input.path)))
        do {
            switch input.target {
            case "FuzzPayload": try FuzzChecks.payload(bytes)
            case "FuzzImageVerifier", "FuzzImageDecoders": try FuzzChecks.imageVerifier(bytes, checkFile: true)
            case "FuzzReceipt": try FuzzChecks.receipt(bytes)
            case "FuzzEventQueueFile":
                try FuzzChecks.eventQueueFile(bytes, throughQueue: false)
                try FuzzChecks.eventQueueFile(bytes, throughQueue: true)
            case "FuzzArguments": try Self.runTool(bytes)
            default: Issue.record("no checks for target \(input.target)")
            }
        } catch let failure as FuzzFailure {
            Issue.record("\(input.testDescription): \(failure.message)")
        }
    }

    /// CarillonCLI is not a dependency of this test target, so the arguments go through the built tool:
    /// once in the fuzz target's sandbox, and as parser probes. A probe puts `--help` right after a
    /// subcommand, so the tool only parses (and prints help, or a usage error) and never runs anything; its
    /// status says whether the parser accepts the rest, which must agree with `FuzzChecks.modelParse`, as
    /// must the canonical spelling of what the model read.
    static func runTool(_ bytes: [UInt8]) throws {
        let raw = FuzzChecks.arguments(bytes)
        let rest = Array(raw.dropFirst())
        for command in FuzzChecks.commandOptions.keys.sorted() {
            let model = FuzzChecks.modelParse(["--help"] + rest, command: command)
            let probe = try Command.run(Paths.tool, [command, "--help"] + rest)
            #expect(probe.status == (model == nil ? 64 : 0),
                    "\(command) --help \(rest): exit \(probe.status), the rules say \(model == nil ? "refuse" : "accept"); \(probe.standardError.prefix(300))")
            if let model {
                let canonical = [command] + FuzzChecks.canonicalSpelling(model)
                let again = try Command.run(Paths.tool, canonical)
                #expect(again.status == 0, "\(canonical): exit \(again.status); \(again.standardError.prefix(300))")
            }
        }

        let sandbox = FuzzChecks.makeSandbox()
        defer { FuzzScratch.remove(sandbox) }
        let arguments = FuzzChecks.sandboxed(raw, in: sandbox)
        let result = try Command.run(Paths.tool, arguments, input: Data(FuzzChecks.sandboxPayload))
        #expect(FuzzChecks.exitStatuses.contains(result.status), "exit status \(result.status); stderr: \(result.standardError.prefix(500))")
        if result.status == 64 {
            #expect(result.standardError.contains(arguments.count <= 1 && bytes.isEmpty ? "Usage:" : "for usage."),
                    "a usage error without a usage hint: \(result.standardError.prefix(500))")
        }
    }
}

#endif
