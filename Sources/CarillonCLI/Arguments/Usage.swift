/// A command's usage line, made from its declarations so that `--help` and the man page agree.
enum Usage {
    /// Optional options are listed one by one up to this many; more become `[options]`.
    static let listedOptionalOptions = 3

    /// "carillon-nse open --queue DIR [--at ISO8601] PAYLOAD...": the required options, the optional
    /// ones (or `[options]` when there are more than ``listedOptionalOptions``), then the arguments.
    static func line(command: String, options: [OptionSpec], arguments: [ArgumentSpec]) -> String {
        let required = options.filter(\.isRequired).map(label)
        let optional = options.filter { !$0.isRequired }
        let optionalPart = optional.count > listedOptionalOptions ? ["[options]"] : optional.map { "[" + label($0) + "]" }
        return ([command] + required + optionalPart + arguments.map(\.usage)).joined(separator: " ")
    }

    /// `--queue DIR`, or `--suppress` for a flag.
    static func label(_ option: OptionSpec) -> String {
        option.valueName.map { option.name + " " + $0 } ?? option.name
    }
}
