/// What an input is, recognised from its content (SPEC §12): an FCM message (JSON with a `message`
/// object), an APNs request written as text, a curl command, or — anything else — a payload as today,
/// which the payload reader then reads (or refuses, as it always has).
package enum RequestReader {
    /// An input, read.
    package enum Reading: Sendable, Equatable {
        /// A payload file: its bytes are the payload.
        case payload
        /// A request: its body is the payload.
        case request(APNsRequest)
    }

    /// The host FCM's HTTP v1 API answers on: a request sent there carries an FCM message.
    package static let fcmHost = "fcm.googleapis.com"

    /// Reads `bytes`. `@file`s a curl command names are read from `files`.
    ///
    /// - Throws: ``RequestProblem`` for a request that cannot be read: a curl command with an unbalanced
    ///   quote, an option curl does not know, an `@file` refused; a request text without a method; a body
    ///   FCM cannot parse.
    package static func read(_ bytes: [UInt8], files: RequestFiles) throws(RequestProblem) -> Reading {
        switch firstByte(bytes) {
        case UInt8(ascii: "{")?, UInt8(ascii: "[")?:
            guard mayBeFCM(bytes), let value = try? JSONParser.parse(bytes.starts(with: bom) ? bytes.dropFirst(3) : bytes[...]),
                FCMMessage.recognises(value)
            else { return .payload }
            return .request(FCMMessage.request(value))
        case nil:
            return .payload
        default:
            break
        }
        if APNsRequestText.recognises(bytes) { return .request(try viaFCM(APNsRequestText.read(bytes))) }
        guard let commands = try pushCommands(bytes) else { return .payload }
        return .request(try viaFCM(curlRequest(commands, files: files)))
    }

    /// `bytes` read as a curl command whatever it aims at (what ``read(_:files:)`` does once it knows the
    /// command is a push request): how curl's own options are read, apart from recognition.
    package static func readCurl(_ bytes: [UInt8], files: RequestFiles) throws(RequestProblem) -> APNsRequest {
        let commands: [ShellExpansion.Command]
        do {
            commands = try ShellExpansion.curlCommands(try ShellScript.parse(bytes))
        } catch {
            throw RequestProblem("the curl command cannot be read: \(error)")
        }
        return try viaFCM(curlRequest(commands, files: files))
    }

    /// The script's curl commands when one of them is a push request (``PushCommand``), else nil: a
    /// script or note that uses curl for something else is not a request, and changes nothing beside
    /// the payloads. A text without "curl" in it is not split into words at all.
    ///
    /// - Throws: ``RequestProblem`` for a curl command that cannot be read and mentions a push.
    private static func pushCommands(_ bytes: [UInt8]) throws(RequestProblem) -> [ShellExpansion.Command]? {
        guard contains(bytes, "curl") else { return nil }
        let commands: [ShellExpansion.Command]
        do {
            let script = try ShellScript.parse(bytes)
            guard script.namesCurl else { return nil }
            commands = try ShellExpansion.curlCommands(script)
        } catch {
            guard error.namesCurl && PushCommand.mentions(bytes) else { return nil }
            throw RequestProblem("the curl command cannot be read: \(error)")
        }
        return commands.contains { PushCommand.aims($0.words.map(\.bytes)) } ? commands : nil
    }

    /// Whether `bytes` are a request rather than a payload, read no further than it takes to say: what a
    /// directory's `*.http`, `*.curl`, `*.sh` and `*.txt` files are taken for (a curl command that
    /// cannot be read is still one, so that its line says why).
    package static func isRequest(_ bytes: [UInt8]) -> Bool {
        switch firstByte(bytes) {
        case UInt8(ascii: "{")?:
            guard mayBeFCM(bytes), let value = try? JSONParser.parse(bytes.starts(with: bom) ? bytes.dropFirst(3) : bytes[...]) else {
                return false
            }
            return FCMMessage.recognises(value)
        case nil, UInt8(ascii: "[")?:
            return false
        default:
            if APNsRequestText.recognises(bytes) { return true }
            do {
                return try pushCommands(bytes) != nil
            } catch {
                return true
            }
        }
    }

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether `bytes` open a JSON object (after a byte order mark and white space): a payload or an FCM
    /// message, whether or not it parses — never a list of URLs.
    package static func opensObject(_ bytes: [UInt8]) -> Bool { firstByte(bytes) == UInt8(ascii: "{") }

    /// JSON's and HTTP's white space: space, tab, line feed, carriage return.
    static func isSpace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }

    /// The first byte that is not a byte order mark or white space.
    private static func firstByte(_ bytes: [UInt8]) -> UInt8? {
        var index = bytes.starts(with: bom) ? 3 : 0
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index < bytes.count ? bytes[index] : nil
    }

    /// Whether the JSON text holds `"message"` at all: a payload without it is never parsed twice.
    private static func mayBeFCM(_ bytes: [UInt8]) -> Bool { contains(bytes, "\"message\"") }

    /// Whether `needle` occurs in `bytes`: one pass, in place.
    static func contains(_ bytes: [UInt8], _ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { needle in
            bytes.withUnsafeBufferPointer { buffer in
                guard let first = needle.first, buffer.count >= needle.count else { return false }
                var index = 0
                let last = buffer.count - needle.count
                while index <= last {
                    if buffer[index] == first {
                        var matched = 1
                        while matched < needle.count && buffer[index + matched] == needle[matched] { matched += 1 }
                        if matched == needle.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }

    /// The first push request's curl command's request (a script may set variables first, fetch
    /// something first, or hold several).
    private static func curlRequest(_ commands: [ShellExpansion.Command], files: RequestFiles) throws(RequestProblem) -> APNsRequest {
        guard let command = commands.first(where: { PushCommand.aims($0.words.map(\.bytes)) }) ?? commands.first else {
            throw RequestProblem("the file names curl, but only as an argument or with words it cannot tell apart")
        }
        var request: APNsRequest
        do {
            var curl = try CurlCommand.parse(command.words)
            curl.standardInput = command.standardInput
            request = try curl.request(files: files)
        } catch {
            throw RequestProblem("the curl command on line \(command.line): \(error.message)")
        }
        if commands.count > 1 {
            request.notes.append(
                "the file holds \(commands.count) curl commands; the \(command == commands[0] ? "first" : "first push request"), on line \(command.line), is judged"
            )
        }
        return request
    }

    /// A request sent to FCM's v1 API carries an FCM message: the APNs request FCM makes for it, in the
    /// input's form, with the input's notes and open parts.
    private static func viaFCM(_ request: APNsRequest) throws(RequestProblem) -> APNsRequest {
        guard request.target?.host == fcmHost else { return request }
        let value: JSONValue
        do {
            value = try JSONParser.parse(request.body)
        } catch {
            throw RequestProblem(
                "FCM would refuse it (400 INVALID_ARGUMENT, \"Invalid JSON payload received\"): the body is not valid JSON: \(error)")
        }
        var translated = FCMMessage.request(value)
        if !FCMMessage.recognises(value) {
            let refusal = translated.fcm?.refusal ?? "the body is not an FCM message: it has no 'message' object"
            translated.fcm?.refusal = refusal
        }
        translated.form = request.form
        translated.unresolved = request.unresolved
        translated.notes = request.notes + translated.notes
        return translated
    }
}
