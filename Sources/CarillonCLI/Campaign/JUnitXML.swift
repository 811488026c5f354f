@_spi(Tooling) import CarillonExtensionCore

/// `--format junit` (SPEC §6a): one `<testcase>` per payload, classname the image URL's host and name
/// the payload, in the shape Jenkins, GitLab and GitHub's test reporters read:
///
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <testsuites name="carillon-nse" tests="3" failures="1" errors="0" skipped="0" time="0.412">
///   <testsuite name="carillon-nse process" tests="3" failures="1" errors="0" skipped="0" time="0.412">
///     <testcase classname="cdn.example.com" name="c.jsonl:1" time="0.021"/>
///     <testcase classname="cdn.example.com" name="c.jsonl:2" time="0.003">
///       <failure message="…" type="unsupported-type">…</failure></testcase>
/// ```
/// A payload that is not one (`invalid-payload`) is an `<error>`; every other is a `<failure>` when
/// `--fail-on` names its reason or, without `--fail-on`, when it names an image that was not attached.
enum JUnitXML {
    /// What a payload is as a test.
    enum Verdict: Sendable, Equatable {
        case passed, failure, error
    }

    /// A payload's verdict: `failOn` decides when given; else a named image not attached fails.
    static func verdict(reason: Reason, namesImage: Bool, failOn: FailOn?) -> Verdict {
        if reason == .invalidPayload { return .error }
        if let failOn { return failOn.matches(reason) ? .failure : .passed }
        return namesImage && reason != .attached ? .failure : .passed
    }

    /// One `<testcase>` element, on a line of its own; `failure` replaces the reason and detail when
    /// what failed is a request's condition (``RequestFailure``).
    static func testCase(
        name: String, classname: String, seconds: Double, verdict: Verdict, reason: Reason, detail: String,
        failure: (type: String, message: String)? = nil
    ) -> String {
        let head = "    <testcase classname=\"\(attribute(classname))\" name=\"\(attribute(name))\" time=\"\(time(seconds))\""
        switch verdict {
        case .passed:
            return head + "/>"
        case .failure, .error:
            let element = verdict == .failure ? "failure" : "error"
            let (type, message) = failure ?? (reason.code, detail)
            return head
                + "><\(element) message=\"\(attribute(message))\" type=\"\(attribute(type))\">\(text(message))</\(element)></testcase>"
        }
    }

    /// The document's start, with the counts (known once the run is over: the test cases are spooled).
    static func header(tests: Int, failures: Int, errors: Int, seconds: Double) -> String {
        let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"\(time(seconds))\""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="carillon-nse" \(counts)>
              <testsuite name="carillon-nse process" \(counts)>

            """
    }

    static let footer = "  </testsuite>\n</testsuites>\n"

    /// The test's class: the image URL's host, or `no-image` for a payload without a valid one.
    static func classname(imageURL: String?) -> String {
        guard let imageURL, let url = try? ImageURL(validating: imageURL) else { return "no-image" }
        return url.host
    }

    /// Seconds with three decimals.
    static func time(_ seconds: Double) -> String { ResultLine.milliseconds(seconds) }

    /// Character data: `&`, `<`, `>` escaped, and what XML 1.0 cannot hold at all — C0 controls other
    /// than tab, LF and CR, not even as references — shown as `\xNN` text.
    static func text(_ value: String) -> String { escape(value, inAttribute: false) }

    /// An attribute value: also `"` and `'`, and tab, LF and CR as references (a parser would turn
    /// them into spaces otherwise).
    static func attribute(_ value: String) -> String { escape(value, inAttribute: true) }

    private static func escape(_ value: String, inAttribute: Bool) -> String {
        var output = ""
        output.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where inAttribute: output += "&quot;"
            case "'" where inAttribute: output += "&apos;"
            case "\t", "\n", "\r":
                output += inAttribute ? "&#\(scalar.value);" : String(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    output += scalar.value < 0x100 ? "\\x" + (hex.count == 1 ? "0" : "") + hex : "\\u{\(hex)}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }
}
