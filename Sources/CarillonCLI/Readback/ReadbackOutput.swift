@_spi(Tooling) import CarillonExtensionCore

/// What `readback` prints: JSON Lines (each with a `kind`: `message`, `delivery`, `verdict`, `opens`)
/// or text, with the opens drawn as bars.
struct ReadbackOutput {
    let io: ToolIO
    let format: ReadbackCommand.OutputFormat

    /// The widest bar, in cells.
    static let barWidth = 40

    private func json(_ members: [(key: String, value: JSONValue)]) {
        io.standardOutput.write(JSONWriter.string(.object(members)) + "\n")
    }

    private static func time(_ time: Timestamp?) -> JSONValue { time.map { .string($0.iso8601) } ?? .null }
    private static func text(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
    private static func number(_ value: Int) -> JSONValue { .number(String(value)) }

    /// The message line and one line per sampled delivery.
    func message(_ message: MessageView) {
        let platforms = message.platforms.map { platform in
            (
                key: platform.name,
                value: JSONValue.object([
                    (key: "sent", value: Self.number(platform.counts.sent)), (key: "failed", value: Self.number(platform.counts.failed)),
                    (key: "pending", value: Self.number(platform.counts.pending)),
                    (key: "opened", value: Self.number(platform.counts.opened)), (key: "total", value: Self.number(platform.counts.total)),
                ])
            )
        }
        switch format {
        case .json:
            json([
                (key: "kind", value: .string("message")), (key: "id", value: .string(message.id)),
                (key: "outcomes", value: .object([(key: "opened", value: Self.number(message.opened))])),
                (key: "platforms", value: .object(platforms)), (key: "deliveries", value: Self.number(message.deliveries.count)),
            ])
            for delivery in message.deliveries {
                json([
                    (key: "kind", value: .string("delivery")), (key: "id", value: .string(delivery.id)),
                    (key: "device_id", value: Self.text(delivery.deviceID)), (key: "status", value: .string(delivery.status)),
                    (key: "error_code", value: Self.text(delivery.errorCode)), (key: "opened_at", value: Self.time(delivery.openedAt)),
                    (key: "received_at", value: Self.time(delivery.receivedAt)),
                    (key: "received_reported_at", value: Self.time(delivery.receivedReportedAt)),
                ])
            }
        case .text:
            io.standardOutput.line("message \(message.id): \(message.opened) opened across the campaign")
            for platform in message.platforms {
                let c = platform.counts
                io.standardOutput.line(
                    "  \(platform.name): \(c.sent) sent, \(c.failed) failed, \(c.pending) pending, \(c.opened) opened, \(c.total) total")
            }
            io.standardOutput.line("  \(message.deliveries.count) sampled deliver\(message.deliveries.count == 1 ? "y" : "ies"):")
            for d in message.deliveries {
                io.standardOutput.line(
                    "  \(d.id) \(d.status)\(d.errorCode.map { " (\($0))" } ?? "")  opened \(d.openedAt?.iso8601 ?? "-")  received "
                        + "\(d.receivedAt?.iso8601 ?? "-")\(Self.gap(d).map { " (reported \($0) later)" } ?? "")")
            }
        }
    }

    /// "3600.5 s": how much later the API heard of a receipt than it was observed, when it did.
    static func gap(_ delivery: DeliveryView) -> String? {
        guard let observed = delivery.receivedAt, let heard = delivery.receivedReportedAt, heard != observed else { return nil }
        return RetryPolicy.seconds(.milliseconds(heard.millisecondsSinceEpoch - observed.millisecondsSinceEpoch)) + " s"
    }

    /// One verdict per sent-log line, in order, and a tally on standard error. True when any failed.
    func verdicts(_ lines: [(number: Int, line: SentLogLine)], message: MessageView) -> Bool {
        var tally: [ReadbackVerdict: Int] = [:]
        var seen: [EventKey: [SentLogLine]] = [:]
        for (number, line) in lines {
            let key = EventKey(line.event)
            let delivery = message.delivery(line.event.deliveryID)
            let verdict = ReadbackVerdict.judge(line, delivery: delivery, earlier: seen[key] ?? [])
            seen[key, default: []].append(line)
            tally[verdict, default: 0] += 1
            verdictLine(number, line, verdict, delivery, sampled: message.deliveries.count)
        }
        let words = ReadbackVerdict.allCases.compactMap { verdict in tally[verdict].map { "\($0) \(verdict.rawValue)" } }
        io.standardError.line("readback \(message.id): \(lines.count) sent events: \(words.joined(separator: ", "))")
        return tally.keys.contains { $0.isFailure }
    }

    private func verdictLine(_ number: Int, _ line: SentLogLine, _ verdict: ReadbackVerdict, _ delivery: DeliveryView?, sampled: Int) {
        let detail = ReadbackWords.detail(verdict, line: line, delivery: delivery, sampled: sampled)
        let stored = delivery?.stored(line.event.type)
        switch format {
        case .json:
            var members: [(key: String, value: JSONValue)] = [
                (key: "kind", value: .string("verdict")), (key: "line", value: Self.number(number)),
                (key: "type", value: .string(line.event.type.rawValue)),
                (key: "delivery_id", value: .string(line.event.deliveryID.rawValue)),
                (key: "verdict", value: .string(verdict.rawValue)), (key: "at", value: .string(line.event.at.iso8601)),
                (key: "stored", value: Self.time(stored)), (key: "sent_at", value: .string(line.sentAt.iso8601)),
            ]
            if line.event.type == .received {
                members += [
                    (key: "received_at", value: Self.time(delivery?.receivedAt)),
                    (key: "received_reported_at", value: Self.time(delivery?.receivedReportedAt)),
                ]
            }
            members.append((key: "detail", value: Self.text(detail)))
            json(members)
        case .text:
            var text =
                "line \(number): \(verdict.rawValue) \(line.event.type.rawValue) \(line.event.deliveryID.rawValue) at \(line.event.at.iso8601)"
            if line.event.type == .received, let delivery, let gap = Self.gap(delivery) {
                text += "; received_at \(delivery.receivedAt?.iso8601 ?? "-"), reported \(gap) later"
            }
            if let detail { text += " — \(detail)" }
            io.standardOutput.line(text)
        }
    }

    /// The hourly curve: one JSON line, or one bar per hour.
    func opens(_ hours: [HourlyOpens]) {
        switch format {
        case .json:
            let rows = hours.map { hour in
                JSONValue.object([(key: "hour", value: .string(hour.hour.iso8601)), (key: "opened", value: Self.number(hour.opened))])
            }
            json([(key: "kind", value: .string("opens")), (key: "hours", value: .array(rows))])
        case .text:
            io.standardOutput.line("opens per hour (the first 48 hours, through the current hour):")
            guard !hours.isEmpty else {
                io.standardOutput.line("  no recorded opens")
                return
            }
            for line in Self.bars(hours) { io.standardOutput.line(line) }
        }
    }

    /// `2026-08-20 09:00 ████████ 12`: bars scaled so the largest hour is ``barWidth`` cells. Pure.
    static func bars(_ hours: [HourlyOpens]) -> [String] {
        let most = max(hours.map(\.opened).max() ?? 0, 1)
        return hours.map { hour in
            let cells = hour.opened == 0 ? 0 : max(1, hour.opened * barWidth / most)
            let label = String(hour.hour.iso8601.prefix(16)).replacing("T", with: " ")
            return "  \(label) \(String(repeating: "█", count: cells))\(cells > 0 ? " " : "")\(hour.opened)"
        }
    }
}
