@_spi(Tooling) import CarillonExtensionCore
import Testing

@testable import CarillonCLI

/// Every `--help` is framed from the declarations (issue 29): the frame, the list wording, and what the
/// commands' help says of itself.
@Suite struct HelpTextTests {
    static let flag = OptionSpec(name: "--help", valueName: nil, help: "Show this help.")
    static let statuses = [ExitStatus(code: 0, meaning: "Fine."), ExitStatus(code: 64, meaning: "Bad usage.")]

    @Test func framesTheProseBetweenUsageOptionsAndStatuses() {
        #expect(
            HelpText.page(usage: "tool x", overview: "Does x.", options: [Self.flag], exitStatuses: Self.statuses)
                == "Usage: tool x\n\nDoes x.\n\nOptions:\n  --help  Show this help.\n\nExit status:\n  0   Fine.\n  64  Bad usage.\n")
        #expect(
            HelpText.page(
                title: "tool: a tool", usage: "tool x", overview: "Does x.", options: [Self.flag], sections: ["Later.", "Last."],
                exitStatuses: Self.statuses)
                == "tool: a tool\n\nUsage: tool x\n\nDoes x.\n\nOptions:\n  --help  Show this help.\n\nLater.\n\nLast.\n\n"
                + "Exit status:\n  0   Fine.\n  64  Bad usage.\n")
    }

    @Test(arguments: [
        ([], "or", ""), (["json"], "or", "json"), (["json", "text"], "or", "json or text"),
        (["json", "text", "junit"], "and", "json, text and junit"),
    ])
    func listsWords(words: [String], conjunction: String, listed: String) {
        #expect(Wording.list(words, conjunction: conjunction) == listed)
    }

    /// `completions --help` named --format's values without junit: the list now comes from the declaration.
    @Test func completionsHelpNamesEveryFormat() {
        #expect(CompletionsCommand.help.contains("(--format's json, text and junit)"))
    }

    /// No command writes the frame by hand: each --help is exactly the frame around its declared prose.
    @Test(arguments: CarillonTool.commands.map { $0.name })
    func everyHelpIsTheFrameAroundItsProse(command: String) throws {
        let type = try #require(CarillonTool.commands.first { $0.name == command })
        #expect(!type.overview.contains("Options:") && !type.overview.contains("Exit status:"))
        #expect(type.sections.allSatisfy { !$0.contains("Usage:") && !$0.contains("Exit status:") })
    }

    @Test(arguments: [
        ("https://a.example/x.png\n", ["https://a.example/x.png"]),
        ("  https://a/1.png\r\n\n\t\nhttps://a/2.png", ["https://a/1.png", "https://a/2.png"]),
        ("not a url\n", ["not a url"]),
        ("\n\n", []),
        // A list saved by a Windows editor: its byte order mark is not the first URL's, as in a JSON Lines file.
        ("\u{FEFF}https://a/1.png\r\nhttps://a/2.png\r\n", ["https://a/1.png", "https://a/2.png"]),
    ])
    func checkReadsOneURLALine(input: String, urls: [String]) {
        #expect(CheckCommand.urls(in: Array(input.utf8)) == urls)
    }

    @Test func checkMakesThePayloadCarillonsServerSends() throws {
        guard case .made(let name, let bytes) = CheckCommand.payload(for: "https://a.example/\"x\".png") else {
            Issue.record("not a made payload")
            return
        }
        #expect(name == "https://a.example/\"x\".png")
        let payload = try Payload(bytes: bytes)
        #expect(payload.userInfo["aps"]?["mutable-content"] == .number("1"))
        #expect(payload.userInfo["carillon"]?["image"] == .string("https://a.example/\"x\".png"))
        #expect(payload.userInfo["carillon"]?["delivery_id"] == nil)
    }
}
