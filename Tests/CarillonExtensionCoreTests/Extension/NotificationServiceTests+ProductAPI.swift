import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The product-shaped API: `CarillonNotificationExtension`.
extension NotificationServiceTests {
    // MARK: - The product-shaped API

    @Test(.timeLimit(.minutes(1)))
    func productAPIDeliversTheOriginalOnceWhenTimeRunsOut() async throws {
        let directory = TemporaryDirectory("product")
        defer { directory.remove() }
        let request = try Self.request(image: TestServer.shared.url("/stall/headers?seconds=60"))
        let recorder = CallRecorder<NotificationContent>()
        let helper = CarillonNotificationExtension.didReceive(
            request, configuration: Self.configuration(directory, limits: .standard), withContentHandler: recorder.record)
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.count == 0)

        let expiry = ContinuousClock.now
        CarillonNotificationExtension.serviceExtensionTimeWillExpire(helper)
        let content = try #require(await recorder.first(within: .seconds(5)))
        #expect(try #require(recorder.firstInstant) - expiry < .milliseconds(100))
        CarillonNotificationExtension.serviceExtensionTimeWillExpire(helper)
        CarillonNotificationExtension.serviceExtensionTimeWillExpire(nil)
        #expect(await helper.service.finished() < .seconds(1))
        #expect(recorder.count == 1)
        #expect(content == request.content)
        #expect(try Self.entries(directory) == [])
    }

    @Test(.timeLimit(.minutes(1)))
    func productAPIDeliversTheAttachmentOnce() async throws {
        let directory = TemporaryDirectory("product-attached")
        defer { directory.remove() }
        let request = try Self.request(image: TestServer.shared.url("/img/gif"))
        let recorder = CallRecorder<NotificationContent>()
        let helper = CarillonNotificationExtension.didReceive(
            request, configuration: Self.configuration(directory), withContentHandler: recorder.record)
        let content = try #require(await recorder.first(within: .seconds(10)))
        await helper.service.finished()
        CarillonNotificationExtension.serviceExtensionTimeWillExpire(helper)
        try await Task.sleep(for: .milliseconds(100))
        #expect(recorder.count == 1)
        #expect(content.attachments.count == 1)
        #expect(content.attachments.first?.type == .gif)
        var withoutAttachments = content
        withoutAttachments.attachments = []
        #expect(withoutAttachments == request.content)
        let path = try #require(content.attachments.first?.path)
        #expect(FileSystem.exists(path))
    }

    @Test func productAPIDeliversAPayloadWithoutImageUnchanged() async throws {
        let directory = TemporaryDirectory("product-no-image")
        defer { directory.remove() }
        let request = try Self.request(image: nil)
        let recorder = CallRecorder<NotificationContent>()
        let helper = CarillonNotificationExtension.didReceive(
            request, configuration: Self.configuration(directory), withContentHandler: recorder.record)
        let content = try #require(await recorder.first(within: .seconds(5)))
        CarillonNotificationExtension.serviceExtensionTimeWillExpire(helper)
        CarillonNotificationExtension.serviceExtensionTimeWillExpire(nil)
        await helper.service.finished()
        #expect(recorder.count == 1)
        #expect(content == request.content)
        #expect(try Self.entries(directory) == [])
    }

    @Test func timeWillExpireWithoutHelperIsHarmless() {
        CarillonNotificationExtension.serviceExtensionTimeWillExpire(nil)
    }

}
