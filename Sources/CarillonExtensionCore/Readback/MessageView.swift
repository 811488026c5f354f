/// A message (campaign) as `GET /v1/messages/{id}` answers it (SPEC §10), read by ``APIAnswerReader``.
package struct MessageView: Sendable, Equatable {
    /// The message's id.
    package var id: String
    /// `outcomes.opened`: deliveries with a reported open across the whole campaign, including those
    /// outside the sampled ``deliveries``.
    package var opened: Int
    /// `platforms.ios` and `platforms.android`, in that order (only deliveries that recorded a platform).
    package var platforms: [(name: String, counts: PlatformCounts)]
    /// The sampled deliveries (at most 50), in delivery order.
    package var deliveries: [DeliveryView]

    /// A message as read.
    package init(id: String, opened: Int, platforms: [(name: String, counts: PlatformCounts)], deliveries: [DeliveryView]) {
        self.id = id
        self.opened = opened
        self.platforms = platforms
        self.deliveries = deliveries
    }

    package static func == (lhs: MessageView, rhs: MessageView) -> Bool {
        lhs.id == rhs.id && lhs.opened == rhs.opened && lhs.deliveries == rhs.deliveries
            && lhs.platforms.map(\.name) == rhs.platforms.map(\.name) && lhs.platforms.map(\.counts) == rhs.platforms.map(\.counts)
    }

    /// The sampled delivery with `id`, or nil when it is not in the list.
    package func delivery(_ id: DeliveryID) -> DeliveryView? { deliveries.first { $0.id == id.rawValue } }
}

/// One platform's counts on a message.
package struct PlatformCounts: Sendable, Equatable {
    /// Provider acceptance (not display, not receipt).
    package var sent: Int
    /// Deliveries the provider refused.
    package var failed: Int
    /// Deliveries not yet handed over.
    package var pending: Int
    /// Deliveries with a reported open.
    package var opened: Int
    /// Every delivery of the platform.
    package var total: Int

    /// Counts as read.
    package init(sent: Int, failed: Int, pending: Int, opened: Int, total: Int) {
        self.sent = sent
        self.failed = failed
        self.pending = pending
        self.opened = opened
        self.total = total
    }
}

/// One sampled delivery of a message, with the trace's two `received_*` times.
package struct DeliveryView: Sendable, Equatable {
    /// The delivery id.
    package var id: String
    /// The device's id, or nil.
    package var deviceID: String?
    /// `sent`, `failed` or `pending`.
    package var status: String
    /// The provider's error code, or nil.
    package var errorCode: String?
    /// The first reported open's time (as stored: the device's, or the moment of receipt), or nil.
    package var openedAt: Timestamp?
    /// The first reported receipt's time (observed), or nil.
    package var receivedAt: Timestamp?
    /// When the API got that report (differs from ``receivedAt`` after an offline period), or nil.
    package var receivedReportedAt: Timestamp?

    /// A delivery as read.
    package init(
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
    package func stored(_ type: EventType) -> Timestamp? { type == .opened ? openedAt : receivedAt }
}

/// One hour of `GET /v1/messages/{id}/opens`.
package struct HourlyOpens: Sendable, Equatable {
    /// The hour's start.
    package var hour: Timestamp
    /// Opens recorded in that hour.
    package var opened: Int

    /// An hour as read.
    package init(hour: Timestamp, opened: Int) {
        self.hour = hour
        self.opened = opened
    }
}
