extension TransportSecurity {
    /// The outcome of a handshake libcurl failed with `curl`: the rule it broke, worded and carried as
    /// the cause, or libcurl's message alone when it names no rule.
    func handshakeOutcome(_ curl: String) -> Outcome {
        guard let rule = handshakeRule(curl) else { return Outcome(.tls, curl) }
        return Outcome(.tls, rule.detail(libcurlMessage: curl), cause: .transportSecurity(rule, libcurlMessage: curl))
    }
}
