@_spi(Tooling) import CarillonExtensionCore

/// What a run says once on standard error about requests and images, after its summary line: that the
/// payload files among requests have no header checks (SPEC §12: said once, not on every line), and
/// distinct image URLs that answered the same bytes.
enum RequestNotes {
    /// `previews`: `--previews` was given; `failOn`: the run's (a merge gives its own and no previews).
    static func print(_ report: PayloadRunner.Report, identical: [IdenticalImages.Group], previews: Bool, failOn: FailOn?, io: ToolIO) {
        let requests = report.requests
        // Said where the run is about requests: some input was one, or a request option was given.
        let asked = requests.requests > 0 || previews || !(failOn?.requestConditions.isEmpty ?? true)
        if requests.plainPayloads > 0 && asked {
            let count = requests.plainPayloads
            io.standardError.line(
                "\(CarillonTool.name): note: \(count) input\(count == 1 ? " is a payload file" : "s are payload files"), without the request "
                    + "that carries \(count == 1 ? "it" : "them"): APNs' header checks are unknown there (give the curl command, the APNs request text or the FCM message)"
            )
        }
        for group in identical { io.standardError.line("\(CarillonTool.name): warning: \(group.warning)") }
    }
}
