extension AppChecks {
    /// One notification service extension is embedded, with a principal class.
    static func serviceExtension(_ bundle: AppBundle) -> [AppFinding] {
        let services = bundle.serviceExtensions
        guard !services.isEmpty else {
            return [
                AppFinding(
                    .serviceExtension, .fail, target: name(bundle.app),
                    "no PlugIns/*.appex has NSExtensionPointIdentifier com.apple.usernotifications.service: iOS shows every"
                        + " notification unchanged, so no image is ever attached and no receipt written")
            ]
        }
        if services.count > 1 {
            let listed = services.map { "\(Quoting.single($0.bundleName)) (\(quoted($0.bundleIdentifier)))" }.joined(separator: " and ")
            return [
                AppFinding(
                    .serviceExtension, .fail, target: name(bundle.app),
                    "\(services.count) notification service extensions, \(listed): iOS runs only one of them for a notification;"
                        + " integrate the helper into one and remove the others")
            ]
        }
        let service = services[0]
        guard let principal = service.principalClass, !principal.isEmpty else {
            return [
                AppFinding(
                    .serviceExtension, .fail, target: name(service),
                    "\(Quoting.single(service.bundleName)) has no NSExtension.NSExtensionPrincipalClass: iOS cannot start it")
            ]
        }
        return [
            AppFinding(
                .serviceExtension, .pass, target: name(service),
                "\(Quoting.single(service.bundleName)) is the notification service extension (NSExtensionPrincipalClass \(Quoting.single(principal)))"
            )
        ]
    }

    /// Every extension's bundle identifier starts with the app's and a dot.
    static func bundleIdentifierPrefix(_ bundle: AppBundle) -> [AppFinding] {
        bundle.extensions.map { target in
            guard let app = bundle.app.bundleIdentifier, let own = target.bundleIdentifier else {
                return AppFinding(
                    .bundleIdentifierPrefix, .fail, target: name(target),
                    "CFBundleIdentifier is missing from \(target.bundleIdentifier == nil ? "the extension's" : "the app's") Info.plist")
            }
            guard own.hasPrefix(app + "."), own.count > app.count + 1 else {
                return AppFinding(
                    .bundleIdentifierPrefix, .fail, target: own,
                    "\(Quoting.single(own)) does not start with the app's \(Quoting.single(app + ".")): iOS refuses to install the app")
            }
            return AppFinding(
                .bundleIdentifierPrefix, .pass, target: own, "\(Quoting.single(own)) starts with the app's \(Quoting.single(app + "."))")
        }
    }

    /// No service extension needs a newer iOS than the app.
    static func minimumOS(_ bundle: AppBundle) -> [AppFinding] {
        let appText = bundle.app.minimumOS
        return bundle.serviceExtensions.map { service in
            guard let own = AppTarget.versionNumbers(service.minimumOS), let app = AppTarget.versionNumbers(appText) else {
                return AppFinding(
                    .minimumOS, .unknown, target: name(service),
                    "MinimumOSVersion is \(quoted(service.minimumOS)) in the extension and \(quoted(appText)) in the app: not both versions"
                )
            }
            guard !AppTarget.isVersion(own, above: app) else {
                return AppFinding(
                    .minimumOS, .fail, target: name(service),
                    "the extension's MinimumOSVersion \(quoted(service.minimumOS)) is above the app's \(quoted(appText)): on a device"
                        + " from iOS \(appText ?? "") up to below \(service.minimumOS ?? "") the app installs and the extension never runs")
            }
            return AppFinding(
                .minimumOS, .pass, target: name(service),
                "the extension's MinimumOSVersion \(quoted(service.minimumOS)) is not above the app's \(quoted(appText))")
        }
    }
}
