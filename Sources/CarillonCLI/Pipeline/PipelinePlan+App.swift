@_spi(Tooling) import CarillonExtensionCore

extension PipelinePlan {
    /// `--app APP`: the built app read and its one notification service extension's settings taken; an
    /// app that cannot be read or has not exactly one service extension is a usage error, before any work.
    static func readApp(_ arguments: ParsedArguments) throws(UsageError) -> AppRunSettings? {
        let option = PipelineOptions.app.spec.name
        guard let path = try PipelineOptions.app.read(arguments) else { return nil }
        do {
            return try AppRunSettings(try AppBundleReader.read(path))
        } catch {
            throw UsageError(message: "option '\(option)' '\(Quoting.display(path))': \(error) ('carillon-nse doctor' says more)")
        }
    }

    /// The extension's ATS, with --tls-minimum and --no-forward-secrecy, when given, in force for every host.
    static func appTransportSecurity(_ app: AppRunSettings, _ arguments: ParsedArguments) throws(UsageError) -> TransportSecurityPolicy {
        typealias Options = PipelineOptions
        let minimum = arguments.value(Options.tlsMinimum.spec.name) == nil ? nil : try Options.tlsMinimum.read(arguments)
        let forwardSecrecy: Bool? = try Options.noForwardSecrecy.read(arguments) ? false : nil
        return app.transportSecurityPolicy.overriding(minimumTLS: minimum, requiresForwardSecrecy: forwardSecrecy)
    }
}
