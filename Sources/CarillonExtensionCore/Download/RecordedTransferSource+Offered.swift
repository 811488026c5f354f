extension RecordedTransferSource {
    /// A handshake `hop` recorded as refused before any certificate, on `connection`, judged again
    /// under this source's settings from what the server offered a request with relaxed TLS rules
    /// (``OfferedHandshake``).
    func offered(_ hop: RecordedHop, _ connection: RecordedConnection) -> OfferedHandshake.Verdict {
        let offered = transfer.connection(connection.offered)
        let answered = transfer.hops.contains { $0.relaxedTLS && $0.url == hop.url && $0.connection == offered?.id }
        let host = (try? ImageURL(validating: hop.url))?.host
        let security = host.map { transportSecurityPolicy.security(forHost: $0) } ?? transportSecurityPolicy.standard
        return OfferedHandshake.judge(
            message: hop.end.message, offered: offered, security: security, recordedSecurity: transfer.recordedSecurity,
            answered: answered)
    }
}
