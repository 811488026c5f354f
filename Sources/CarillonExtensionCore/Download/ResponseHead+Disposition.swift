/// What a download does with a response (SPEC §2), decided from its head alone.
extension ResponseHead {
    /// What to do with a response.
    enum Disposition: Sendable, Equatable {
        /// A 200 whose body is the image: its announced length, if any (wire bytes), and the content
        /// codings it was sent in, lowercased, in the order they were applied (identity left out).
        case image(announcedLength: Int?, codings: [String] = [])
        /// A redirect to follow (301, 302, 303, 307, 308), decided on its head: its body is never waited for.
        case redirect
        /// Refused before its body.
        case refused(Outcome)
    }

    /// The content codings `URLSession` decodes (and asks for).
    static let decodedCodings: Set<String> = ["gzip", "deflate", "br"]

    /// Decides what to do with this response, in this order: the status (a non-200 is `http-status`
    /// whatever it announces), the framing (`network`), then the codings (`content-encoding` for one
    /// `URLSession` does not decode), then the announced length against `cap` (`too-large`).
    ///
    /// The announced length is compared with the cap only for an identity body: with a content coding,
    /// `Content-Length` counts the encoded bytes, which say nothing certain about the decoded size the
    /// cap is about (a 10 MiB image gzips to less, a bomb to a thousandth). Such a body is cut the
    /// moment its decoded bytes pass the cap instead.
    func disposition(cap: Int) -> Disposition {
        if RedirectRule.followed.contains(status) { return .redirect }
        guard status == 200 else { return .refused(Outcome(.httpStatus, RedirectRule.statusDetail(status))) }

        let transferCodings = listElements("Transfer-Encoding")
        if !transferCodings.isEmpty && transferCodings.map({ $0.lowercased() }) != ["chunked"] {
            let given = values("Transfer-Encoding").map { Quoting.single($0) }.joined(separator: ", ")
            return .refused(
                Outcome(.network, "malformed response: Transfer-Encoding \(given); only chunked is a transfer coding HTTP/1.1 clients take")
            )
        }
        var length: Int?
        if transferCodings.isEmpty {
            let lengths = listElements("Content-Length")
            if let bad = lengths.first(where: { !$0.allSatisfy({ $0.isASCII && $0.isNumber }) || Int($0) == nil }) {
                return .refused(Outcome(.network, "malformed response: Content-Length \(Quoting.single(bad)) is not a number"))
            }
            let distinct = lengths.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            if distinct.count > 1 {
                let given = distinct.map { Quoting.single($0) }.joined(separator: " and ")
                return .refused(Outcome(.network, "malformed response: conflicting Content-Length values \(given)"))
            }
            length = distinct.first.flatMap { Int($0) }
        }
        let codings = listElements("Content-Encoding").map { $0.lowercased() }.filter { $0 != "identity" }
        if let unknown = codings.first(where: { !ResponseHead.decodedCodings.contains($0) }) {
            let given = values("Content-Encoding").map { Quoting.single($0) }.joined(separator: ", ")
            return .refused(
                Outcome(
                    .contentEncoding,
                    "response has Content-Encoding \(given): \(Quoting.single(unknown)) is a coding URLSession does not decode (it decodes gzip, deflate and br)"
                ))
        }
        if codings.isEmpty, let length, length > cap {
            return .refused(
                Outcome(
                    .tooLarge,
                    "announced Content-Length \(length) is over the \(DownloadLimits.describe(bytes: cap)) cap; refused before the body"))
        }
        return .image(announcedLength: length, codings: codings)
    }
}
