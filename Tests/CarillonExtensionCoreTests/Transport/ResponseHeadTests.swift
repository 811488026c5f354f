import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A response head read line by line as libcurl hands it over: the status, the fields, interim responses.
@Suite struct ResponseHeadTests {
    static func head(_ lines: [String]) -> ResponseHead {
        var head = ResponseHead()
        for line in lines + [""] { _ = head.add(line: Substring(line + "\r\n")) }
        return head
    }

    @Test func collectsTheStatusAndFieldsAndSkipsInterimResponses() {
        var head = ResponseHead()
        var completed: [Bool] = []
        for line in ["HTTP/1.1 100 Continue", "", "HTTP/1.1 200 OK", "Content-Length: 5", "X-Folded: a", " b", "", "Trailer: x"] {
            completed.append(head.add(line: Substring(line + "\r\n")))
        }
        #expect(completed == [false, false, false, false, false, false, true, false])
        #expect(head.status == 200)
        #expect(head.statusLine == "HTTP/1.1 200 OK")
        #expect(head.values("content-length") == ["5"])
        #expect(head.values("X-Folded") == ["a b"])
        #expect(head.values("Trailer").isEmpty)
    }

    @Test(
        arguments: [
            ("Content-Length", "content-length", true), ("CONTENT-LENGTH", "content-length", true),
            ("content-length", "content-length", true), ("Content-Lengths", "content-length", false),
            ("Content-Lengt", "content-length", false), ("Content_Length", "content-length", false),
            // Non-ASCII names are lowercased as Unicode: the Kelvin sign becomes "k".
            ("\u{212A}eep", "keep", true), ("Ｌocation", "location", false),
        ])
    func matchesFieldNamesAsLowercasingWould(name: String, wanted: String, same: Bool) {
        #expect(ResponseHead.sameName(name, lowercased: wanted) == same)
        #expect(ResponseHead.sameName(name, lowercased: wanted) == (name.lowercased() == wanted))
    }

    @Test func stripsEveryLineEnding() {
        for ending in ["\r\n", "\n", "\r", "\r\r\n", "\n\n", "\u{0B}\r\n", "\u{2028}"] {
            var head = ResponseHead()
            _ = head.add(line: Substring("HTTP/1.1 200 OK" + ending))
            _ = head.add(line: Substring("Content-Length: 5" + ending))
            let completed = head.add(line: Substring(ending))
            #expect(completed, "\(Array(ending.unicodeScalars))")
            #expect(head.statusLine == "HTTP/1.1 200 OK")
            #expect(head.values("Content-Length") == ["5"])
        }
    }

    @Test(
        arguments: [
            ("HTTP/1.1 200 OK", 200), ("HTTP/2 404", 404), ("HTTP/1.0 302 Found", 302), ("HTTP/1.1 2OO OK", nil),
            ("ICY 200 OK", nil), ("HTTP/1.1 20 OK", nil),
        ] as [(String, Int?)])
    func readsStatusLines(line: String, status: Int?) {
        #expect(ResponseHead.statusCode(line) == status)
    }
}
