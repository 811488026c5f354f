import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A redirect's `Location` passes the payload URL's rules, with the same reason and a detail naming the hop.
@Suite struct RedirectRuleTests {
    static let from = try! ImageURL(validating: "https://cdn.example/a/b.png")

    static func next(_ location: String?, status: Int = 302, number: Int = 1) -> Result<ImageURL, Outcome> {
        RedirectRule.next(from: from, status: status, location: location, number: number, maximum: 5)
    }

    @Test(arguments: [
        ("/img/c.png", "https://cdn.example/img/c.png"),
        ("c.png?x=1", "https://cdn.example/a/c.png?x=1"),
        ("//other.example/c.png", "https://other.example/c.png"),
        ("https://other.example:8443/c", "https://other.example:8443/c"),
        ("HTTPS://Other.example/c", "HTTPS://Other.example/c"),
    ])
    func follows(location: String, target: String) throws {
        #expect(try Self.next(location).get().absoluteString == target)
    }

    @Test(
        arguments: [
            (
                "http://cdn.example/c.png",
                Outcome(
                    .insecureURL,
                    "redirect 1 (302 from 'https://cdn.example/a/b.png'): Location 'http://cdn.example/c.png' uses scheme 'http'; only https is allowed"
                )
            ),
            (
                "file:///etc/passwd",
                Outcome(
                    .insecureURL,
                    "redirect 1 (302 from 'https://cdn.example/a/b.png'): Location 'file:///etc/passwd' uses scheme 'file'; only https is allowed"
                )
            ),
            (
                "https://user:secret@cdn.example/c.png",
                Outcome(
                    .invalidURL,
                    "redirect 1 (302 from 'https://cdn.example/a/b.png'): Location 'https://user:secret@cdn.example/c.png' contains user info before the host"
                )
            ),
            (
                "//user@cdn.example/c.png",
                Outcome(
                    .invalidURL,
                    "redirect 1 (302 from 'https://cdn.example/a/b.png'): Location 'https://user@cdn.example/c.png' contains user info before the host ('//user@cdn.example/c.png' as sent)"
                )
            ),
            (
                "https://cdn.example:0/c.png",
                Outcome(
                    .invalidURL,
                    "redirect 1 (302 from 'https://cdn.example/a/b.png'): Location 'https://cdn.example:0/c.png' has an invalid port '0'")
            ),
            (
                "https://cdn.example:65536/c.png",
                Outcome(
                    .invalidURL,
                    "redirect 1 (302 from 'https://cdn.example/a/b.png'): Location 'https://cdn.example:65536/c.png' has an invalid port '65536'"
                )
            ),
            (
                "https:///c.png",
                Outcome(
                    .invalidURL,
                    "redirect 1 (302 from 'https://cdn.example/a/b.png'): Location 'https:///c.png' has no host")
            ),
            (
                "/a b.png",
                Outcome(
                    .invalidURL,
                    "redirect 1 (302 from 'https://cdn.example/a/b.png'): Location 'https://cdn.example/a b.png' contains a space ('/a b.png' as sent)"
                )
            ),
        ] as [(String, Outcome)])
    func refusesWithThePayloadURLsReasons(location: String, outcome: Outcome) {
        #expect(Self.next(location) == .failure(outcome))
    }

    @Test func aRedirectWithoutLocationIsHTTPStatus() {
        #expect(
            Self.next(nil, status: 307)
                == .failure(Outcome(.httpStatus, "redirect 1 (307 from 'https://cdn.example/a/b.png') has no Location header")))
    }

    @Test func theSixthRedirectIsOneTooMany() throws {
        #expect(try Self.next("/c", number: 5).get().absoluteString == "https://cdn.example/c")
        #expect(
            Self.next("/c", number: 6)
                == .failure(
                    Outcome(
                        .tooManyRedirects,
                        "more than 5 redirects: redirect 6 (302 from 'https://cdn.example/a/b.png') to '/c'")))
    }

    @Test(arguments: [300, 301, 302, 303, 304, 305, 306, 307, 308, 399])
    func followsOnlyTheFiveRedirectStatuses(status: Int) {
        #expect(RedirectRule.followed.contains(status) == [301, 302, 303, 307, 308].contains(status))
    }

    /// A redirect's body gets a few milliseconds to arrive after its head, none when it announces more
    /// than will ever be read.
    @Test(
        arguments: [
            (["Content-Length: 20"], 4, Duration.milliseconds(6)), ([], 0, .milliseconds(10)),
            (["Content-Length: 20"], 12, .milliseconds(-2)),
            (["Content-Length: 65536"], 0, .milliseconds(10)), (["Content-Length: 65537"], 0, .zero),
            (["Content-Length: 11534336"], 0, .zero),
        ] as [([String], Int, Duration)])
    func aRedirectBodyIsNeverWaitedFor(fields: [String], elapsed: Int, left: Duration) {
        var head = ResponseHead()
        for line in ["HTTP/1.1 302 Found"] + fields + [""] { _ = head.add(line: Substring(line + "\r\n")) }
        let decided = ContinuousClock.now
        #expect(RedirectRule.drainTime(head: head, decidedAt: decided, now: decided + .milliseconds(elapsed)) == left)
    }
}
