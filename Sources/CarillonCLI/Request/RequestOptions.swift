@_spi(Tooling) import CarillonExtensionCore

/// The options that state what SPEC §12 cannot know of the app and the device without them, declared
/// once: `--content-categories` (the app's content extensions, as `--app` would read them) and
/// `--previews` (a setting of the phone).
enum RequestOptions {
    /// `--previews`: the device's Show Previews, or `unknown` (the default: the lock screen is `unknown`).
    enum Previews: String, CaseIterable, Sendable {
        case unknown, always
        case whenUnlocked = "when-unlocked"
        case never

        var setting: ShowPreviews? { ShowPreviews(rawValue: rawValue) }
    }

    static let contentCategories = Option.text(
        "--content-categories", "LIST",
        help: "Categories a content extension claims, comma-separated (NAME:hidden when its default content is hidden)."
    ).discussing(
        "What an app's content extensions declare (UNNotificationExtensionCategory, UNNotificationExtensionDefaultContentHidden):"
            + " a notification of such a category shows the image only in the extension's view, when expanded, and with the default"
            + " content hidden only if that view draws it. Without it, a category is taken as no content extension's.")
    static let previews = Option.choice(
        "--previews", Previews.allCases, default: .unknown,
        help: "The device's Show Previews setting, which decides whether the lock screen shows the image."
    ).discussing("iOS's default is when-unlocked: a locked screen shows no content. Unknown leaves the lock screen unknown.")

    static let specs: [OptionSpec] = [contentCategories.spec, previews.spec]

    /// Reads what the run states of the app and the device into `plan`: the one place these options are
    /// read (the app's own facts, from `--app`, fill the same ``PipelinePlan/presentationFacts``).
    static func read(_ arguments: ParsedArguments, into plan: inout PipelinePlan) throws(UsageError) {
        if let text = try contentCategories.read(arguments) {
            plan.presentationFacts.contentExtensionCategories = try categories(text)
        }
        plan.previews = try previews.read(arguments).setting
    }

    /// `MEETING,CHAT:hidden`: each category, and whether its default content is hidden.
    static func categories(_ text: String) throws(UsageError) -> [String: Bool] {
        var categories: [String: Bool] = [:]
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            var name = String(item).filter { $0 != " " }
            let hidden = name.hasSuffix(":hidden")
            if hidden { name = String(name.dropLast(":hidden".count)) }
            guard !name.isEmpty else {
                throw UsageError(message: "option '--content-categories' needs category names, comma-separated, not '\(text)'")
            }
            categories[name] = hidden
        }
        return categories
    }
}
