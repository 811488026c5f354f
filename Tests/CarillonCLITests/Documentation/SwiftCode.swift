/// Swift source as the architecture reads it: comments and the text of string literals blanked (each
/// character a space, every newline kept, so lines keep their numbers), the code of an interpolation
/// kept. A type named in a string or a comment is not a use; one named in `"\(Type.value)"` is.
enum SwiftCode {
    private enum Context {
        case code(parentheses: Int)
        case string(multiline: Bool, hashes: Int)
    }

    static func blanked(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var stack: [Context] = [.code(parentheses: 0)]
        var index = 0
        func starts(_ literal: String, at offset: Int) -> Bool {
            var position = offset
            for scalar in literal.unicodeScalars {
                guard position < scalars.count, scalars[position] == scalar else { return false }
                position += 1
            }
            return true
        }
        func blank(_ count: Int) {
            for offset in index..<min(index + count, scalars.count) { output.append(scalars[offset] == "\n" ? "\n" : " ") }
            index += count
        }
        while index < scalars.count {
            switch stack[stack.count - 1] {
            case .string(let multiline, let hashes):
                let pounds = String(repeating: "#", count: hashes)
                if starts("\\" + pounds + "(", at: index) {
                    stack.append(.code(parentheses: 0))
                    blank(hashes + 2)
                } else if starts("\\" + pounds, at: index) {
                    blank(hashes + 2)
                } else if starts((multiline ? "\"\"\"" : "\"") + pounds, at: index) {
                    stack.removeLast()
                    blank((multiline ? 3 : 1) + hashes)
                } else {
                    blank(1)
                }
            case .code(let parentheses):
                if starts("//", at: index) {
                    var end = index
                    while end < scalars.count && scalars[end] != "\n" { end += 1 }
                    blank(end - index)
                } else if starts("/*", at: index) {
                    var end = index + 2
                    while end < scalars.count && !starts("*/", at: end) { end += 1 }
                    blank(min(end + 2, scalars.count) - index)
                } else if let (multiline, hashes) = stringStart(scalars, at: index, starts: starts) {
                    stack.append(.string(multiline: multiline, hashes: hashes))
                    blank(hashes + (multiline ? 3 : 1))
                } else if stack.count > 1 && scalars[index] == ")" && parentheses == 0 {
                    stack.removeLast()
                    blank(1)
                } else {
                    let change = scalars[index] == "(" ? 1 : scalars[index] == ")" ? -1 : 0
                    stack[stack.count - 1] = .code(parentheses: parentheses + change)
                    output.append(scalars[index])
                    index += 1
                }
            }
        }
        return String(output)
    }

    /// Whether a string literal opens at `index` (`"`, `"""`, `#"`, `##"""`…): whether it is multi-line,
    /// and its number of `#`.
    private static func stringStart(
        _ scalars: [Unicode.Scalar], at index: Int, starts: (String, Int) -> Bool
    ) -> (Bool, Int)? {
        var hashes = 0
        while index + hashes < scalars.count && scalars[index + hashes] == "#" { hashes += 1 }
        guard index + hashes < scalars.count, scalars[index + hashes] == "\"" else { return nil }
        return (starts("\"\"\"", index + hashes), hashes)
    }
}
