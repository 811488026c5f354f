import CarillonTestSupport
import Foundation
import Testing

/// Documentation/Layout.md's picture of the architecture stays true to the code: which module imports
/// which, which core folders import the C modules, which file of each module imports the C library and
/// who uses its names, which core folders use each other's types and that each of those uses points
/// down the folders' layers; and two house rules (the core never names a command-line option; no
/// function in Sources/ is over 80 lines).
@Suite struct ArchitectureTests {
    static let root = Paths.packageRoot + "/"
    static let core = "Sources/CarillonExtensionCore/"
    /// Modules every module may import without the picture saying so.
    static let standardModules: Set<String> = ["Dispatch", "Synchronization", "Foundation"]
    static let libcModules: Set<String> = ["Glibc", "Musl", "Darwin"]

    /// The ```architecture block of Layout.md: `kind name: values` lines.
    struct Rules {
        var modules: [String: Set<String>] = [:]
        var cModules: [String: Set<String>] = [:]
        var libcRooms: [String: String] = [:]
        var libcUsers: [String: [String]] = [:]
        var folders: [String: Set<String>] = [:]
        /// Each core folder's layer, 0 at the bottom (`layer N: folders` lines).
        var layers: [String: Int] = [:]

        init(_ layout: String) {
            guard let start = layout.range(of: "```architecture\n"),
                let end = layout.range(of: "\n```", range: start.upperBound..<layout.endIndex)
            else { return }
            for line in layout[start.upperBound..<end.lowerBound].split(separator: "\n") {
                let halves = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let head = halves[0].split(separator: " ").map(String.init)
                let values = halves.count > 1 ? halves[1].split(separator: " ").map(String.init) : []
                guard head.count == 2 else { continue }
                switch head[0] {
                case "module": modules[head[1]] = Set(values)
                case "c": cModules[head[1]] = Set(values)
                case "libc": libcRooms[head[1]] = values.first ?? ""
                case "libc-users": libcUsers[head[1]] = values
                case "folder": folders[head[1]] = Set(values)
                case "layer": for folder in values { layers[folder] = Int(head[1]) ?? -1 }
                default: continue
                }
            }
        }
    }

    static let rules = Rules((try? String(contentsOfFile: root + "Documentation/Layout.md", encoding: .utf8)) ?? "")

