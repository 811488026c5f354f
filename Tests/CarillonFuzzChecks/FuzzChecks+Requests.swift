@_spi(Tooling) import CarillonExtensionCore

extension FuzzChecks {
    // MARK: - FuzzCurlCommand

    /// The shell-quoting reader and the request readers on a stranger's text (SPEC §12): the reader
    /// gives a payload, a request or a problem with a message, the same twice; a script splits into
    /// commands whose lines are in order and within the input; what the variables add stays within
    /// their bound; a request is judged without trapping, its verdict one of Apple's with its status.
    /// And (on a quarter of the inputs) the quoting round trip: the input's NUL-separated pieces, each single-quoted as a shell
    /// quotes them (`'` as `'\''`), read back as exactly those words.
    /// `everyPart`: the sampled parts on every input too, as the regression test runs them.
    public static func curlCommand(_ bytes: [UInt8], everyPart: Bool = false) throws(FuzzFailure) {
        // One hash of the input picks the sampled parts, each share by bits of its own (so the shares are
        // independent): the round trip 0-1, the structure 2-3, the second read 4-6, isRequest 7-8, the judgement 9.
        let pick = everyPart ? 0 : FuzzSampling.hash(bytes)
        try request(bytes, pick: pick)
        if pick & 3 == 0 { try quotingRoundTrip(bytes) }
        // The script's own structure: the reader above lexed it already, so a sampled share.
        guard pick & 12 == 0 else { return }
        let lines = bytes.count { $0 == 0x0A } + 1
        switch Result(catching: { () throws(ShellProblem) in try ShellScript.parse(bytes) }) {
        case .failure(let error):
            try check(
                !error.message.isEmpty && error.line >= 1 && error.line <= lines, "a shell problem without a message or a line: \(error)")
        case .success(let script):
            try check((try? ShellScript.parse(bytes)) == script, "a script splits differently twice")
            var previous = 1
            for command in script.commands {
                try check(!command.words.isEmpty, "an empty command")
                try check(command.line >= previous && command.line <= lines, "command line \(command.line) of \(lines), after \(previous)")
                previous = command.line
            }
            if let commands = try? ShellExpansion.curlCommands(script) {
                let produced = commands.reduce(0) { $0 + $1.words.reduce(0) { $0 + $1.bytes.count } }
                try check(produced <= bytes.count * 3 + ShellExpansion.limit(script), "expansions past their bound: \(produced)")
            }
        }
    }

    /// Reads `bytes` as the tool does and judges what it reads. (Reading twice, and asking `isRequest`,
    /// each lex the input again: a sampled share of inputs, so that every input gets the rest at speed.)
    static func request(_ bytes: [UInt8], pick: UInt64) throws(FuzzFailure) {
        let first = Result { () throws(RequestProblem) in try RequestReader.read(bytes, files: .none) }
        if pick & 112 == 0 {
            let second = Result { () throws(RequestProblem) in try RequestReader.read(bytes, files: .none) }
            try check(first == second, "read differently twice")
        }
        let sampled = pick & 384 == 0
        switch first {
        case .failure(let problem):
            try check(!problem.message.isEmpty, "a request refused without a message")
            if sampled { try check(RequestReader.isRequest(bytes), "refused as a request, yet not taken for one") }
        case .success(.payload):
            break
        case .success(.request(let request)):
            if sampled { try check(RequestReader.isRequest(bytes), "read as a request, yet not taken for one") }
            // Judged on half the inputs (FuzzFCMMessage judges every one of its own).
            if pick & 512 == 0 { try judged(request) }
        }
    }

