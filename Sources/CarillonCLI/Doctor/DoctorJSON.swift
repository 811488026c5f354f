@_spi(Tooling) import CarillonExtensionCore

/// `doctor`'s JSON document, shaped as SPEC §11 shapes it.
enum DoctorJSON {
    static func document(_ bundle: AppBundle, _ findings: [AppFinding], _ verdicts: AppVerdicts) -> JSONValue {
        .object([
            (key: "input", value: .string(FileName.jsonText(bundle.input))),
            (key: "targets", value: .array(bundle.targets.map(target))),
            (key: "findings", value: .array(findings.map(finding))),
            (key: "verdicts", value: self.verdicts(verdicts)),
            (key: "signatures_verified", value: .bool(false)),
        ])
    }

    private static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    static func target(_ target: AppTarget) -> JSONValue {
        .object([
            (key: "role", value: .string(target.role.rawValue)),
            (key: "path", value: .string(FileName.jsonText(target.path.isEmpty ? "." : target.path))),
            (key: "bundle_id", value: text(target.bundleIdentifier)),
            (key: "version", value: text(target.version)),
            (key: "short_version", value: text(target.shortVersion)),
            (key: "executable", value: text(target.executable)),
            (key: "minimum_os", value: text(target.minimumOS)),
            (key: "signed", value: .bool(target.signed)),
            (key: "encrypted", value: .bool(target.encrypted)),
            (key: "entitlements", value: target.signed ? (target.entitlements ?? .dictionary([])).json : .null),
            (key: "profile", value: target.profile.map(profile) ?? .null),
            (key: "info", value: info(target)),
        ])
    }

    static func profile(_ profile: ProvisioningProfile) -> JSONValue {
        .object([
            (key: "team_id", value: text(profile.teamIdentifier)),
            (key: "application_identifier", value: text(profile.applicationIdentifier)),
            (key: "expires", value: text(profile.expirationDate.map(AppChecks.second))),
            (key: "aps_environment", value: text(profile.apsEnvironment)),
            (key: "app_groups", value: .array(profile.appGroups.map { .string($0) })),
        ])
    }

    /// What the Info.plist says that the checks and SPEC §12 read, under Apple's names.
    static func info(_ target: AppTarget) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            (key: "CarillonAppGroup", value: text(target.carillonAppGroup)),
            (key: "NSAppTransportSecurity", value: target.transportSecurity.declared?.json ?? .null),
        ]
        if target.role == .contentExtension {
            members.append((key: "UNNotificationExtensionCategory", value: .array(target.contentCategories.map { .string($0) })))
            members.append((key: "UNNotificationExtensionDefaultContentHidden", value: .bool(target.defaultContentHidden)))
        }
        return .object(members)
    }

    static func finding(_ finding: AppFinding) -> JSONValue {
        .object([
            (key: "check", value: .string(finding.check)),
            (key: "status", value: .string(finding.status.rawValue)),
            (key: "target", value: .string(finding.target)),
            (key: "detail", value: .string(finding.detail)),
            (key: "source", value: .string(finding.source)),
        ])
    }

    static func verdicts(_ verdicts: AppVerdicts) -> JSONValue {
        func verdict(_ verdict: AppVerdicts.Verdict, _ extra: [(key: String, value: JSONValue)] = []) -> JSONValue {
            .object([(key: "status", value: .string(verdict.status.rawValue)), (key: "reason", value: .string(verdict.reason))] + extra)
        }
        let categories = JSONValue.object(verdicts.categories.keys.sorted().map { (key: $0, value: .bool(verdicts.categories[$0]!)) })
        let entitlements = JSONValue.object(verdicts.entitlements.map { (key: $0.name, value: $0.present.map { .bool($0) } ?? .null) })
        return .object([
            (key: "images", value: verdict(verdicts.images)),
            (key: "receipts", value: verdict(verdicts.receipts)),
            (
                key: "presentation",
                value: verdict(verdicts.presentation, [(key: "categories", value: categories), (key: "entitlements", value: entitlements)])
            ),
        ])
    }
}
