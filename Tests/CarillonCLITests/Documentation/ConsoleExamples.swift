import Foundation

/// The console examples of a Markdown page that a test keeps equal to the tool's real output.
///
/// The convention: a fenced `console` block right after a comment `<!-- example: SETUP... -->`. In the
/// block, a line starting `$ ` is a command (continued on the next line while it ends with ` \`), and
/// the lines up to the next command are its output, standard output and standard error as a terminal
/// shows them. The words of the comment name what the commands need (see ``ExampleSession``) and
/// `wrap`: the output is folded at 120 columns (continuations indented four spaces), and compared
/// without regard to white space. Examples of one page run in order in one directory, so that a later
/// one sees the files an earlier one made.
enum ConsoleExamples {
    struct Command {
        /// The command as the shell reads it (continuations joined).
        var text: String
        /// The lines of the command as written.
        var lines: [String]
        /// The output's lines as written.
        var output: [String]
        /// The 1-based line of the command in the page.
        var line: Int
    }

    struct Example {
        var words: [String]
        var commands: [Command]
        /// The page's lines between the fences (0-based, end exclusive).
        var body: Range<Int>

        var wraps: Bool { words.contains("wrap") }
    }

    static let marker = "<!-- example:"

    /// The examples of `lines`, in order.
    static func examples(_ lines: [String]) -> [Example] {
        var found: [Example] = []
        var index = 0
        while index + 1 < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix(marker), line.hasSuffix("-->"), lines[index + 1] == "```console" else {
                index += 1
                continue
            }
            let words = line.dropFirst(marker.count).dropLast(3).split(separator: " ").map(String.init)
            let start = index + 2
            var end = start
            while end < lines.count, lines[end] != "```" { end += 1 }
            found.append(Example(words: words, commands: commands(lines, start..<end), body: start..<end))
            index = end + 1
        }
        return found
    }

    static func commands(_ lines: [String], _ body: Range<Int>) -> [Command] {
        var commands: [Command] = []
        var index = body.lowerBound
        while index < body.upperBound {
            guard lines[index].hasPrefix("$ ") else {
                commands.last.map { _ in commands[commands.count - 1].output.append(lines[index]) }
                index += 1
                continue
            }
            var written = [lines[index]]
            while written.last!.hasSuffix(" \\"), index + 1 < body.upperBound {
                index += 1
                written.append(lines[index])
            }
            let text = written.map { $0.hasSuffix(" \\") ? String($0.dropLast(2)) : $0 }
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ").dropFirst(2)
            commands.append(Command(text: String(text), lines: written, output: [], line: index + 2 - written.count))
            index += 1
        }
        return commands
    }

    /// The page with each example's outputs replaced by `outputs` (one per command, in order).
    static func rewritten(_ lines: [String], _ examples: [Example], _ outputs: [[String]]) -> [String] {
        var result = lines
        var flat = outputs.makeIterator()
        var blocks: [(Range<Int>, [String])] = []
        for example in examples {
            var body: [String] = []
            for command in example.commands {
                body += command.lines
                let output = flat.next() ?? command.output
                body += example.wraps ? output.flatMap { fold($0) } : output
            }
            blocks.append((example.body, body))
        }
        for (range, body) in blocks.reversed() { result.replaceSubrange(range, with: body) }
        return result
    }

    /// `line` folded at `width` columns: at the last space (dropped) that fits, else after the last
    /// comma, else where the width ends; continuations are indented four spaces more than the line.
    static func fold(_ line: String, width: Int = 120) -> [String] {
        var rest = Substring(line)
        var prefix = ""
        let continuation = String(line.prefix { $0 == " " }) + "    "
        var folded: [String] = []
        while prefix.count + rest.count > width {
            let room = rest.prefix(width - prefix.count)
            if let space = room.dropFirst(rest.prefix { $0 == " " }.count + 1).lastIndex(of: " ") {
                folded.append(prefix + rest[..<space])
                rest = rest[rest.index(after: space)...]
            } else if let comma = room.lastIndex(of: ",") {
                folded.append(prefix + rest[...comma])
                rest = rest[rest.index(after: comma)...]
            } else {
                folded.append(prefix + room)
                rest = rest.dropFirst(room.count)
            }
            prefix = continuation
        }
        return folded + [prefix + rest]
    }

    /// What varies from run to run, replaced by a placeholder: the work directory, ports, instants,
    /// attachment names, and measured times and sizes.
    static func normalised(_ text: String, workDirectory: String, wrap: Bool) -> String {
        var result = text.replacingOccurrences(of: workDirectory, with: "WORK")
        let rules: [(String, String)] = [
            (#"127\.0\.0\.1:[0-9]+"#, "127.0.0.1:PORT"),
            (#"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z"#, "INSTANT"),
            (#"image-[0-9a-z]+-[0-9a-z]+-[0-9a-z]+"#, "image-NAME"),
            (#"(?<![A-Za-z0-9_.])[0-9]+\.[0-9]+(?![.0-9])"#, "N.N"),
            (#"[0-9]+ ms in all"#, "N ms in all"),
            (#"\([0-9]+ bytes, written"#, "(N bytes, written"),
        ]
        for (pattern, replacement) in rules {
            result = result.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        if wrap { result.removeAll { $0.isWhitespace } }
        return result
    }
}
