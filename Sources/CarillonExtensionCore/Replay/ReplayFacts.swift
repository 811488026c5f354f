/// Where a replayed verdict came from and what could not be checked: the `replay` object of a
/// replay's line, as a value (the caller renders it). Its notes speak of the line's own entries only.
package struct ReplayFacts: Sendable, Equatable {
    /// A check the replay could not make, and why.
    package struct Unchecked: Sendable, Equatable {
        package var check: String
        package var why: String

        package init(_ check: String, _ why: String) {
            self.check = check
            self.why = why
        }
    }

    /// `carillon` for carillon's own recording, `har` for any other exporter's.
    package var source: String
    /// The file, as it was named.
    package var file: String
    /// The creator's name and version.
    package var creator: String
    /// The entries that answered the chain's requests, in its order, by their place in the file.
    package var entries: [Int]
    /// The checks made, and those that could not be.
    package var checked: [String]
    package var notChecked: [Unchecked]
    /// Where the captured request was not the extension's.
    package var requestDiffers: [HARRequestComparison.Difference]
    /// What the replay noticed about its own entries, the file and the times.
    package var notes: [String]

    /// What a HAR never holds, whoever wrote it.
    static let neverInAHAR = [
        Unchecked("framing", "a HAR holds parsed headers, not the bytes received"),
        Unchecked("decoding", "a HAR body is already decoded: a coding that fails to decode cannot show"),
    ]

    /// Every check a replay can make, in the order the line lists them.
    static let checks = ["status", "redirects", "headers", "decoding", "cap", "image", "ats"]

    /// The facts of one image's replay.
    ///
    /// - Parameters:
    ///   - archive: the capture; `file`: how it was named.
    ///   - entries: the entries that answered, in the chain's order.
    ///   - notes: what the replay found to say of those entries (their bodies, the URL's other entries, the
    ///     choice among them, the trust and times used), before what the file and the exporter add.
    ///   - unchecked: what the replaying source could not judge (a connection without TLS facts or chain).
    ///   - headers: the extension's request fields; `suppliedChain`: a chain was supplied, not recorded.
    static func make(
        archive: HARArchive, file: String, entries: [HAREntry], notes: [String], unchecked: [String], headers: RequestHeaders,
        suppliedChain: Bool
    ) -> ReplayFacts {
        let own = archive.exporter == .carillon
        var notChecked = own ? [] : neverInAHAR
        if !own { notChecked.append(suppliedChain ? Unchecked("tls-version", "the HAR records no TLS version or cipher") : noTLS) }
        if own { notChecked += unchecked.map { Unchecked("tls", $0) } }
        if archive.exporter.mergesDuplicateHeaders {
            notChecked.append(Unchecked("duplicate-headers", "\(archive.exporter.displayName) merges duplicate header fields"))
        }
        let skipped = Set(notChecked.map(\.check))
        var said = archive.notes + notes
        for entry in entries { said += HARRequestComparison.notes(entry, exporter: archive.exporter) }
        if archive.exporter.isProxy {
            said.append("captured through \(archive.exporter.displayName): its TLS and HTTP version were the proxy's, not the origin's")
        }
        if suppliedChain {
            said.append("the certificate chain was supplied, not recorded: fetched later, it may not be the chain the device saw")
        }
        if !own { said.append(timesNote) }
        return ReplayFacts(
            source: own ? "carillon" : "har", file: file, creator: archive.creator, entries: entries.map(\.index),
            checked: checks.filter { !skipped.contains($0) }, notChecked: notChecked,
            requestDiffers: entries.first.map { HARRequestComparison.differences($0, extensionHeaders: headers) } ?? [],
            notes: unique(said))
    }

    /// Times from a capture are the capture network's: said on every line of another exporter's file,
    /// and on a carillon recording's when its recorded times decided the verdict.
    static let timesNote = "times are the capture network's"

    private static let noTLS = Unchecked("ats", "the HAR has no certificate chain and no TLS facts")

    /// `notes` without repeats, in order.
    private static func unique(_ notes: [String]) -> [String] {
        var seen: Set<String> = []
        return notes.filter { seen.insert($0).inserted }
    }
}
