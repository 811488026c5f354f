extension AppChecks {
    /// The group the hand-off runs through: the app's `CarillonAppGroup`, else an extension's.
    static func handOffGroup(_ bundle: AppBundle) -> String? {
        handOffTargets(bundle).lazy.compactMap(\.carillonAppGroup).first
    }

    /// `CarillonAppGroup` is in both Info.plists, and the same. None anywhere is a warning (images still
    /// work; receipts wait for the app to run); any disagreement a failure.
    static func appGroupInfo(_ bundle: AppBundle) -> [AppFinding] {
        let targets = handOffTargets(bundle)
        let app = bundle.app
        guard targets.contains(where: { $0.carillonAppGroup != nil }) else {
            return [
                AppFinding(
                    .appGroupInfo, .warn, target: name(app),
                    "no CarillonAppGroup in the app's or the extension's Info.plist: images are attached, but receipts are kept only"
                        + " while the app runs")
            ]
        }
        return targets.dropFirst().map { service in
            let (own, apps) = (service.carillonAppGroup, app.carillonAppGroup)
            guard own == apps else {
                let why =
                    own == nil
                    ? "the extension writes no receipt"
                    : apps == nil
                        ? "the app never reads the receipts the extension writes" : "receipts would be written where the app never looks"
                return AppFinding(
                    .appGroupInfo, .fail, target: name(service),
                    "CarillonAppGroup is \(quoted(apps)) in the app's Info.plist and \(quoted(own)) in the extension's: \(why)")
            }
            return AppFinding(.appGroupInfo, .pass, target: name(service), "CarillonAppGroup is \(quoted(own)) in both Info.plists")
        }
    }

    /// The group is among each target's signed App Groups.
    static func appGroupEntitlements(_ bundle: AppBundle) -> [AppFinding] {
        guard let group = handOffGroup(bundle) else {
            return [AppFinding(.appGroupEntitlements, .unknown, target: name(bundle.app), "no CarillonAppGroup names a group to look for")]
        }
        return handOffTargets(bundle).map { target in
            guard target.signed else {
                return AppFinding(.appGroupEntitlements, .unknown, target: name(target), "not signed: no entitlements to read")
            }
            let groups = target.appGroups
            guard groups.contains(group) else {
                return AppFinding(
                    .appGroupEntitlements, .fail, target: name(target),
                    "\(Quoting.single(group)) is not among the signed com.apple.security.application-groups (\(listed(groups))): the"
                        + " shared container cannot be opened")
            }
            return AppFinding(.appGroupEntitlements, .pass, target: name(target), "signed with the App Group \(Quoting.single(group))")
        }
    }

    /// The group is in each target's provisioning profile.
    static func appGroupProfiles(_ bundle: AppBundle) -> [AppFinding] {
        guard let group = handOffGroup(bundle) else {
            return [AppFinding(.appGroupProfiles, .unknown, target: name(bundle.app), "no CarillonAppGroup names a group to look for")]
        }
        return handOffTargets(bundle).map { target in
            guard let profile = target.profile else {
                return AppFinding(.appGroupProfiles, .unknown, target: name(target), "no profile to read")
            }
            guard profile.appGroups.contains(group) else {
                return AppFinding(
                    .appGroupProfiles, .fail, target: name(target),
                    "the profile's application-groups (\(listed(profile.appGroups))) do not include \(Quoting.single(group)): the"
                        + " entitlement is not allowed, and iOS refuses the signature")
            }
            return AppFinding(.appGroupProfiles, .pass, target: name(target), "the profile includes the App Group \(Quoting.single(group))")
        }
    }

    static func listed(_ values: [String]) -> String {
        values.isEmpty ? "none" : values.map { Quoting.single($0) }.joined(separator: ", ")
    }
}
