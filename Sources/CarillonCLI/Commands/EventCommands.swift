import CarillonExtensionCore

enum DrainCommand: Command {
    static let name = "drain"
    static let summary = "Move pending receipts from the container into the app's event queue."
    static let options: [OptionSpec] = []
    static var help: String { "Usage: carillon-nse drain --container DIR --queue DIR\n" }
    static func run(_ arguments: ParsedArguments, io: ToolIO) throws(UsageError) -> Int32 {
        throw UsageError(message: "not built yet")
    }
}
enum OpenCommand: Command {
    static let name = "open"
    static let summary = "Queue opened events for payloads, as didOpen(userInfo:)."
    static let options: [OptionSpec] = []
    static var help: String { "Usage: carillon-nse open --queue DIR [--at ISO8601] PAYLOAD...\n" }
    static func run(_ arguments: ParsedArguments, io: ToolIO) throws(UsageError) -> Int32 {
        throw UsageError(message: "not built yet")
    }
}
enum BatchesCommand: Command {
    static let name = "batches"
    static let summary = "Print the pending POST /v1/events bodies, one per line."
    static let options: [OptionSpec] = []
    static var help: String { "Usage: carillon-nse batches --queue DIR\n" }
    static func run(_ arguments: ParsedArguments, io: ToolIO) throws(UsageError) -> Int32 {
        throw UsageError(message: "not built yet")
    }
}