    /// The Swift files under `directory` (relative to the package root), sorted, relative to it.
    static func swiftFiles(_ directory: String) -> [String] {
        var found: [String] = []
        let walker = FileManager.default.enumerator(atPath: root + directory)
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".swift") { found.append(path) }
        }
        return found.sorted()
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: root + path, encoding: .utf8)) ?? "" }

    /// The modules a file imports (`import X`, `internal import X`, `@_spi(Tooling) @testable import X`…).
    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
            guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { return nil }
            let before = words[..<index]
            guard before.allSatisfy({ $0.hasPrefix("@") || ["internal", "public", "private", "fileprivate", "package"].contains($0) })
            else { return nil }
            return String(words[index + 1])
        }
    }

    /// A line without its `//` comment (a `//` inside a string cuts it too: the same for every file).
    static func code(_ line: Substring) -> Substring {
        guard let comment = line.range(of: "//") else { return line }
        return line[..<comment.lowerBound]
    }

    /// The identifiers of `text` that start with a capital letter (maximal runs of letters, digits, `_`).
    static func capitalisedIdentifiers(_ text: Substring) -> Set<Substring> {
        var found: Set<Substring> = []
        var start: Substring.Index? = nil
        var index = text.startIndex
        func isIdentifier(_ character: Character) -> Bool {
            character.isASCII && (character.isLetter || character.isNumber || character == "_")
        }
        while index <= text.endIndex {
            let character: Character? = index < text.endIndex ? text[index] : nil
            if let character, isIdentifier(character) {
                if start == nil { start = index }
            } else if let begun = start {
                if text[begun].isUppercase { found.insert(text[begun..<index]) }
                start = nil
            }
            if index == text.endIndex { break }
            index = text.index(after: index)
        }
        return found
    }

    /// The top-level type a line declares (`enum`, `struct`, `class`, `protocol`, `actor`, `typealias`).
    static func declaredType(_ line: Substring) -> String? {
        guard let first = line.first, first != " " else { return nil }
        let modifiers: Set<Substring> = ["public", "package", "internal", "private", "fileprivate", "open", "final", "indirect"]
        var words = line.split(separator: " ")[...]
        while let word = words.first, word.hasPrefix("@") || modifiers.contains(word) { words = words.dropFirst() }
        guard let keyword = words.first, ["enum", "struct", "class", "protocol", "actor", "typealias"].contains(keyword),
            let name = words.dropFirst().first, name.first?.isUppercase == true
        else { return nil }
        return String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    /// The core folder of a path relative to the core's directory.
    static func folder(_ path: String) -> String { String(path.split(separator: "/").first ?? "") }

    @Test func modulesImportWhatThePictureSays() throws {
        try #require(!Self.rules.modules.isEmpty, "Layout.md has no ```architecture block")
        for (module, allowed) in Self.rules.modules {
            var actual: Set<String> = []
            for file in Self.swiftFiles("Sources/\(module)") {
                actual.formUnion(Self.imports(Self.read("Sources/\(module)/\(file)")))
            }
            actual.subtract(Self.standardModules.union(Self.libcModules))
            #expect(actual == allowed, "\(module) imports \(actual.sorted()); Layout.md says \(allowed.sorted())")
        }
    }

    @Test func onlyTheNamedCoreFoldersImportTheCModules() throws {
        try #require(!Self.rules.cModules.isEmpty)
        for (cModule, allowed) in Self.rules.cModules {
            let importers = Set(
                Self.swiftFiles(Self.core).filter { Self.imports(Self.read(Self.core + $0)).contains(cModule) }.map(Self.folder))
            #expect(importers == allowed, "\(cModule) is imported by \(importers.sorted()); Layout.md says \(allowed.sorted())")
        }
    }

    @Test func eachModuleImportsTheCLibraryInOneFile() throws {
        try #require(!Self.rules.libcRooms.isEmpty)
        for (module, room) in Self.rules.libcRooms {
            let importers = Self.swiftFiles("Sources/\(module)").filter {
                !Self.libcModules.isDisjoint(with: Self.imports(Self.read("Sources/\(module)/\($0)")))
            }
            #expect(importers == [room], "\(module): the C library is imported by \(importers), not only by \(room)")
            #expect(!Self.read("Sources/\(module)/\(room)").contains("@_exported"), "\(module)'s \(room) re-exports it")
        }
        // Nothing in Sources/ re-exports anything.
        for module in Self.rules.modules.keys {
            for file in Self.swiftFiles("Sources/\(module)") {
                #expect(!Self.read("Sources/\(module)/\(file)").contains("@_exported import"), "Sources/\(module)/\(file) re-exports")
            }
        }
        // The test targets other than the two support modules get it through CarillonTestSupport.
        for target in ["CarillonExtensionCoreTests", "CarillonCLITests"] {
            let importers = Self.swiftFiles("Tests/\(target)").filter {
                !Self.libcModules.isDisjoint(with: Self.imports(Self.read("Tests/\(target)/\($0)")))
            }
            #expect(importers.isEmpty, "Tests/\(target) imports the C library in \(importers): CarillonTestSupport/LibC.swift has it")
        }
    }

    @Test func onlyTheFileSystemTheClockAndTheLocksUseTheCoresCLibraryNames() throws {
        let allowed = try #require(Self.rules.libcUsers["CarillonExtensionCore"])
        let room = try #require(Self.rules.libcRooms["CarillonExtensionCore"])
        var offenders: [String] = []
        for file in Self.swiftFiles(Self.core)
        where file != room && !allowed.contains(where: { file == $0 || ($0.hasSuffix("/") && file.hasPrefix($0)) }) {
            let text = Self.read(Self.core + file)
            if text.split(separator: "\n").contains(where: { Self.code($0).contains("system_") }) { offenders.append(file) }
        }
        #expect(offenders.isEmpty, "call the C library outside the file system and the clock: \(offenders)")
    }

    /// The core folders each folder uses, from its files (path relative to the core, text): a top-level
    /// type named in code, and a member another folder adds by extension (`ExtensionMembers`): a function
    /// called (`name(`) where no other folder declares a function or a case of its name, a property used
    /// as `.name` where no other folder declares anything of its name (a use of an ambiguous name could
    /// be anyone's, and is not counted).
    static func folderUses(_ files: [(path: String, text: String)]) -> [String: Set<String>] {
        let code = files.map { (folder: Self.folder($0.path), text: SwiftCode.blanked($0.text)) }
        var owner: [Substring: String] = [:]
        for (file, blanked) in zip(files, code) {
            for line in file.text.split(separator: "\n") {
                if let name = Self.declaredType(line), owner[Substring(name)] == nil { owner[Substring(name)] = blanked.folder }
            }
        }
        var declaring: [Substring: Set<String>] = [:]
        var calling: [Substring: Set<String>] = [:]
        for file in code {
            for (name, isCalled) in ExtensionMembers.declaredNames(in: file.text) {
                declaring[name, default: []].insert(file.folder)
                if isCalled { calling[name, default: []].insert(file.folder) }
            }
        }
        var members: [ExtensionMembers.Member: String] = [:]
        for file in code {
            for member in ExtensionMembers.declared(in: file.text) where owner[Substring(member.type)] != file.folder {
                let others = (member.isFunction ? calling : declaring)[Substring(member.name), default: []]
                if others == [file.folder] { members[member] = file.folder }
            }
        }
        var uses: [String: Set<String>] = [:]
        for file in code {
            var used = uses[file.folder] ?? []
            for line in file.text.split(separator: "\n") {
                for name in Self.capitalisedIdentifiers(line) {
                    if let other = owner[name], other != file.folder { used.insert(other) }
                }
                for (member, other) in members where other != file.folder && ExtensionMembers.uses(member, in: line) { used.insert(other) }
            }
            uses[file.folder] = used
        }
        return uses
    }

    @Test func coreFoldersUseOnlyTheFoldersThePictureAllows() throws {
        try #require(!Self.rules.folders.isEmpty)
        let uses = Self.folderUses(Self.swiftFiles(Self.core).map { ($0, Self.read(Self.core + $0)) })
        #expect(Set(uses.keys) == Set(Self.rules.folders.keys), "the core's folders are \(uses.keys.sorted())")
        for (folder, used) in uses.sorted(by: { $0.key < $1.key }) {
            let allowed = Self.rules.folders[folder] ?? []
            #expect(
                used.subtracting(allowed).isEmpty, "\(folder)/ uses \(used.subtracting(allowed).sorted()), which Layout.md does not allow")
            #expect(
                allowed.subtracting(used).isEmpty,
                "\(folder)/ no longer uses \(allowed.subtracting(used).sorted()): take it out of Layout.md")
        }
    }

    /// The folders' layers, bottom first: each folder in one layer, and each use a folder makes points
    /// to a layer below its own (so the folders have no cycle, and a layer never uses its own row).
    static func layerViolations(_ rules: Rules) -> [String] {
        var found: [String] = []
        for folder in Set(rules.folders.keys).symmetricDifference(rules.layers.keys).sorted() {
            found.append(rules.layers[folder] == nil ? "\(folder)/ is in no layer" : "layer of \(folder)/, which is no folder")
        }
        for (folder, used) in rules.folders.sorted(by: { $0.key < $1.key }) {
            guard let layer = rules.layers[folder] else { continue }
            for other in used.sorted() where (rules.layers[other] ?? .max) >= layer {
                let otherLayer = rules.layers[other].map(String.init) ?? "none"
                found.append("\(folder)/ (layer \(layer)) uses \(other)/ (layer \(otherLayer)), which is not below it")
            }
        }
        return found
    }

    @Test func coreFoldersUseOnlyTheLayersBelowTheirOwn() throws {
        try #require(!Self.rules.layers.isEmpty, "Layout.md's architecture block has no layer lines")
        let violations = Self.layerViolations(Self.rules)
        #expect(violations.isEmpty, "Layout.md's layers:\n\(violations.joined(separator: "\n"))")
    }

    /// The check itself, on small pictures: an edge up, one within a row and a cycle are each refused.
    @Test(arguments: [
        ("layer 1: A\nlayer 0: B\nfolder A: B\nfolder B:", [String]()),
        ("layer 1: A\nlayer 0: B\nfolder A:\nfolder B: A", ["B/ (layer 0) uses A/ (layer 1), which is not below it"]),
        ("layer 0: A B\nfolder A: B\nfolder B:", ["A/ (layer 0) uses B/ (layer 0), which is not below it"]),
        (
            "layer 1: A\nlayer 0: B\nfolder A: B\nfolder B: A",
            ["B/ (layer 0) uses A/ (layer 1), which is not below it"]
        ),
        ("layer 0: A\nfolder A:\nfolder B:", ["B/ is in no layer"]),
    ])
    func anEdgeThatDoesNotPointDownIsRefused(picture: String, expected: [String]) {
        #expect(Self.layerViolations(Rules("```architecture\n" + picture + "\n```")) == expected)
    }

    /// A use through an extension member, on a small core of two folders: `Storage/` (layer 2) holds
    /// `RecordFile`, `Receipts/` (layer 5) extends it; `Storage/`'s use of the member is an edge up,
    /// which the layers refuse, unless the name is ambiguous (another folder declares a function of a
    /// called name, or anything of a property's), hidden, or only in a string or a comment.
    @Test(arguments: [
        ("_ = record.deliveryID(\"id\")", "func deliveryID(_ key: String) -> String { key }", ["Receipts"]),
        ("let id = record.deliveryID", "var deliveryID: String { \"\" }", ["Receipts"]),
        ("_ = deliveryID(\"id\")", "static func deliveryID(_ key: String) -> String { key }", ["Receipts"]),
        ("_ = \"\".quotedForRecord", "}\nextension String {\n    var quotedForRecord: String { self }", ["Receipts"]),
        ("let deliveryID = 1\n    _ = record.deliveryID(\"id\")", "func deliveryID(_ key: String) -> String { key }", ["Receipts"]),
        ("let deliveryID = 1\n    _ = record.deliveryID", "var deliveryID: String { \"\" }", []),
        ("_ = record.string(\"id\")", "func deliveryID(_ key: String) -> String { key }", []),
        ("_ = record.deliveryIDs(\"id\") + deliveryID_x", "func deliveryID(_ key: String) -> String { key }", []),
        ("_ = \"record.deliveryID(\" // record.deliveryID(", "func deliveryID(_ key: String) -> String { key }", []),
        ("_ = record.deliveryID(\"id\")", "private func deliveryID(_ key: String) -> String { key }", []),
        ("_ = record.deliveryID(\"id\")", "fileprivate static let deliveryID = 1", []),
        ("_ = record.deliveryID(\"id\")\nfunc deliveryID(_ key: String) {}", "func deliveryID(_ key: String) -> String { key }", []),
        ("_ = record.deliveryID(\"id\")", "struct Nested {\n        func deliveryID(_ key: String) -> String { key }\n    }", []),
    ])
    func anExtensionMemberUsedFromBelowIsAnEdgeUp(storageCode: String, extensionMember: String, used: [String]) {
        let files = [
            ("Storage/RecordFile.swift", "struct RecordFile {\n    func string(_ key: String) -> String { key }\n}\n"),
            ("Storage/Probe.swift", "func probe(record: RecordFile) {\n    \(storageCode)\n}\n"),
            ("Receipts/RecordFile+DeliveryID.swift", "extension RecordFile {\n    \(extensionMember)\n}\n"),
        ]
        let uses = Self.folderUses(files.map { (path: $0.0, text: $0.1) })
        #expect(uses["Storage"].map { $0.sorted() } == used)
        #expect(uses["Receipts"] == ["Storage"])
        let storage = uses["Storage", default: []].sorted().joined(separator: " ")
        let picture = "layer 5: Receipts\nlayer 2: Storage\nfolder Receipts: Storage\nfolder Storage: \(storage)"
        let expected = used.isEmpty ? [] : ["Storage/ (layer 2) uses Receipts/ (layer 5), which is not below it"]
        #expect(Self.layerViolations(Rules("```architecture\n" + picture + "\n```")) == expected)
    }

    /// What counts as a use: a type named in code or in an interpolation, not in a string or a comment.
    @Test(arguments: [
        ("let a = \"SHA256 \\(Used.x) Not\" // Comment", ["Used"]),
        ("let a = #\"Raw \"quoted\" \\(Not) \\#(Used)\"# + Used2.y", ["Used", "Used2"]),
        ("let a = \"\"\"\n    Multi \\(f(Used))\n    \"\"\" /* Block\n Comment */ Used2()", ["Used", "Used2"]),
        ("let a = \"\\(x.map { \"Not\\(Used)\" })\" + Used2.y", ["Used", "Used2"]),
    ])
    func aTypeNamedInAStringOrACommentIsNoUse(source: String, used: [String]) {
        let names = Self.capitalisedIdentifiers(Substring(SwiftCode.blanked(source)))
        #expect(names.map(String.init).sorted() == used)
        #expect(SwiftCode.blanked(source).count(where: { $0 == "\n" }) == source.count(where: { $0 == "\n" }))
    }

    /// The core speaks its own words: no string names a command-line option, and no doc comment names
    /// one, "the CLI" or "the command line" (the .docc articles included).
    @Test func theCoreNamesNoCommandLineOption() {
        var offenders: [String] = []
        var paths = Self.swiftFiles(Self.core).map { Self.core + $0 }
        let walker = FileManager.default.enumerator(atPath: Self.root + Self.core)
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".md") { paths.append(Self.core + path) }
        }
        for path in paths {
            for (number, line) in Self.read(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let text = line.trimmingCharacters(in: .whitespaces)
                let prose = path.hasSuffix(".md") || text.hasPrefix("///")
                let namesOption = Self.optionName(in: Substring(text), inStringsOnly: !prose)
                let namesTool = prose && (text.contains("the CLI") || text.contains("command line") || text.contains("CLI's"))
                if namesOption || namesTool { offenders.append("\(path):\(number + 1): \(text)") }
            }
        }
        #expect(offenders.isEmpty, "the core names the tool's options or the tool:\n\(offenders.joined(separator: "\n"))")
    }

    /// Whether `text` holds `--` followed by a lower-case letter; with `inStringsOnly`, only inside a
    /// string literal on the line.
    static func optionName(in text: Substring, inStringsOnly: Bool) -> Bool {
        var inString = false
        var previous: Character = " "
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" && previous != "\\" { inString.toggle() }
            if character == "-", previous == "-", !inStringsOnly || inString {
                let next = text.index(after: index)
                if next < text.endIndex, text[next].isLowercase, text[next].isASCII { return true }
            }
            previous = character
            index = text.index(after: index)
        }
        return false
    }

    /// Every function, initialiser and subscript in Sources/ is 80 lines at most, from its declaration
    /// to its closing brace. The message lists every one over.
    @Test func noFunctionInSourcesIsOver80Lines() {
        var offenders: [String] = []
        for module in Self.rules.modules.keys.sorted() {
            for file in Self.swiftFiles("Sources/\(module)") {
                for (line, name, length) in FunctionLengths.over(80, in: Self.read("Sources/\(module)/\(file)")) {
                    offenders.append("Sources/\(module)/\(file):\(line) \(name): \(length) lines")
                }
            }
        }
        #expect(offenders.isEmpty, "functions over 80 lines:\n\(offenders.joined(separator: "\n"))")
    }
}
