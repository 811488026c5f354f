extension AppChecks {
    /// Each target's executable carries a code signature with a CodeDirectory.
    static func signed(_ bundle: AppBundle) -> [AppFinding] {
        bundle.targets.map { target in
            let executable = quoted(target.executable)
            guard let binary = target.binary else {
                return AppFinding(
                    .signed, .fail, target: name(target),
                    target.executable == nil
                        ? "Info.plist has no CFBundleExecutable"
                        : "the executable \(executable) is not in \(Quoting.single(target.bundleName))")
            }
            guard target.signed else {
                let why =
                    binary.slices.contains { $0.signatureRange != nil }
                    ? "its code signature holds no CodeDirectory" : "it has no LC_CODE_SIGNATURE"
                return AppFinding(.signed, .fail, target: name(target), "the executable \(executable) is not signed: \(why)")
            }
            let identifier = binary.slices.lazy.compactMap(\.codeSignature).first?.identifier
            let encrypted = target.encrypted ? "; encrypted by the App Store (cryptid 1), its entitlements still readable" : ""
            return AppFinding(
                .signed, .pass, target: name(target),
                "the executable \(executable) has a code signature with a CodeDirectory (identifier \(quoted(identifier)))\(encrypted);"
                    + " its hashes and Apple's signature are not verified")
        }
    }

    /// Each target has a profile whose application identifier covers `PREFIX.bundle-id`.
    static func profile(_ bundle: AppBundle) -> [AppFinding] {
        bundle.targets.map { target in
            guard let profile = target.profile else {
                if target.encrypted {
                    return AppFinding(
                        .profile, .unknown, target: name(target),
                        "no embedded.mobileprovision: an App Store build carries none, its provisioning is Apple's")
                }
                return AppFinding(
                    .profile, .fail, target: name(target),
                    "no embedded.mobileprovision in \(Quoting.single(target.bundleName)): a device build without a profile does not install"
                )
            }
            let wanted = "\(profile.applicationIdentifierPrefix ?? "?").\(target.bundleIdentifier ?? "?")"
            guard let pattern = profile.applicationIdentifier, ProvisioningProfile.covers(pattern, wanted) else {
                return AppFinding(
                    .profile, .fail, target: name(target),
                    "the profile's application-identifier \(quoted(profile.applicationIdentifier)) does not cover \(Quoting.single(wanted))"
                        + ": the bundle is not the one the profile was made for")
            }
            return AppFinding(
                .profile, .pass, target: name(target),
                "the profile \(quoted(profile.name)) (team \(quoted(profile.teamIdentifier))) covers \(Quoting.single(wanted)) with \(Quoting.single(pattern))"
            )
        }
    }

    /// Each profile is still valid at `instant`.
    static func profileExpiry(_ bundle: AppBundle, at instant: Timestamp) -> [AppFinding] {
        bundle.targets.compactMap { target in
            guard let profile = target.profile else { return nil }
            guard let expiry = profile.expirationDate else {
                return AppFinding(.profileExpiry, .unknown, target: name(target), "the profile has no ExpirationDate")
            }
            let text = Self.second(expiry)
            guard instant < expiry else {
                return AppFinding(
                    .profileExpiry, .fail, target: name(target),
                    "the profile expired at \(text), before \(Self.second(instant)): iOS no longer launches the target")
            }
            return AppFinding(.profileExpiry, .pass, target: name(target), "the profile expires at \(text), after \(Self.second(instant))")
        }
    }

    /// An instant as ISO 8601, UTC, to the second.
    package static func second(_ instant: Timestamp) -> String {
        let text = instant.iso8601
        return String(text.prefix(19)) + "Z"
    }

    /// The app is signed for push, in the environment its profile allows.
    static func apsEnvironment(_ bundle: AppBundle) -> [AppFinding] {
        let app = bundle.app
        guard app.signed else {
            return [AppFinding(.apsEnvironment, .unknown, target: name(app), "the app is not signed: no entitlements to read")]
        }
        guard let signed = app.apsEnvironment else {
            return [
                AppFinding(
                    .apsEnvironment, .fail, target: name(app),
                    "the app is not signed with aps-environment: the Push Notifications capability is off, so APNs delivers nothing to it")
            ]
        }
        guard let profile = app.profile else {
            return [
                AppFinding(
                    .apsEnvironment, .unknown, target: name(app), "signed aps-environment \(Quoting.single(signed)); no profile to compare")
            ]
        }
        guard profile.apsEnvironment == signed else {
            return [
                AppFinding(
                    .apsEnvironment, .fail, target: name(app),
                    "signed aps-environment \(Quoting.single(signed)), the profile's \(quoted(profile.apsEnvironment)): the profile does"
                        + " not allow it, and a token of one environment is refused by the other's APNs host")
            ]
        }
        return [
            AppFinding(.apsEnvironment, .pass, target: name(app), "signed aps-environment \(Quoting.single(signed)), as its profile allows")
        ]
    }
}
