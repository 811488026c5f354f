@_spi(Tooling) import CarillonExtensionCore

extension FuzzChecks {
    // MARK: - FuzzAPIAnswers

    /// `APIAnswerReader` (the read-back answers) and `SentLogLine`: every input is read or refused with
    /// a message; what is read stays within the reader's bounds, reads the same twice, and every sampled
    /// delivery takes a verdict for a line of each type without trapping.
    public static func apiAnswers(_ bytes: [UInt8]) throws(FuzzFailure) {
        var line: SentLogLine?
        do {
            line = try SentLogLine(parsing: bytes)
        } catch {
            try check(!error.message.isEmpty, "a sent-log line refused without a message")
        }
        if let line {
            try timestamp(line.event.at)
            try timestamp(line.sentAt)
        }
        switch Result(catching: { () throws(APIAnswerReader.Problem) in try APIAnswerReader.message(bytes) }) {
        case .failure(let problem):
            try check(!problem.message.isEmpty, "a message answer refused without a message")
        case .success(let message):
            try check(message.deliveries.count <= APIAnswerReader.maximumDeliveries, "more deliveries than the bound")
            try check(message.platforms.count <= 2, "a platform other than ios and android")
            try check((try? APIAnswerReader.message(bytes)) == message, "the message reads differently twice")
            let at = Timestamp(millisecondsSinceEpoch: 1_755_681_404_120)
            for delivery in message.deliveries {
                for type in EventType.allCases {
                    let probe = SentLogLine(
                        event: Event(type: type, deliveryID: DeliveryID("01937b21-0000-7000-8000-000000000000")!, at: at),
                        postedAt: at, sentAt: at.adding(.seconds(1)))
                    _ = ReadbackVerdict.judge(line ?? probe, delivery: delivery, earlier: [probe])
                }
            }
        }
        switch Result(catching: { () throws(APIAnswerReader.Problem) in try APIAnswerReader.opens(bytes) }) {
        case .failure(let problem):
            try check(!problem.message.isEmpty, "an opens answer refused without a message")
        case .success(let hours):
            try check(hours.count <= APIAnswerReader.maximumHours, "more hours than the bound")
            try check(hours.allSatisfy { $0.opened >= 0 }, "a negative count")
        }
        _ = APIAnswerReader.errorMessage(bytes)
    }
}
