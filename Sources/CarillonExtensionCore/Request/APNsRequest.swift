/// An APNs request as it would be sent (SPEC §12): read from an APNs request written as text, a curl
/// command, or an FCM message (the request FCM sends for it). Whatever the input leaves open — a shell
/// variable the file never sets, the device token FCM holds — is said, never filled in.
package struct APNsRequest: Sendable, Equatable {
    /// The form the request came in, as the line's `request.form` names it.
    package enum Form: String, Sendable, Equatable {
        case apnsText = "apns-text"
        case curl
        case fcm
    }

    /// Who sends the APNs request: the input's own sender, or FCM (for an FCM message, in any form).
    package enum Sender: String, Sendable, Equatable {
        case provider
        case fcm
    }

    package var form: Form
    package var sender: Sender
    /// `:method`; nil when FCM makes the request.
    package var method: String?
    /// Scheme, host, port and `:path`; nil when FCM makes the request.
    package var target: RequestTarget?
    /// The header fields, in order, duplicates kept (APNs refuses a repeated one).
    package var headers: [HTTPField]
    /// Names of the fields FCM adds by default (its `apns-priority` and `apns-expiration`).
    package var defaultedHeaders: [String] = []
    /// The payload as sent: a curl command's data exactly, a request text's body without its final line
    /// break, the compact JSON FCM sends.
    package var body: [UInt8]
    /// The HTTP version the input asks for, when it says (`1.1` from curl's `http1.1`); nil for HTTP/2
    /// or unsaid.
    package var httpVersion: String?
    /// What the input leaves open.
    package var unresolved: [ShellExpansion.Unresolved] = []
    /// What the reader noticed that a person should know (a second curl command, `validate_only`…).
    package var notes: [String] = []
    /// For an FCM message: what FCM makes of it.
    package var fcm: FCMFindings?

    package init(
        form: Form, sender: Sender = .provider, method: String?, target: RequestTarget?, headers: [HTTPField], body: [UInt8],
        httpVersion: String? = nil
    ) {
        self.form = form
        self.sender = sender
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.httpVersion = httpVersion
    }

    /// The last field named `name` (compared without regard to ASCII case, allocating nothing), or nil.
    package func header(_ name: String) -> HTTPField? {
        headers.last { Self.sameName($0.name, name) }
    }

    /// Whether two field names are the same but for ASCII case.
    static func sameName(_ first: String, _ second: String) -> Bool {
        var left = first.utf8.makeIterator()
        var right = second.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case (let a?, let b?):
                let lowerA = a >= 0x41 && a <= 0x5A ? a | 0x20 : a
                let lowerB = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                if lowerA != lowerB { return false }
            default: return false
            }
        }
    }

    /// What in `text` the input leaves open (a placeholder standing in it), or nil when it is all known.
    package func unresolved(in text: String) -> ShellExpansion.Unresolved? {
        guard !unresolved.isEmpty else { return nil }
        // Hosts are compared lowercased: so is their placeholder.
        let lowered = text.lowercased()
        return unresolved.first { text.contains($0.source) || lowered.contains($0.source.lowercased()) }
    }
}
