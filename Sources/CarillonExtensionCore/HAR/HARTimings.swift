/// An entry's `timings`: durations in milliseconds of each step, −1 (nil here) where a step did not
/// apply. `ssl` is part of `connect`, as the HAR format says.
package struct HARTimings: Sendable, Equatable {
    /// `blocked`: queued before anything else.
    package var blocked: Double?
    /// `dns`: the name lookup.
    package var dns: Double?
    /// `connect`: the TCP connection, TLS included.
    package var connect: Double?
    /// `ssl`: the TLS handshake (within `connect`).
    package var ssl: Double?
    /// `send`: sending the request.
    package var send: Double?
    /// `wait`: waiting for the first byte.
    package var wait: Double?
    /// `receive`: reading the response.
    package var receive: Double?

    /// Durations; nil for a step that did not apply.
    package init(
        blocked: Double? = nil, dns: Double? = nil, connect: Double? = nil, ssl: Double? = nil, send: Double? = nil,
        wait: Double? = nil, receive: Double? = nil
    ) {
        self.blocked = blocked
        self.dns = dns
        self.connect = connect
        self.ssl = ssl
        self.send = send
        self.wait = wait
        self.receive = receive
    }

    /// The trace's cumulative microseconds, as libcurl reports them: name looked up, connected, TLS
    /// done, first byte, total. A step that did not apply adds nothing (a reused connection's `connect`
    /// is −1), so it takes the time before it, as libcurl's counters do.
    ///
    /// `dns` = blocked + dns; `connect` = that + (connect − ssl); `tls` = that + ssl;
    /// `first byte` = that + send + wait; `total` = that + receive.
    package var cumulativeMicroseconds: [Int64] {
        func part(_ value: Double?) -> Double { max(0, value ?? 0) }
        let ssl = part(self.ssl)
        let dns = part(blocked) + part(self.dns)
        let connect = dns + max(0, part(self.connect) - ssl)
        let tls = connect + ssl
        let firstByte = tls + part(send) + part(wait)
        let total = firstByte + part(receive)
        return [dns, connect, tls, firstByte, total].map { Int64(min($0, 1e12) * 1000) }
    }
}
