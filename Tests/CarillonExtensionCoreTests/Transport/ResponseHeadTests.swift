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
        // The same asked with an ASCII name as callers write it (values(_:)'s way, no lowercasing first).
        #expect(ResponseHead.sameName(name, ascii: wanted.uppercased()) == same)
        #expect(ResponseHead.sameName(name, ascii: "Content-Length") == (name.lowercased() == "content-length"))
    }

    @Test(arguments: [
        "chunked", " gzip ,  br\t", ",,5,, 5 ,", "", " ", "a,\u{301}b", "gzip,\u{0301}", "caf\u{E9}, x", "\tx\t,\ty", "a\u{0B},b",
    ])
    func splitsListFieldsAsCharactersWould(value: String) {
        var head = ResponseHead()
        head.fields = [HTTPField(name: "Content-Encoding", value: value), HTTPField(name: "content-encoding", value: "deflate")]
        let reference = [value, "deflate"].flatMap { $0.split(separator: ",") }.map { piece in
            var slice = piece
            while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
            while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
            return String(slice)
        }.filter { !$0.isEmpty }
        #expect(head.listElements("Content-Encoding") == reference)
        #expect(head.values("CONTENT-ENCODING") == [value, "deflate"])
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

    /// The status line and fields as the Character rules read them (the reader before its byte tests):
    /// the reference the byte shortcuts must match.
    static func reference(_ lines: [String]) -> (status: Int?, fields: [[String]]) {
        var status: Int?
        var fields: [[String]] = []
        func trimmed(_ text: Substring) -> Substring {
            var slice = text
            while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
            while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
            return slice
        }
        var statusLine = ""
        for raw in lines {
            var line = Substring(raw)
            while let last = line.last, last.isNewline { line = line.dropLast() }
            if statusLine.isEmpty {
                statusLine = String(line)
                let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                if parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) {
                    status = Int(parts[1])
                }
                continue
            }
            if let first = line.first, first == " " || first == "\t", !fields.isEmpty {
                fields[fields.count - 1][1] += " " + trimmed(line)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append([String(line[..<colon]), String(trimmed(line[line.index(after: colon)...]))])
        }
        return (status, fields)
    }

    /// Lines with spaces, tabs, combining marks, other line endings and non-ASCII at each end: the byte
    /// shortcuts read every one as the Character rules do.
    @Test func readsEveryLineAsTheCharacterRulesDo() {
        let statusLines = [
            "HTTP/1.1 200 OK", "HTTP/2 404", "HTTP/1.1  200 OK", "HTTP/1.1 200", "HTTP/1.1 2000 OK", "HTTP/ 200 x", "HTTP 200 OK",
            "http/1.1 200 OK", "HTTP/1.1 20\u{301}0 OK", "HTTP/1.1 \u{301}200 OK", "HTTP/1.1 ２00 OK", "HTTP/1.1 200\tOK", "HTTP/1.1 200 é",
            "HTTP/1.1\t200 OK", "", " HTTP/1.1 200 OK", "HTTP/1.1 200 OK\u{0B}", "HTTP/1.1 200 OK\u{85}", "HTTP/1.1 200 OK\u{2029}",
            "HTTP/1.1 200 \r OK",
        ]
        let fieldLines = [
            "Content-Length: 5", "A:b", "A:  b  ", "A:\tb\t", "A: b\u{301}", "A: \u{301}b", "A:\u{A0}b\u{A0}", " folded", "\tfolded  ",
            " \u{301}not folded: x", "\u{301} not: x", "No colon", ":empty name", "A: b\u{0C}", "A: b\u{85}", "A: b\u{2028}", "A: é ",
            "  ", "\t", "X: ", "X:", "A: b \u{301}",
        ]
        for status in statusLines {
            for fields in [fieldLines, fieldLines.reversed(), Array(fieldLines.dropFirst(7))] {
                var head = ResponseHead()
                for line in [status] + fields { _ = head.add(line: Substring(line + "\r\n")) }
                let expected = Self.reference([status] + fields)
                #expect(head.status == (expected.status ?? 0), "\(status)")
                #expect(head.fields.map { [$0.name, $0.value] } == expected.fields, "\(status) \(fields)")
            }
        }
    }
}
