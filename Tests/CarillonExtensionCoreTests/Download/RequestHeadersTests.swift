import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The request's header fields (SPEC §2): URLSession's defaults, replaced by name, parsed as `--header`
/// takes them, and redacted for the trace.
@Suite struct RequestHeadersTests {
    @Test func theDefaultsAreTheDevicesRequest() {
        #expect(
            RequestHeaders.iPhone.lines == [
                "User-Agent: CarillonNotificationService/\(CarillonVersion.current) CFNetwork/3826.600.41 Darwin/24.6.0",
                "Accept: */*", "Accept-Language: en-US,en;q=0.9", "Accept-Encoding: gzip, deflate, br",
            ])
    }

    @Test(
        arguments: [
            (["user-agent: A"], ["user-agent: A", "Accept: */*", "Accept-Language: L", "Accept-Encoding: gzip, deflate, br"]),
            (["ACCEPT-ENCODING: gzip"], ["User-Agent: U", "Accept: */*", "Accept-Language: L", "ACCEPT-ENCODING: gzip"]),
            (
                ["X-A: 1", "x-a: 2"],
                ["User-Agent: U", "Accept: */*", "Accept-Language: L", "Accept-Encoding: gzip, deflate, br", "x-a: 2"]
            ),
        ] as [([String], [String])])
    func aNameGivenReplacesItsDefault(extra: [String], lines: [String]) throws {
        let fields = try extra.map { try RequestHeaders.parse($0).get() }
        #expect(RequestHeaders(userAgent: "U", acceptLanguage: "L", extra: fields).lines == lines)
    }

    @Test(
        arguments: [
            ("X-Debug: 1", "X-Debug", "1"), ("X-Empty:", "X-Empty", ""), ("Name:  spaced value \t", "Name", "spaced value"),
            ("Accept:image/*", "Accept", "image/*"),
        ])
    func parsesAHeaderField(text: String, name: String, value: String) throws {
        #expect(try RequestHeaders.parse(text).get() == .init(name: name, value: value))
    }

    @Test(
        arguments: [
            ("no colon", "has no ':' between a name and a value"), (": value", "has an empty name"),
            ("Bad Name: 1", "has a name that is not an HTTP token"), ("Näme: 1", "has a name that is not an HTTP token"),
            ("X-A: 1\r\nX-B: 2", "has a CR, LF or NUL in its value"),
        ])
    func refusesWhatIsNotAHeaderField(text: String, problem: String) {
        #expect(RequestHeaders.parse(text) == .failure(.init(text: text, problem: problem)))
    }

    @Test func theTraceNeverShowsASecret() {
        let headers = RequestHeaders(extra: [
            .init(name: "authorization", value: "Bearer x"), .init(name: "Cookie", value: "a=b"),
            .init(name: "Proxy-Authorization", value: "Basic y"), .init(name: "X-Key", value: "shown"),
        ])
        #expect(
            headers.redacted.dropFirst(4).map { "\($0.name): \($0.value)" } == [
                "authorization: (redacted)", "Cookie: (redacted)", "Proxy-Authorization: (redacted)", "X-Key: shown",
            ])
    }
}
