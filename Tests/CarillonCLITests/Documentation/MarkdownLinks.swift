import Foundation

/// What the link check reads in a Markdown file: its links (outside code) and its headings' anchors,
/// as GitHub makes them.
enum MarkdownLinks {
    /// A link's target as written, and the line it is on.
    struct Link: Equatable {
        var target: String
        var line: Int
    }

    /// The lines that are prose: those outside fenced code blocks (``` or ~~~), with their numbers.
    static func proseLines(_ text: String) -> [(number: Int, text: String)] {
        var prose: [(Int, String)] = []
        var fence: String?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix(3))
                continue
            }
            prose.append((index + 1, String(line)))
        }
        return prose
    }

    /// Inline links and images (`[text](target)`, `![alt](src)`), reference definitions
    /// (`[name]: target`) and HTML `href`/`src` attributes, outside code blocks and code spans.
    static func links(_ text: String) -> [Link] {
        let patterns = [
            #"\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#, #"^\s*\[[^\]]+\]:\s*<?([^\s>]+)"#, #"(?:href|src)\s*=\s*"([^"]+)""#,
        ]
        let expressions = patterns.map { try! NSRegularExpression(pattern: $0) }
        var links: [Link] = []
        for (number, line) in proseLines(text) {
            let prose = withoutCodeSpans(line)
            let range = NSRange(prose.startIndex..., in: prose)
            for expression in expressions {
                for match in expression.matches(in: prose, range: range) {
                    if let found = Range(match.range(at: 1), in: prose) { links.append(Link(target: String(prose[found]), line: number)) }
                }
            }
        }
        return links
    }

    /// `line` with its code spans (`` `…` ``) blanked out.
    static func withoutCodeSpans(_ line: String) -> String {
        var result = ""
        var inCode = false
        for character in line {
            if character == "`" {
                inCode.toggle()
                result.append(" ")
            } else {
                result.append(inCode ? " " : character)
            }
        }
        return result
    }

    /// The anchors of the file's headings, as GitHub makes them: a repeated heading gets `-1`, `-2`.
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        let explicit = try! NSRegularExpression(pattern: #"<a (?:id|name)="([^"]+)""#)
        for (_, line) in proseLines(text) {
            // An explicit anchor (`<a id="x"></a>`), which GitHub keeps, for a place that is not a heading.
            let outsideCode = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            for match in explicit.matches(in: outsideCode, range: NSRange(outsideCode.startIndex..., in: outsideCode)) {
                if let range = Range(match.range(at: 1), in: outsideCode) { anchors.insert(String(outsideCode[range])) }
            }
            let hashes = line.prefix { $0 == "#" }
            guard (1...6).contains(hashes.count), line.dropFirst(hashes.count).first == " " else { continue }
            let base = slug(String(line.dropFirst(hashes.count + 1)))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// GitHub's anchor for a heading: the text of its links only, lower-cased, punctuation dropped
    /// (letters, digits, `-`, `_` kept), each space a hyphen.
    static func slug(_ heading: String) -> String {
        let linkText = try! NSRegularExpression(pattern: #"!?\[([^\]]*)\]\([^)]*\)"#)
        let plain = linkText.stringByReplacingMatches(
            in: heading, range: NSRange(heading.startIndex..., in: heading), withTemplate: "$1")
        var slug = ""
        for character in plain.trimmingCharacters(in: .whitespaces).lowercased() {
            if character == " " {
                slug.append("-")
            } else if character.isLetter || character.isNumber || character == "-" || character == "_" {
                slug.append(character)
            }
        }
        return slug
    }
}
