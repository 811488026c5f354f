/// Where a captured request was not the extension's, and what that means for the answer (design §5.5,
/// step 6): a CDN that varies on `Accept` or `User-Agent` answers a browser otherwise than an extension.
package enum HARRequestComparison {
    /// One header field the recorded request sent otherwise than the extension would.
    package struct Difference: Sendable, Equatable {
        /// The field's name, lowercased.
        package var header: String
        /// What the capture sent; nil when it did not send the field.
        package var recorded: String?
        /// What the extension sends; nil when it does not.
        package var extensionValue: String?
        /// The response's `Vary` names this field (or is `*`): the answer may depend on it.
        package var varies: Bool
    }

    /// The fields compared: those that change which representation a server picks.
    static let compared = ["accept", "user-agent", "accept-encoding", "accept-language"]

    /// The differences between `entry`'s request and `headers`, the extension's.
    package static func differences(_ entry: HAREntry, extensionHeaders headers: RequestHeaders) -> [Difference] {
        let vary = Set(
            (entry.response?.message.values("Vary") ?? []).flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: " \t").lowercased()
            })
        return compared.compactMap { name in
            let recorded = entry.request.header(name)
            let sent = headers.fields.first { $0.name.lowercased() == name }?.value
            guard recorded != sent, recorded != nil else { return nil }
            return Difference(header: name, recorded: recorded, extensionValue: sent, varies: vary.contains(name) || vary.contains("*"))
        }
    }

    /// Warnings about `entry` as evidence of what the extension would get.
    package static func warnings(_ entry: HAREntry) -> [String] {
        var warnings: [String] = []
        let name = "entry \(entry.index)"
        for secret in ["Cookie", "Authorization"] where entry.request.header(secret) != nil {
            warnings.append(
                "\(name)'s request carried \(secret), which an extension never sends: a server that needs it refuses the device")
        }
        if entry.response?.status == 304 {
            warnings.append(
                "\(name) is a 304 answer to a conditional request; an extension's first fetch is unconditional and would get the full answer"
            )
        }
        let advertised = (entry.request.header("Accept-Encoding") ?? "").lowercased().contains("zstd")
        let answered = (entry.response?.message.values("Content-Encoding") ?? []).contains { $0.lowercased().contains("zstd") }
        if advertised && answered {
            warnings.append(
                "\(name)'s request advertised zstd, which an extension never does: the server would likely have answered otherwise")
        }
        return warnings
    }

    /// Notes from the exporter's own fields: where an answer came from, why none arrived.
    package static func notes(_ entry: HAREntry, exporter: HARExporter) -> [String] {
        var notes: [String] = []
        let name = "entry \(entry.index)"
        if let cache = entry.hints.fromCache { notes.append("\(name) came from the browser's cache (\(cache))") }
        if let error = entry.hints.error { notes.append("\(name) recorded an error: \(error)") }
        if !entry.request.pseudoHeaders.isEmpty {
            notes.append(
                "\(name)'s HTTP/2 pseudo-header fields (\(entry.request.pseudoHeaders.map(\.name).joined(separator: ", "))) were set aside")
        }
        if let protocolName = entry.hints.securityProtocol {
            notes.append("\(name) was received over \(protocolName) (\(exporter.displayName))")
        }
        return notes
    }
}

extension StringProtocol {
    /// Without leading and trailing characters of `set`.
    fileprivate func trimmingCharacters(in set: String) -> String {
        let trimmed = drop(while: { set.contains($0) })
        return String(String(trimmed.reversed()).drop(while: { set.contains($0) }).reversed())
    }
}
