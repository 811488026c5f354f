/// The members a file adds to a type through `extension T { … }`, and where other code uses them: an
/// upward edge can be made through such a member without naming any type of the folder that declares
/// it (`record.deliveryID("id")` in `Storage/` calls what `Receipts/RecordFile+DeliveryID.swift` adds).
/// Read from `SwiftCode.blanked` text, so a name in a string or a comment is neither a declaration nor
/// a use.
enum ExtensionMembers {
    /// A member declared directly in a top-level extension: the extended type (its first component:
    /// `A` for `extension A.B`) and the member's name.
    struct Member: Hashable {
        var type: String
        var name: String
        /// Declared with `func`: used when called (`name(`); a property is used as `.name`.
        var isFunction: Bool
    }

    static let modifiers: Set<Substring> = [
        "public", "package", "internal", "open", "static", "class", "final", "override", "mutating", "nonmutating",
        "nonisolated", "convenience", "required", "lazy", "weak", "unowned", "dynamic",
    ]
    static let hidden: Set<Substring> = ["private", "fileprivate"]

    /// The functions and properties declared directly inside each top-level `extension` of `blanked`
    /// (not in a type or a function nested in it); a `private` or `fileprivate` one, or any member of a
    /// `private extension`, is left out: no other file can use it. Initialisers and subscripts have no
    /// name to look for and are not listed.
    static func declared(in blanked: String) -> [Member] {
        var found: [Member] = []
        var extended: String? = nil
        var depth = 0
        for line in blanked.split(separator: "\n", omittingEmptySubsequences: false) {
            if depth == 0 { extended = extendedType(line) }
            if depth == 1, let type = extended, let (keyword, name) = memberName(line) {
                found.append(Member(type: type, name: name, isFunction: keyword == "func"))
            }
            for character in line {
                if character == "{" { depth += 1 }
                if character == "}" { depth = max(0, depth - 1) }
            }
        }
        return found
    }

    /// The type a top-level line extends (`extension A.B: P where …` gives `A`); nil for any other line
    /// and for a `private` or `fileprivate` extension.
    static func extendedType(_ line: Substring) -> String? {
        guard line.first?.isLetter == true || line.first == "@" else { return nil }
        var words = line.split(separator: " ")[...]
        while let word = words.first, word.hasPrefix("@") || modifiers.contains(word) || hidden.contains(word) {
            if hidden.contains(word) { return nil }
            words = words.dropFirst()
        }
        guard words.first == "extension", let name = words.dropFirst().first else { return nil }
        let type = name.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return type.isEmpty ? nil : String(type)
    }

    /// An attribute or a modifier that does not hide a declaration (`private(set)` does not).
    static func isModifier(_ word: Substring) -> Bool {
        word.hasPrefix("@") || word.hasPrefix("private(") || word.hasPrefix("fileprivate(") || modifiers.contains(word)
    }

    /// The keyword (`func`, `var` or `let`) and the name a line declares after its attributes and
    /// modifiers; nil for any other line and for a `private` or `fileprivate` declaration.
    static func memberName(_ line: Substring) -> (Substring, String)? {
        var words = line.split(separator: " ")[...]
        while let word = words.first, isModifier(word) || hidden.contains(word) {
            if hidden.contains(word) { return nil }
            words = words.dropFirst()
        }
        guard let keyword = words.first, ["func", "var", "let"].contains(keyword), let next = words.dropFirst().first else { return nil }
        let name = next.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : (keyword, String(name))
    }

    /// Every name `blanked` declares with `func`, `var`, `let` or `case`, at any depth (locals included),
    /// and whether it is a function or a case (which code calls as `name(`): a member whose name another
    /// folder declares is ambiguous, a function's call only where another folder calls something of its
    /// name (`record.deliveryID("id")` is no use of a `deliveryID` property).
    static func declaredNames(in blanked: String) -> [(name: Substring, isCalled: Bool)] {
        var names: [(name: Substring, isCalled: Bool)] = []
        let words = blanked.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" || $0 == "," })
        for (index, word) in words.enumerated() where ["func", "var", "let", "case"].contains(word) && index + 1 < words.count {
            let name = words[index + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty { names.append((name, word == "func" || word == "case")) }
        }
        return names
    }

    /// Whether `line` uses `member`: calls a function (`name(`, `.name(`) or names a property (`.name`),
    /// as a whole identifier.
    static func uses(_ member: Member, in line: Substring) -> Bool {
        let name = member.name
        var searched = line[...]
        while let found = searched.range(of: name) {
            let before = found.lowerBound > line.startIndex ? line[line.index(before: found.lowerBound)] : " "
            let after = found.upperBound < line.endIndex ? line[found.upperBound] : " "
            let startsIdentifier = !(before.isLetter || before.isNumber || before == "_")
            let endsIdentifier = !(after.isLetter || after.isNumber || after == "_")
            if startsIdentifier && endsIdentifier && (member.isFunction ? after == "(" : before == ".") { return true }
            searched = line[found.upperBound...]
        }
        return false
    }
}
