/// A shell `carillon-nse completions` writes a script for.
enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The completion script for `tool`.
    func script(for tool: ToolReference) -> String {
        switch self {
        case .bash: BashCompletion.script(tool)
        case .zsh: ZshCompletion.script(tool)
        case .fish: FishCompletion.script(tool)
        }
    }

    /// Where the generated script is kept in the repository, under `Documentation/`.
    var fileName: String {
        switch self {
        case .bash: "Completions/carillon-nse.bash"
        case .zsh: "Completions/_carillon-nse"
        case .fish: "Completions/carillon-nse.fish"
        }
    }
}
