/// What FCM makes of an HTTP v1 message, beside the APNs request it sends for it.
package struct FCMFindings: Sendable, Equatable {
    /// FCM's refusal (400 `INVALID_ARGUMENT`), in its words where they are known; nil when it accepts.
    package var refusal: String?
    /// Fields FCM passes to APNs as written that iOS does not read as meant (`aps.mutableContent`).
    package var passedRaw: [String] = []
    /// `validate_only`: FCM checks the message and sends nothing.
    package var validateOnly = false

    package init(refusal: String? = nil, passedRaw: [String] = [], validateOnly: Bool = false) {
        self.refusal = refusal
        self.passedRaw = passedRaw
        self.validateOnly = validateOnly
    }
}
