import Testing

@testable import CarillonExtensionCore

/// Where recorded time runs out, from tables: the earlier of the budget and time-will-expire, the
/// steps reached by then, whether the handshake and the head had come, and the body bytes by then.
@Suite struct RecordedDeadlineTests {
    @Test(arguments: [
        (Duration.seconds(20), Duration?.some(.seconds(30)), RecordedDeadline(kind: .budget, limit: 20_000_000)),
        (.milliseconds(500), .some(.milliseconds(300)), RecordedDeadline(kind: .expiry, limit: 300_000)),
        (.milliseconds(500), .some(.milliseconds(500)), RecordedDeadline(kind: .budget, limit: 500_000)),
        (.milliseconds(500), nil, RecordedDeadline(kind: .budget, limit: 500_000)),
    ])
    func theEarlierLimitCounts(budget: Duration, expireAfter: Duration?, expected: RecordedDeadline) {
        #expect(RecordedDeadline(budget: budget, expireAfter: expireAfter) == expected)
    }

    /// Steps in microseconds: name looked up, connected, TLS done, first byte, total.
    static let head1500: [Int64] = [1_000, 2_000, 5_000, 1_500_000, 1_510_000]

    @Test(
        arguments: [
            // In time: nil, even ending exactly at the limit.
            (head1500, Int64(0), true, Int64(2_000_000), RecordedDeadline.Cut?.none),
            ([1_000, 2_000, 5_000, 400_000, 500_000], 0, true, 500_000, nil),
            // A 1.5 s head under 0.5 s: the handshake done, the head not come.
            (
                head1500, 0, true, 500_000,
                .some(.init(at: 500_000, microseconds: [1_000, 2_000, 5_000, 0, 500_000], handshakeDone: true, headArrived: false))
            ),
            // The earlier requests took 0.498 s: out of time during the handshake.
            (
                head1500, 498_000, true, 500_000,
                .some(.init(at: 2_000, microseconds: [1_000, 2_000, 0, 0, 2_000], handshakeDone: false, headArrived: false))
            ),
            // A reused connection needs no handshake.
            (
                [0, 0, 0, 300_000, 900_000], 0, false, 500_000,
                .some(.init(at: 500_000, microseconds: [0, 0, 0, 300_000, 500_000], handshakeDone: true, headArrived: true))
            ),
            // Past the limit before the request: nothing reached.
            (
                head1500, 600_000, true, 500_000,
                .some(.init(at: 0, microseconds: [0, 0, 0, 0, 0], handshakeDone: false, headArrived: false))
            ),
        ] as [([Int64], Int64, Bool, Int64, RecordedDeadline.Cut?)])
    func cutsWhereTheTimeRunsOut(steps: [Int64], elapsed: Int64, newConnection: Bool, limit: Int64, expected: RecordedDeadline.Cut?) {
        let deadline = RecordedDeadline(kind: .budget, limit: limit)
        #expect(deadline.cut(steps, after: elapsed, newConnection: newConnection) == expected)
    }

    @Test(arguments: [
        // Spread evenly from the first byte (0.3 s) to the end (0.9 s) without samples.
        (Int64(600_000), Int64(0), [(Double, Int)](), 500),
        (300_000, 0, [], 0),
        (1_000_000, 0, [], 1000),
        // From the samples, counted from the download's start (the request began 0.1 s in).
        (500_000, 100_000, [(350.0, 100), (550.0, 400), (700.0, 1000)], 400),
        (100_000, 100_000, [(350.0, 100)], 0),
    ])
    func countsTheBodyBytesByThen(at: Int64, elapsed: Int64, arrival: [(Double, Int)], expected: Int) {
        let steps: [Int64] = [0, 0, 0, 300_000, 900_000]
        let bytes = RecordedDeadline.bodyBytes(
            count: 1000, at: at, elapsed: elapsed, steps: steps, arrival: arrival.map { ($0.0, $0.1) })
        #expect(bytes == expected)
    }
}
