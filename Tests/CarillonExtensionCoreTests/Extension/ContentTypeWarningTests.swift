import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A `Content-Type` that disagrees with the bytes is a warning, never a refusal (SPEC §2: the bytes decide).
@Suite struct ContentTypeWarningTests {
    @Test(arguments: [
        ("image/png", ImageType.png, false),
        ("IMAGE/PNG; charset=binary", .png, false),
        ("image/jpeg", .jpeg, false),
        ("image/jpg", .jpeg, false),
        ("image/gif", .gif, false),
        ("image/jpeg", .png, true),
        ("text/html", .gif, true),
        ("application/octet-stream", .png, true),
        ("", .jpeg, true),
    ])
    func warnsWhenTheHeaderDisagreesWithTheBytes(_ contentType: String, _ detected: ImageType, _ warns: Bool) {
        let warning = ContentTypeWarning.warning(contentType: contentType, detected: detected)
        #expect((warning != nil) == warns)
        if let warning { #expect(warning.hasPrefix("the server sent Content-Type '\(contentType)' for \(detected.rawValue) bytes")) }
    }

    @Test func noHeaderNoWarning() {
        #expect(ContentTypeWarning.warning(contentType: nil, detected: .png) == nil)
    }

    @Test(.timeLimit(.minutes(1)), arguments: [("/img/png-as-jpeg", true), ("/img/png", false)])
    func theAttachedImageCarriesTheWarning(_ path: String, _ warns: Bool) async throws {
        let directory = TemporaryDirectory("content-type")
        defer { directory.remove() }
        let request = try NotificationServiceTests.request(image: TestServer.shared.url(path))
        let configuration = NotificationServiceTests.configuration(directory)
        let result = try await onOwnThread {
            NotificationService.process(
                request, configuration: configuration, pool: DownloaderPool(configuration: configuration.download),
                timeWillExpireAfter: .seconds(30))
        }
        #expect(result.outcome.reason == .attached)
        #expect(
            result.warnings.contains { $0.hasPrefix("the server sent Content-Type 'image/jpeg' for png bytes") } == warns,
            "\(result.warnings)")
    }
}
