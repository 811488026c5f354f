@_spi(Tooling) import CarillonExtensionCore

/// `doctor --format text`: the app, its targets, the findings and the verdicts, for a person.
enum DoctorText {
    static func report(_ bundle: AppBundle, _ findings: [AppFinding], _ verdicts: AppVerdicts) -> String {
        var lines = ["\(Quoting.display(bundle.input)): \(form(bundle)) holding \(bundle.app.bundleName)"]
        for target in bundle.targets { lines.append("  " + describe(target)) }
        lines.append("")
        lines.append("findings:")
        let width = (findings.map(\.check.count).max() ?? 0) + 2
        for finding in findings {
            let check = finding.check + String(repeating: " ", count: width - finding.check.count)
            lines.append("  \(finding.status.rawValue.padding(7))\(check)\(finding.target): \(finding.detail)")
        }
        lines.append("")
        lines.append("verdicts:")
        for (name, verdict) in [("images", verdicts.images), ("receipts", verdicts.receipts), ("presentation", verdicts.presentation)] {
            lines.append("  \(name.padding(14))\(verdict.status.rawValue.padding(6))\(verdict.reason)")
        }
        let categories = verdicts.categories.keys.sorted().map { "\($0)\(verdicts.categories[$0]! ? " (default content hidden)" : "")" }
        if !categories.isEmpty { lines.append("  content-extension categories: " + categories.joined(separator: ", ")) }
        let entitlements = verdicts.entitlements.map { "\($0.name) \($0.present.map { $0 ? "yes" : "no" } ?? "unknown")" }
        lines.append("  notification entitlements: " + entitlements.joined(separator: ", "))
        lines.append("")
        lines.append(
            "Apple's signatures were not verified: \"signed\" means a code signature with a CodeDirectory; its hashes, its CMS"
                + " signature and the profiles' signatures are not checked.")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func form(_ bundle: AppBundle) -> String {
        switch bundle.form {
        case .ipa: return "an .ipa"
        case .app: return "an .app"
        case .xcarchive: return "an .xcarchive"
        case .zip: return "a zip"
        }
    }

    /// One target on a line: role, identifier, versions, signing, profile, and the facts of its form.
    private static func describe(_ target: AppTarget) -> String {
        var parts = ["\(target.bundleIdentifier ?? "?") \(target.shortVersion ?? "?") (\(target.version ?? "?"))"]
        parts.append("iOS \(target.minimumOS ?? "?")+")
        var signing = target.signed ? "signed" : "not signed"
        if target.encrypted { signing += ", encrypted" }
        if let form = target.entitlementsForm { signing += ", entitlements \(form.rawValue == "der" ? "DER only" : "XML")" }
        parts.append(signing)
        if let binary = target.binary {
            parts.append((binary.isFat ? "fat: " : "") + binary.slices.map(\.architecture).joined(separator: ", "))
        }
        parts.append("Info.plist \(target.infoForm == .binary ? "binary" : "XML")")
        if let profile = target.profile {
            let expires = profile.expirationDate.map(AppChecks.second) ?? "?"
            parts.append("profile '\(profile.name ?? "?")' (team \(profile.teamIdentifier ?? "?"), expires \(expires))")
        } else {
            parts.append("no profile")
        }
        return target.role.rawValue.padding(19) + parts.joined(separator: ", ") + " — " + target.bundleName
    }
}

extension String {
    /// The text followed by spaces up to `width` characters (at least one space).
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: Swift.max(1, width - count)) }
}
