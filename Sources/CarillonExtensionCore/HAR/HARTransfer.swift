/// A HAR's entries as the ``RecordedTransfer`` a replay feeds through the same decisions as a live
/// download (``RecordedTransferSource``): each entry from the first hop on, in start order, becomes a
/// recorded hop, so that a redirect's target is found among the entries that started after it.
///
/// Only what the HAR holds goes in: the status, the header fields (pseudo-headers aside), the decoded
/// body under the cap (``HARBodyReading``), the timings and whether the connection was new. A foreign
/// HAR has no TLS facts, so no connection is recorded and the handshake stays unchecked; carillon's
/// own recording keeps its connections (``HARConnections``), and each new one is judged as live.
package struct HARTransfer: Sendable {
    /// The transfer to replay.
    package var transfer: RecordedTransfer
    /// The entries that became hops, in order, by their place in the file.
    package var entries: [Int]
    /// What the body reading noted (base64 without `encoding`, Latin-1), for the replay's notes.
    package var notes: [String]
    /// Hops that had no response at all (status 0), by URL, with what the exporter recorded instead
    /// (``RecordedHop/End/unanswered``).
    package var noResponse: [String: String] {
        Dictionary(transfer.hops.compactMap { hop in hop.end.unanswered.map { (hop.url, $0) } }) { first, _ in first }
    }

    /// The transfer for a download of `url` whose first request `first` answered.
    ///
    /// - Parameters:
    ///   - archive: the HAR.
    ///   - first: the entry of the first request; it is recorded under `url`, the URL the extension asks for.
    ///   - url: the URL the extension requests first.
    ///   - cap: the body cap; longer bodies are cut just past it, never decoded whole.
    ///   - latin1: read image text without an `encoding` as Latin-1.
    ///   - directory: where `content._file` names are relative to (the HAR's directory).
    ///   - chain: certificates (DER, leaf first) to judge the first host's connection by, when the HAR
    ///     has none; the first hop then opens that connection, and every hop to the same host uses it.
    package init(
        archive: HARArchive, first: HAREntry, url: String, cap: Int, latin1: Bool = false, directory: String = ".",
        chain: [[UInt8]] = []
    ) {
        let start = archive.entries.firstIndex { $0.index == first.index } ?? 0
        let origin = first.started?.millisecondsSinceEpoch ?? 0
        var hops: [RecordedHop] = []
        var entries: [Int] = []
        var notes: [String] = []
        for entry in archive.entries[start...] {
            // Every entry becomes one hop: carillon's mark of a request made again with relaxed TLS rules goes on it.
            defer { if hops.count > 0 { hops[hops.count - 1].relaxedTLS = entry.carillon?["relaxed_tls"] == .bool(true) } }
            // The relaxed request made again for the first one answers under the same URL.
            let again = HARHopFinder.isRelaxed(entry) && entry.request.url == first.request.url
            let hopURL = entry.index == first.index || again ? url : entry.request.url
            let microseconds = HARTransfer.recordedMicroseconds(entry) ?? entry.timings.cumulativeMicroseconds
            let offset = max(0, (entry.started?.millisecondsSinceEpoch ?? origin) - origin)
            let endMilliseconds = Int(min(offset + microseconds[4] / 1000, Int64(Int32.max)))
            let newConnection = entry.timings.connect != nil
            let recordedEnd = HARTransfer.recordedEnd(entry)
            guard let response = entry.response, response.status > 0 else {
                // carillon's own entry says how the request ended (a refused handshake): that is the answer.
                // Another exporter's says only its own words, and the download ends undetermined on them.
                let unanswered = entry.hints.error ?? "\(HARBodyReading.describe(entry)) has status 0 and no error text"
                hops.append(
                    RecordedHop(
                        url: hopURL, httpVersion: nil, remote: HARTransfer.remote(entry), connection: entry.connection,
                        newConnection: newConnection, statusLine: "",
                        body: .absent(why: "no response"),
                        end: recordedEnd ?? RecordedHop.End(curlCode: 7, message: unanswered, unanswered: unanswered),
                        microseconds: microseconds, endMilliseconds: endMilliseconds))
                entries.append(entry.index)
                continue
            }
            let body: RecordedHop.Body
            switch HARBodyReading.read(entry, exporter: archive.exporter, cap: cap, latin1: latin1) {
            case .bytes(let bytes, let note):
                body = .bytes(bytes)
                if let note { notes.append(note) }
            case .file(let name):
                body = .file(path: name.hasPrefix("/") ? name : directory + "/" + name)
            case .overCap(_, let detail):
                // Just past the cap, from the text's own start: the decisions stop there, as live. carillon's
                // own body ends with the piece that passed the cap: all of it, so that piece is fed whole.
                let last = HARWire.lastPiece(entry).flatMap { $0 <= RecordedPieces.maximumLastPiece ? $0 : nil } ?? 0
                body = .bytes(HARTransfer.prefix(entry, cap: cap + last))
                notes.append(detail)
            case .missing(let why), .undetermined(let why):
                body = .absent(why: why)
            }
            let version = response.message.httpVersion ?? "1.1"
            let statusLine = "HTTP/\(version) \(response.status)" + (response.statusText.isEmpty ? "" : " \(response.statusText)")
            var hop = RecordedHop(
                url: hopURL, httpVersion: response.message.httpVersion, remote: HARTransfer.remote(entry),
                connection: entry.connection, newConnection: newConnection, statusLine: statusLine,
                fields: response.headers, body: body,
                wireBytes: archive.exporter.contentSizeIsWire ? response.content.size : response.bodySize,
                end: recordedEnd ?? RecordedHop.End(), microseconds: microseconds, endMilliseconds: endMilliseconds)
            hop.lastPiece = HARWire.lastPiece(entry)
            hop.wire = HARWire.wire(entry, directory: directory, limit: cap + cap / 2 + 65_536)
            if let wire = hop.wire, let mismatch = HARWire.mismatch(wire, entry: entry.index) { notes.append(mismatch) }
            hops.append(hop)
            entries.append(entry.index)
        }
        var connections = chain.isEmpty ? HARConnections.read(archive.carillon) : []
        if !chain.isEmpty {
            let host = URLReference.split(url).authority?.lowercased()
            connections = [RecordedConnection(id: HARTransfer.suppliedChain, chain: chain)]
            for index in hops.indices where URLReference.split(hops[index].url).authority?.lowercased() == host {
                hops[index].connection = HARTransfer.suppliedChain
                if index == 0 { hops[index].newConnection = true }
            }
        }
        transfer = RecordedTransfer(hops: hops, connections: connections, called: "the HAR")
        transfer.recordedSecurity = HARConnections.recordedSecurity(archive.carillon)
        self.entries = entries
        self.notes = notes
    }

    /// How the request ended, from carillon's own `_carillon.end` (libcurl's code and words, a
    /// cancellation); nil for another exporter's entry, whose HAR does not say.
    static func recordedEnd(_ entry: HAREntry) -> RecordedHop.End? {
        guard let end = entry.carillon?["end"], let code = end["curl_code"]?.doubleValue, let curlCode = Int32(exactly: code) else {
            return nil
        }
        return RecordedHop.End(
            curlCode: curlCode, message: end["curl_message"]?.stringValue ?? "", cancelled: end["cancelled"] == .bool(true))
    }

    /// The cumulative timings carillon keeps beside HAR's durations (`_carillon.timings_ms`), in
    /// microseconds, 0 for a step not reached (HAR's durations cannot say that a first byte never came);
    /// nil for another exporter's entry.
    static func recordedMicroseconds(_ entry: HAREntry) -> [Int64]? {
        guard let timings = entry.carillon?["timings_ms"], timings.isObject else { return nil }
        return ["dns", "connect", "tls", "first_byte", "total"].map { key in
            guard let milliseconds = timings[key]?.doubleValue, milliseconds.isFinite, milliseconds >= 0, milliseconds < 1e12 else {
                return 0
            }
            return Int64((milliseconds * 1000).rounded())
        }
    }

    /// The id of the connection a supplied chain is recorded under.
    package static let suppliedChain = "supplied-chain"

    /// `serverIPAddress` with the URL's port (a HAR keeps no port): `ip:port`, `[ip]:port` for IPv6.
    /// carillon's own `_carillon.remote` comes first: it is exact, and kept when the handshake failed.
    static func remote(_ entry: HAREntry) -> String? {
        if let remote = entry.carillon?["remote"]?.stringValue, !remote.isEmpty { return remote }
        guard var address = entry.serverIPAddress else { return nil }
        if address.hasPrefix("[") && address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        let authority = URLReference.split(entry.request.url).authority ?? ""
        var port = "443"
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            let digits = authority[authority.index(after: colon)...]
            if !digits.isEmpty, digits.allSatisfy(\.isNumber) { port = String(digits) }
        }
        return address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }

    /// The first bytes of an over-cap base64 body, one more than the cap at most: decoded from a prefix
    /// of the text, never from all of it.
    static func prefix(_ entry: HAREntry, cap: Int) -> [UInt8] {
        guard let text = entry.response?.content.text else { return [] }
        guard entry.response?.content.encoding?.lowercased() == "base64" else { return Array(text.utf8.prefix(cap + 1)) }
        let wanted = HARBase64.maximumTextLength(forCap: cap + 1) - 4
        var significant = 0
        var end = text.utf8.startIndex
        for index in text.utf8.indices {
            if significant == wanted { break }
            let byte = text.utf8[index]
            if byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 { significant += 1 }
            end = text.utf8.index(after: index)
        }
        let bytes = (try? HARBase64.decode(String(text[..<end]))) ?? []
        return Array(bytes.prefix(cap + 1))
    }
}
