/// Every file the declarations generate, by its path under `Documentation/`: the golden test compares
/// them with the repository's, and rewrites them when asked to.
enum GeneratedReference {
    static func files(_ tool: ToolReference) -> [(path: String, text: String)] {
        [("Reference/README.md", MarkdownReference.index(tool))]
            + tool.commands.map { ("Reference/" + MarkdownReference.fileName($0), MarkdownReference.page($0, tool: tool)) }
            + [("carillon-nse.1", ManPage.page(tool))]
            + CompletionShell.allCases.map { ($0.fileName, $0.script(for: tool)) }
    }
}
