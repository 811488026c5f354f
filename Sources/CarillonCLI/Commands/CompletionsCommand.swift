/// `carillon-nse completions`: prints a shell's completion script, made from the same declarations as
/// `--help`.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let summary = "Print the shell completion script for bash, zsh or fish."

    static let options: [OptionSpec] = []

    static let arguments = [
        ArgumentSpec(name: "SHELL", value: .choices(CompletionShell.allCases.map(\.rawValue)), about: "bash, zsh or fish.")
    ]

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "The script was printed."),
        ExitStatus(code: 64, meaning: "Bad usage: no SHELL, or one the tool has no script for."),
    ]

    static var overview: String {
        let formats = Wording.list(PipelineOptions.format.spec.value.choices, conjunction: "and")
        return """
            Prints the completion script for SHELL, made from the declarations --help prints: the commands,
            each command's options, the words an option takes (--format's \(formats)) and files or
            directories where an option or an argument takes a path.

              bash  source <(carillon-nse completions bash)
                    or save it as ~/.local/share/bash-completion/completions/carillon-nse
              zsh   carillon-nse completions zsh > ~/.zfunc/_carillon-nse
                    with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc
              fish  carillon-nse completions fish > ~/.config/fish/completions/carillon-nse.fish
            """
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> CompletionShell {
        guard let word = arguments.positionals.first else { throw UsageError(message: "no SHELL given (bash, zsh or fish)") }
        guard arguments.positionals.count == 1 else { throw UsageError(message: "unexpected argument '\(arguments.positionals[1])'") }
        guard let shell = CompletionShell(rawValue: word) else {
            throw UsageError(message: "no completion script for '\(word)': SHELL is bash, zsh or fish")
        }
        return shell
    }

    static func run(_ shell: CompletionShell, io: ToolIO) -> Int32 {
        io.standardOutput.write(shell.script(for: .current))
        return CarillonTool.exitSuccess
    }
}
