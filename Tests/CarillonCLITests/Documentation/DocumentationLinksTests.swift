import CarillonTestSupport
import Foundation
import Testing

/// The documents hold together: every relative link in README.md and Documentation/ names a file that
/// exists and, with a `#anchor`, a heading of that file; the README stays a front door.
@Suite struct DocumentationLinksTests {
    static let root = Paths.packageRoot + "/"

    /// README.md and every Markdown file under Documentation/, relative to the package root.
    static let documents: [String] = {
        var found = ["README.md"]
        let walker = FileManager.default.enumerator(atPath: root + "Documentation")
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".md") { found.append("Documentation/" + path) }
        }
        return found.sorted()
    }()

    static func read(_ path: String) throws -> String { try String(contentsOfFile: root + path, encoding: .utf8) }

    @Test(arguments: documents)
    func everyRelativeLinkResolves(document: String) throws {
        let text = try Self.read(document)
        let directory = (document as NSString).deletingLastPathComponent
        for link in MarkdownLinks.links(text) where !link.target.contains("://") && !link.target.hasPrefix("mailto:") {
            let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let file = parts[0].removingPercentEncoding ?? parts[0]
            let target = file.isEmpty ? document : ((directory as NSString).appendingPathComponent(file) as NSString).standardizingPath
            let place = "\(document):\(link.line): \(link.target)"
            #expect(!target.hasPrefix(".."), "\(place) leaves the repository")
            #expect(FileManager.default.fileExists(atPath: Self.root + target), "\(place): no such file")
            if parts.count == 2, target.hasSuffix(".md"), FileManager.default.fileExists(atPath: Self.root + target) {
                #expect(
                    MarkdownLinks.anchors(try Self.read(target)).contains(parts[1]), "\(place): no heading with that anchor in \(target)")
            }
        }
    }

    @Test func theReadmeIsAFrontDoor() throws {
        let text = try Self.read("README.md")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count - (text.hasSuffix("\n") ? 1 : 0) <= 250, "README.md has \(lines.count) lines")
        for (number, line) in MarkdownLinks.proseLines(text) {
            #expect(line.count <= 120, "README.md:\(number) is \(line.count) columns")
        }
    }

    @Test(arguments: [
        ("The report (`--report`)", "the-report---report"),
        ("Reason codes", "reason-codes"),
        ("Three sources of `received` (SDK 0.5.0)", "three-sources-of-received-sdk-050"),
        ("Container layout (the App Group stand-in)", "container-layout-the-app-group-stand-in"),
        ("See [upload](Upload.md)", "see-upload"),
        ("Übersicht & snake_case", "übersicht--snake_case"),
    ])
    func githubSlug(heading: String, slug: String) {
        #expect(MarkdownLinks.slug(heading) == slug)
    }

    @Test func linksOutsideCodeOnly() {
        let text = """
            See [a](A.md#x) and ![b](img/b.png "title"), not `[c](C.md)`.
            ```
            [d](D.md)
            ```
            [e]: E.md
            <img src="F.png">
            # Same
            ## Same
            """
        #expect(
            MarkdownLinks.links(text) == [
                .init(target: "A.md#x", line: 1), .init(target: "img/b.png", line: 1), .init(target: "E.md", line: 5),
                .init(target: "F.png", line: 6),
            ])
        #expect(MarkdownLinks.anchors(text) == ["same", "same-1"])
        #expect(MarkdownLinks.anchors("- <a id=\"stranger-text\"></a>**Stranger text**\n`<a id=\"in-code\">`") == ["stranger-text"])
    }
}
