@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse doctor APP`: a built app checked against what the extension needs (SPEC §11).
enum DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "Check a built app (.ipa, .app, .xcarchive or a zip of one) against what the extension needs."

    /// Every option, declared once: the parser's table, `--help` and the values `run` reads.
    enum Options {
        static let format = Option.choice(
            "--format", [PayloadRunner.OutputFormat.json, .text], default: .json,
            help: "One JSON document, or a readable report for a person.")
        static let at = Option.instant("--at", help: "The instant provisioning profiles are judged at, e.g. 2026-08-20T09:16:44Z.")
    }

    static let options: [OptionSpec] = [Options.format.spec, Options.at.spec]

    static let arguments = [
        ArgumentSpec(
            name: "APP", value: .file,
            about: "An .ipa, an .xcarchive directory, a .app directory, or a zip of an .app or an .xcarchive.")
    ]

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "No check failed (warnings and unknowns aside)."),
        ExitStatus(
            code: 1,
            meaning: "APP is unreadable, a hostile archive, or not an app: one line on standard error names the file and the member."),
        ExitStatus(code: 2, meaning: "A check failed."),
        ExitStatus(code: 64, meaning: "Bad usage."),
    ]

    static let overview = """
        Reads a built app, on Linux, without signing or installing anything, and checks what decides
        whether its Notification Service Extension runs and hands receipts to the app, as Carillon's
        SDK README sets it up: one service extension embedded, its bundle identifier prefixed by the
        app's, its MinimumOSVersion not above the app's, each target signed and covered by an unexpired
        profile, the app's aps-environment as its profile allows, the CarillonAppGroup hand-off (the
        same group in both Info.plists, both signed entitlements and both profiles), the extension's
        own App Transport Security, and what content extensions and notification entitlements mean for
        where the image shows.

        Archives are checked whole before any member is read: a member name that is absolute or climbs
        out (..), a zip bomb, overlapping members or a truncated directory is exit 1. Only the members
        the checks need are read. Apple's signatures are not verified: "signed" means a code signature
        with a CodeDirectory, and a profile's CMS signature is not checked.
        """

    static let sections = [
        """
        The JSON document has: input, targets ([{role, path, bundle_id, version, short_version,
        executable, minimum_os, signed, encrypted, entitlements, profile ({team_id,
        application_identifier, expires, aps_environment, app_groups} or null), info}]), findings
        ([{check, status (pass, fail, warn, unknown), target, detail, source}]), verdicts ({images,
        receipts, presentation}, each {status, reason}; presentation also categories and entitlements)
        and signatures_verified (false). Documentation/Doctor.md lists every check and its source.
        """
    ]

    /// The app, the format and the instant, checked.
    struct Plan {
        var app: String
        var format: PayloadRunner.OutputFormat
        var at: Timestamp
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        let format = try Options.format.read(arguments)
        let at = try Options.at.read(arguments)
        guard let app = arguments.positionals.first else { throw UsageError(message: "no APP given") }
        guard arguments.positionals.count == 1 else {
            throw UsageError(message: "unexpected argument '\(arguments.positionals[1])': one APP at a time")
        }
        return Plan(app: app, format: format, at: at)
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        let bundle: AppBundle
        do {
            bundle = try AppBundleReader.read(plan.app)
        } catch {
            io.standardError.line("\(CarillonTool.name) \(name): \(Quoting.display(plan.app)): \(error)")
            return CarillonTool.exitDataError
        }
        let findings = AppChecks.run(bundle, at: plan.at)
        let verdicts = AppVerdicts(findings, bundle)
        switch plan.format {
        case .text: io.standardOutput.write(DoctorText.report(bundle, findings, verdicts))
        default: io.standardOutput.write(JSONWriter.string(DoctorJSON.document(bundle, findings, verdicts)) + "\n")
        }
        return findings.contains { $0.status == .fail } ? CarillonTool.exitFailOn : CarillonTool.exitSuccess
    }
}
