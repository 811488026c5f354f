@_spi(Tooling) import CarillonExtensionCore

/// How a recording marks the request made again with relaxed TLS rules after a handshake was refused
/// for its protocol or cipher suite (Documentation/Replay.md, "A refused handshake, asked again"):
/// its entries carry `_carillon.relaxed_tls: true`, its connections (`r1`...) too, and the refused
/// connection names the first of them as `offered`.
enum RelaxedTLSEntries {
    /// `entry` (a HAR entry with a `_carillon` object) marked `relaxed_tls: true`.
    static func marked(_ entry: JSONValue) -> JSONValue {
        guard case .object(let members) = entry else { return entry }
        return .object(
            members.map { member in
                guard member.key == "_carillon", case .object(let fields) = member.value else { return member }
                return (member.key, .object(fields + [("relaxed_tls", .bool(true))]))
            })
    }

    /// `log._carillon.connections`: the live ones (the refused one with `offered`), then the relaxed
    /// request's, marked.
    static func connections(_ live: RecordedTransfer, relaxed: RecordedTransfer?) -> [JSONValue] {
        let own = live.connections.map { connection in
            adding("offered", connection.offered.map { .string($0) }, to: HAREntryWriter.connection(connection))
        }
        let asked = (relaxed?.connections ?? []).map { adding("relaxed_tls", .bool(true), to: HAREntryWriter.connection($0)) }
        return own + asked
    }

    private static func adding(_ key: String, _ value: JSONValue?, to object: JSONValue) -> JSONValue {
        guard let value, case .object(let members) = object else { return object }
        return .object(members + [(key, value)])
    }
}
