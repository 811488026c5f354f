/// A HAR's entries as the ``RecordedTransfer`` a replay feeds through the same decisions as a live
/// download (``RecordedTransferSource``): each entry from the first hop on that the chain can reach (its
/// URL, or a redirect's target from an entry it reached), in start order, becomes a recorded hop, so that
/// a redirect's target is found among the entries that started after it. An entry no request of the
/// chain can ask for is left alone: its body is never read and nothing is said of it.
///
/// Only what the HAR holds goes in: the status, the header fields (pseudo-headers aside), the decoded
/// body under the cap (``HARBodyReading``), the timings and whether the connection was new. A foreign
/// HAR has no TLS facts, so no connection is recorded and the handshake stays unchecked; carillon's
/// own recording keeps its connections and the extra trust they were judged under (``HARCarillon``),
/// and each connection is judged as live.
package struct HARTransfer: Sendable {
    /// The transfer to replay.
    package var transfer: RecordedTransfer
    /// The entries that became hops, in order, by their place in the file (``RecordedTransfer/hops``' order).
    package var entries: [Int]
    /// What reading each entry's body noted (base64 without `encoding`, Latin-1, a text over the cap), by
    /// the entry's place in the file: the replay's notes for the entries that answered.
    package var notes: [Int: [String]]
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
    ///   - comparison: how URLs are compared (the recorded source's match): which entries the chain reaches.
    package init(
        archive: HARArchive, first: HAREntry, url: String, cap: Int, latin1: Bool = false, directory: String = ".",
        chain: [[UInt8]] = [], comparison: HARURLComparison = HARURLComparison()
    ) {
        let start = archive.entries.firstIndex { $0.index == first.index } ?? 0
        let origin = first.started?.millisecondsSinceEpoch ?? 0
        let reading = Reading(exporter: archive.exporter, cap: cap, latin1: latin1, directory: directory)
        var reachable: Set<String> = [comparison.comparable(url)]
        var hops: [RecordedHop] = []
        var entries: [Int] = []
        var notes: [Int: [String]] = [:]
        // A conditional 304 stands in for a URL only when the file has no other answer for it.
        let answered = Set(
            archive.entries.filter { ($0.response?.status ?? 0) > 0 && HARTransfer.conditionalRequest($0) == nil }.map {
                comparison.comparable($0.request.url)
            })
        for entry in archive.entries[start...] {
            let key = comparison.comparable(entry.request.url)
            guard entry.index == first.index || reachable.contains(key) else { continue }
            if entry.index != first.index, HARTransfer.conditionalRequest(entry) != nil, answered.contains(key) { continue }
            // The relaxed request made again for the first one answers under the same URL.
            let again = HARHopFinder.isRelaxed(entry) && entry.request.url == first.request.url
            let hopURL = entry.index == first.index || again ? url : entry.request.url
            let offset = max(0, (entry.started?.millisecondsSinceEpoch ?? origin) - origin)
            var said: [String] = []
            hops.append(reading.hop(entry, url: hopURL, offset: offset, notes: &said))
            entries.append(entry.index)
            if !said.isEmpty { notes[entry.index] = said }
            if let location = entry.response?.header("Location") ?? entry.response?.redirectURL {
                reachable.insert(comparison.comparable(URLReference.resolve(location, against: hopURL)))
            }
        }
        var connections = chain.isEmpty ? archive.carillon?.connections ?? [] : []
        if !chain.isEmpty {
            let host = URLReference.split(url).authority?.lowercased()
            connections = [RecordedConnection(id: HARTransfer.suppliedChain, chain: chain)]
            for index in hops.indices where URLReference.split(hops[index].url).authority?.lowercased() == host {
                hops[index].connection = HARTransfer.suppliedChain
                if index == 0 { hops[index].newConnection = true }
            }
        }
        transfer = RecordedTransfer(hops: hops, connections: connections, called: "the HAR")
        transfer.recordedSecurity = archive.carillon?.recordedSecurity
        transfer.trust = archive.carillon?.options?.trust ?? []
        self.entries = entries
        self.notes = notes
    }

    /// How one entry becomes a hop: the exporter, the cap and where bodies in files are.
    private struct Reading {
        var exporter: HARExporter
        var cap: Int
        var latin1: Bool
        var directory: String

        /// `entry` as a hop requested as `url`, `offset` milliseconds after the first started; what
        /// reading its body noted goes to `notes`.
        func hop(_ entry: HAREntry, url: String, offset: Int64, notes: inout [String]) -> RecordedHop {
            let microseconds = entry.carillon?.microseconds ?? entry.timings.cumulativeMicroseconds
            let endMilliseconds = Int(min(offset + microseconds[4] / 1000, Int64(Int32.max)))
            let newConnection = entry.timings.connect != nil
            let recordedEnd = entry.carillon?.end
            if let conditional = HARTransfer.conditionalRequest(entry) {
                // What the server would have sent an unconditional request is not in the file.
                let words =
                    "\(HARBodyReading.describe(entry)) is a 304 answering a conditional request (\(conditional)); the extension's"
                    + " first request is unconditional, and the HAR holds no full answer for it"
                return RecordedHop(
                    url: url, httpVersion: entry.response?.message.httpVersion, remote: HARTransfer.remote(entry),
                    connection: entry.connection, newConnection: newConnection, statusLine: "", body: .absent(why: words),
                    end: RecordedHop.End(curlCode: 7, message: words, unanswered: words), microseconds: microseconds,
                    endMilliseconds: endMilliseconds)
            }
            guard let response = entry.response, response.status > 0 else {
                // carillon's own entry says how the request ended (a refused handshake): that is the answer.
                // Another exporter's says only its own words, and the download ends undetermined on them.
                let unanswered = entry.hints.error ?? "\(HARBodyReading.describe(entry)) has status 0 and no error text"
                var hop = RecordedHop(
                    url: url, httpVersion: nil, remote: HARTransfer.remote(entry), connection: entry.connection,
                    newConnection: newConnection, statusLine: "", body: .absent(why: "no response"),
                    end: recordedEnd ?? RecordedHop.End(curlCode: 7, message: unanswered, unanswered: unanswered),
                    microseconds: microseconds, endMilliseconds: endMilliseconds)
                hop.relaxedTLS = entry.carillon?.relaxedTLS == true
                return hop
            }
            let version = response.message.httpVersion ?? "1.1"
            let statusLine = "HTTP/\(version) \(response.status)" + (response.statusText.isEmpty ? "" : " \(response.statusText)")
            var hop = RecordedHop(
                url: url, httpVersion: response.message.httpVersion, remote: HARTransfer.remote(entry),
                connection: entry.connection, newConnection: newConnection, statusLine: statusLine,
                fields: response.headers, body: body(entry, notes: &notes),
                wireBytes: exporter.contentSizeIsWire ? response.content.size : response.bodySize,
                end: recordedEnd ?? RecordedHop.End(), microseconds: microseconds, endMilliseconds: endMilliseconds)
            hop.relaxedTLS = entry.carillon?.relaxedTLS == true
            hop.lastPiece = entry.carillon?.decoded?.lastPiece
            hop.arrival = (entry.carillon?.arrival ?? []).map { ArrivalSample(milliseconds: $0.milliseconds, bytes: $0.bytes) }
            hop.wire = HARWire.wire(entry, directory: directory, limit: cap + cap / 2 + 65_536)
            if let wire = hop.wire, let mismatch = HARWire.mismatch(wire, entry: entry.index) { notes.append(mismatch) }
            return hop
        }

        /// The decoded body of `entry`, under the cap.
        private func body(_ entry: HAREntry, notes: inout [String]) -> RecordedHop.Body {
            switch HARBodyReading.read(entry, exporter: exporter, cap: cap, latin1: latin1) {
            case .bytes(let bytes, let note):
                if let note { notes.append(note) }
                return .bytes(bytes)
            case .file(let name):
                return .file(path: name.hasPrefix("/") ? name : directory + "/" + name)
            case .overCap(_, let detail):
                // Just past the cap, from the text's own start: the decisions stop there, as live. carillon's
                // own body ends with the piece that passed the cap: all of it, so that piece is fed whole.
                let last = entry.carillon?.decoded?.lastPiece.flatMap { $0 <= RecordedPieces.maximumLastPiece ? $0 : nil } ?? 0
                notes.append(detail)
                return .bytes(HARTransfer.prefix(entry, cap: cap + last))
            case .missing(let why), .undetermined(let why):
                return .absent(why: why)
            }
        }
    }

    /// The conditional field of a 304's request (`If-None-Match: "v1"`, `If-Modified-Since: …`), as
    /// written: the 304 answered the browser's cache, not a request the extension makes; nil otherwise.
    package static func conditionalRequest(_ entry: HAREntry) -> String? {
        guard entry.response?.status == 304 else { return nil }
        return entry.request.headers.first { ["if-none-match", "if-modified-since"].contains($0.name.lowercased()) }
            .map { "\($0.name): \($0.value)" }
    }

    /// The id of the connection a supplied chain is recorded under.
    package static let suppliedChain = "supplied-chain"

    /// `serverIPAddress` with the URL's port (a HAR keeps no port): `ip:port`, `[ip]:port` for IPv6.
    /// carillon's own `_carillon.remote` comes first: it is exact, and kept when the handshake failed.
    static func remote(_ entry: HAREntry) -> String? {
        if let remote = entry.carillon?.remote { return remote }
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
        let wanted = Base64.maximumTextLength(forCap: cap + 1) - 4
        var significant = 0
        var end = text.utf8.startIndex
        for index in text.utf8.indices {
            if significant == wanted { break }
            let byte = text.utf8[index]
            if byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 { significant += 1 }
            end = text.utf8.index(after: index)
        }
        let bytes = (try? Base64.decode(String(text[..<end]))) ?? []
        return Array(bytes.prefix(cap + 1))
    }
}
