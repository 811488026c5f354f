import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// An APNs request written as text (SPEC §12): a request line, pseudo-header lines, or Apple's HEADERS
/// and DATA frames; the body without its final line break.
@Suite struct APNsRequestTextTests {
    static let appleFrames = """
        HEADERS
          - END_STREAM
          + END_HEADERS
          :method = POST
          :scheme = https
          :path = /3/device/00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0
          host = api.sandbox.push.apple.com
          authorization = bearer eyAia2lkIjogIjhZTDNHM1JSWDciIH0.eyAiaXNzIjogIkM4Nk5WOUpYM0QiLCAiaWF0I
          apns-id = eabeae54-14a8-11e5-b60b-1697f925ec7b
          apns-push-type = alert
          apns-expiration = 0
          apns-priority = 10
          apns-topic = com.example.MyApp
        DATA
          + END_STREAM
            { "aps" : { "alert" : "Hello" } }

        """

    @Test func applesFramesAreARequest() throws {
        let request = try APNsRequestText.read(Array(Self.appleFrames.utf8))
        #expect(request.method == "POST")
        #expect(request.target?.host == "api.sandbox.push.apple.com")
        #expect(request.target?.path == "/3/device/00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0")
        #expect(request.header("apns-topic")?.value == "com.example.MyApp")
        #expect(request.header("apns-id")?.value == "eabeae54-14a8-11e5-b60b-1697f925ec7b")
        #expect(String(decoding: request.body, as: UTF8.self) == #"    { "aps" : { "alert" : "Hello" } }"#)
        #expect(APNsVerdict.judge(request, payload: nil).reason == "accepted")
    }

    @Test(arguments: [
        "POST /3/device/abcd HTTP/2\nHost: api.push.apple.com\napns-topic: t\n\n{\"aps\":{}}\n",
        "POST https://api.push.apple.com/3/device/abcd HTTP/2\r\napns-topic: t\r\n\r\n{\"aps\":{}}\r\n",
        ":method: POST\n:scheme: https\n:authority: api.push.apple.com\n:path: /3/device/abcd\napns-topic: t\n\n{\"aps\":{}}",
        ":method = POST\n:path = /3/device/abcd\nhost = api.push.apple.com:443\napns-topic = t\n\n{\"aps\":{}}\n",
        "\n\nPOST /3/device/abcd\nhost: api.push.apple.com\napns-topic: t\n\n{\"aps\":{}}\n",
    ])
    func eachFormReadsToTheSameRequest(text: String) throws {
        let request = try APNsRequestText.read(Array(text.utf8))
        #expect(request.method == "POST")
        #expect(request.target?.host == "api.push.apple.com")
        #expect(request.target?.path == "/3/device/abcd")
        #expect(request.header("apns-topic")?.value == "t")
        #expect(request.body == Array(#"{"aps":{}}"#.utf8), "only the final line break is dropped")
        #expect(APNsRequestText.recognises(Array(text.utf8)))
    }

    @Test func theBodyKeepsAllButItsFinalLineBreak() throws {
        let request = try APNsRequestText.read(Array("POST /3/device/ab\n\n{\n \"aps\": {}\n}\n\n".utf8))
        #expect(request.body == Array("{\n \"aps\": {}\n}\n".utf8))
    }

    @Test(arguments: [
        ("POST /3/device/ab HTTP/2\nnot a header\n\n{}", "line 2"),
        (":path: /3/device/ab\n\n{}", "no method"),
        (":method: POST\n\n{}", "no path"),
    ])
    func aTextThatIsNotARequestSaysWhere(text: String, problem: String) {
        let error = #expect(throws: RequestProblem.self) { try APNsRequestText.read(Array(text.utf8)) }
        #expect(error?.message.contains(problem) == true, "\(String(describing: error))")
    }

    @Test(arguments: ["{\"aps\":{}}", "curl -d x https://h", "Post /3/device/x", "GET", "hello world", ""])
    func otherTextIsNotARequestText(text: String) {
        #expect(!APNsRequestText.recognises(Array(text.utf8)))
    }

    @Test func anHTTPVersionOtherThanTwoIsKept() throws {
        #expect(try APNsRequestText.read(Array("POST /3/device/ab HTTP/1.1\n\n{}".utf8)).httpVersion == "1.1")
        #expect(try APNsRequestText.read(Array("POST /3/device/ab HTTP/2\n\n{}".utf8)).httpVersion == nil)
    }
}
