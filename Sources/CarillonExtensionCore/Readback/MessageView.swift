/// A message (campaign) as `GET /v1/messages/{id}` answers it (SPEC §10), read by ``APIAnswerReader``.
@_spi(Tooling) public struct MessageView: Sendable, Equatable {
    /// The message's id.
    public var id: String
    /// `outcomes.opened`: deliveries with a reported open across the whole campaign, including those
    /// outside the sampled ``deliveries``.
    public var opened: Int
    /// `platforms.ios` and `platforms.android`, in that order (only deliveries that recorded a platform).
    public var platforms: [(name: String, counts: PlatformCounts)]
    /// The sampled deliveries (at most 50), in delivery order.
    public var deliveries: [DeliveryView]

    /// A message as read.
    public init(id: String, opened: Int, platforms: [(name: String, counts: PlatformCounts)], deliveries: [DeliveryView]) {
        self.id = id
        self.opened = opened
        self.platforms = platforms
        self.deliveries = deliveries
    }

    public static func == (lhs: MessageView, rhs: MessageView) -> Bool {
        lhs.id == rhs.id && lhs.opened == rhs.opened && lhs.deliveries == rhs.deliveries
            && lhs.platforms.map(\.name) == rhs.platforms.map(\.name) && lhs.platforms.map(\.counts) == rhs.platforms.map(\.counts)
    }

    /// The sampled delivery with `id`, or nil when it is not in the list.
    public func delivery(_ id: DeliveryID) -> DeliveryView? { deliveries.first { $0.id == id.rawValue } }
}

/// One platform's counts on a message.
@_spi(Tooling) public struct PlatformCounts: Sendable, Equatable {
    /// Provider acceptance (not display, not receipt).
    public var sent: Int
    /// Deliveries the provider refused.
    public var failed: Int
    /// Deliveries not yet handed over.
    public var pending: Int
    /// Deliveries with a reported open.
    public var opened: Int
    /// Every delivery of the platform.
    public var total: Int

    /// Counts as read.
    public init(sent: Int, failed: Int, pending: Int, opened: Int, total: Int) {
        self.sent = sent
        self.failed = failed
        self.pending = pending
        self.opened = opened
        self.total = total
    }
}

/// One sampled delivery of a message, with the trace's two `received_*` times.
@_spi(Tooling) public struct DeliveryView: Sendable, Equatable {
    /// The delivery id.
    public var id: String
    /// The device's id, or nil.
    public var deviceID: String?
    /// `sent`, `failed` or `pending`.
    public var status: String
    /// The provider's error code, or nil.
    public var errorCode: String?
    /// The first reported open's time (as stored: the device's, or the moment of receipt), or nil.
    public var openedAt: Timestamp?
    /// The first reported receipt's time (observed), or nil.
    public var receivedAt: Timestamp?
    /// When the API got that report (differs from ``receivedAt`` after an offline period), or nil.
    public var receivedReportedAt: Timestamp?

    /// A delivery as read.
    public init(
        id: String, deviceID: String?, status: String, errorCode: String?, openedAt: Timestamp?, receivedAt: Timestamp?,
        receivedReportedAt: Timestamp?
    ) {
        self.id = id
        self.deviceID = deviceID
        self.status = status
        self.errorCode = errorCode
        self.openedAt = openedAt
        self.receivedAt = receivedAt
        self.receivedReportedAt = receivedReportedAt
    }

    /// The stored time for an event of `type`: `opened_at` or `received_at`.
    public func stored(_ type: EventType) -> Timestamp? { type == .opened ? openedAt : receivedAt }
}

/// One hour of `GET /v1/messages/{id}/opens`.
@_spi(Tooling) public struct HourlyOpens: Sendable, Equatable {
    /// The hour's start.
    public var hour: Timestamp
    /// Opens recorded in that hour.
    public var opened: Int

    /// An hour as read.
    public init(hour: Timestamp, opened: Int) {
        self.hour = hour
        self.opened = opened
    }
}