    /// A request's verdicts: no trap, a reason Apple's table has with its status, `shown` only when the
    /// extension runs.
    static func judged(_ request: APNsRequest) throws(FuzzFailure) {
        let payload = (try? JSONParser.parse(request.body)) ?? .object([])
        let judgement = RequestJudgement.judge(request, payload: payload, attached: true, previews: .always)
        let apns = judgement.apns
        switch apns.reason {
        case "accepted": try check(apns.status == 200 && !apns.refused, "accepted is 200 and not refused")
        case "unknown": try check(apns.status == nil, "unknown has no status")
        default:
            let reason = APNsReason(rawValue: apns.reason)
            try check(reason != nil && reason?.status == apns.status && apns.refused, "a reason Apple's table lacks: \(apns.reason)")
        }
        try check(judgement.shown == nil || judgement.extensionVerdict.runs, "an image shown where the extension does not run")
        try check(!apns.refused || !judgement.extensionVerdict.runs, "the extension runs for a refused request")
    }

    /// Words single-quoted as a shell quotes them read back as themselves: the lexer's words after
    /// `curl`, each all literal (no expansion to do).
    static func quotingRoundTrip(_ bytes: [UInt8]) throws(FuzzFailure) {
        var script: [UInt8] = []
        script.reserveCapacity(bytes.count * 2 + 8)
        script.append(contentsOf: "curl".utf8)
        var words = 0
        var start = 0
        while start <= bytes.count && words < 16 {
            let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
            script.append(contentsOf: " '".utf8)
            for byte in bytes[start..<end] {
                if byte == UInt8(ascii: "'") { script.append(contentsOf: #"'\''"#.utf8) } else { script.append(byte) }
            }
            script.append(UInt8(ascii: "'"))
            words += 1
            start = end + 1
        }
        guard let parsed = try? ShellScript.parse(script), parsed.commands.count == 1, let command = parsed.commands.first else {
            throw FuzzFailure(message: "quoted words do not read back as one command")
        }
        try check(command.words.count == words + 1, "\(words) quoted words read back as \(command.words.count - 1)")
        var from = 0
        for word in command.words.dropFirst() {
            let end = bytes[from...].firstIndex(of: 0) ?? bytes.count
            try check(word.literal.map { $0.elementsEqual(bytes[from..<end]) } == true, "a quoted word reads back otherwise")
            from = end + 1
        }
    }

    // MARK: - FuzzFCMMessage

    /// The FCM reader: any JSON it is given maps to an APNs request without trapping, the same twice;
    /// its payload is compact JSON that writes back to itself; FCM's defaults are there when the message
    /// gives no header of their name; a message FCM takes has exactly one target; FCM makes the request,
    /// so APNs' path, method and token checks never refuse it; the request is judged as any other.
    public static func fcmMessage(_ bytes: [UInt8]) throws(FuzzFailure) {
        guard let value = try? JSONParser.parse(bytes) else { return }
        let request = FCMMessage.request(value)
        try check(FCMMessage.request(value) == request, "maps differently twice")
        guard let payload = try? JSONParser.parse(request.body), payload.isObject else {
            throw FuzzFailure(message: "the payload is not a JSON object: \(String(decoding: request.body, as: UTF8.self))")
        }
        try check(Array(JSONWriter.string(payload).utf8) == request.body, "the payload is not compact JSON")
        for name in ["apns-priority", "apns-expiration"] {
            try check(request.header(name) != nil, "no \(name): FCM's default is missing")
        }
        if FCMMessage.recognises(value), request.fcm?.refusal == nil {
            let targets = ["token", "topic", "condition"].filter { FCMMessage.field(value["message"], $0) != nil }
            try check(targets.count == 1, "FCM takes a message with \(targets.count) targets")
        }
        try check(request.sender == .fcm && request.method == nil && request.target == nil, "FCM's request has a method or a target")
        let verdict = APNsVerdict.judge(request, payload: payload)
        let providers: Set<String> = ["MethodNotAllowed", "BadPath", "MissingDeviceToken", "BadDeviceToken"]
        try check(!providers.contains(verdict.reason), "FCM's request refused for its path or token: \(verdict.reason)")
        try judged(request)
    }
}
