/// The redirect rules of SPEC §2, as pure functions: which statuses are followed, and whether a
/// `Location` gives an acceptable next URL.
enum RedirectRule {
    /// The statuses followed (as URLSession does); any other 3xx is `http-status`.
    static let followed: Set<Int> = [301, 302, 303, 307, 308]

    /// How much of a redirect's body is read (and discarded) at most; it never counts against the cap.
    static let maximumBodyBytes = 65_536

    /// How long a short redirect body still in flight after its head may take to arrive (so that the
    /// connection can be reused): far below anything a person or a budget notices.
    static let drainMilliseconds = 10

    /// What is left of the time a redirect's body may take to arrive, from its head's `decidedAt`:
    /// nothing when it announces more than ``maximumBodyBytes`` (it will never be read whole).
    static func drainTime(head: ResponseHead, decidedAt: ContinuousClock.Instant, now: ContinuousClock.Instant = .now) -> Duration {
        let lengths = head.listElements("Content-Length").compactMap { Int($0) }
        if let length = lengths.max(), length > maximumBodyBytes { return .zero }
        return decidedAt + .milliseconds(drainMilliseconds) - now
    }

    /// The detail of a final status that is not 200.
    static func statusDetail(_ status: Int) -> String {
        if (300..<400).contains(status) {
            return "final response status \(status), expected 200 (only 301, 302, 303, 307 and 308 are followed)"
        }
        return "final response status \(status), expected 200"
    }

    /// The URL that redirect number `number` (1 for the first) leads to, or why it must not be followed.
    ///
    /// The `Location` is resolved against `current` (RFC 3986 §5.2) and must pass ``ImageURL``'s rules;
    /// a hop that fails them gives the reason a payload URL would, with a detail naming the hop.
    ///
    /// - Parameters:
    ///   - current: the URL that answered with the redirect.
    ///   - status: its status (one of ``followed``).
    ///   - location: its `Location` header, nil when it had none.
    ///   - number: the redirect's number in the chain, from 1.
    ///   - maximum: how many redirects are followed at most.
    static func next(
        from current: ImageURL, status: Int, location: String?, number: Int, maximum: Int
    ) -> Result<ImageURL, Outcome> {
        let hop = "redirect \(number) (\(status) from \(Quoting.single(current.absoluteString)))"
        guard let location, !location.isEmpty else {
            return .failure(Outcome(.httpStatus, "\(hop) has no Location header"))
        }
        guard number <= maximum else {
            return .failure(Outcome(.tooManyRedirects, "more than \(maximum) redirects: \(hop) to \(Quoting.single(location))"))
        }
        let target = URLReference.resolve(location, against: current.absoluteString)
        do {
            return .success(try ImageURL(validating: target, naming: "Location"))
        } catch {
            let shown = target == location ? "" : " (\(Quoting.single(location)) as sent)"
            return .failure(Outcome(error.reason, "\(hop): \(error.detail)\(shown)"))
        }
    }
}
