import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// What a payload becomes as iOS's `UNNotificationContent`: the alert's title, subtitle and body, badge,
/// sound, and the payload itself as `userInfo`.
@Suite struct NotificationContentTests {
    static func content(_ text: String) throws -> NotificationContent {
        NotificationContent(payload: try Payload(bytes: Array(text.utf8)))
    }

    @Test func anAlertDictionaryGivesTitleSubtitleAndBody() throws {
        let content = try Self.content(#"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B"},"badge":3,"sound":"default"}}"#)
        #expect(content.title == "T" && content.subtitle == "S" && content.body == "B")
        #expect(content.badge == "3" && content.sound == "default")
        #expect(content.attachments.isEmpty)
    }

    @Test func anAlertStringIsTheBody() throws {
        let content = try Self.content(#"{"aps":{"alert":"just a body"}}"#)
        #expect(content.title == "" && content.subtitle == "" && content.body == "just a body")
    }

    @Test func thePayloadBytesAreKeptExactlyAsUserInfo() throws {
        let text = #"{"aps":{"alert":"x"},  "carillon" : {"delivery_id":"A"}}"#
        let content = try Self.content(text)
        #expect(content.userInfoBytes == Array(text.utf8))
        let request = NotificationRequest(identifier: "one", payload: try Payload(bytes: Array(text.utf8)))
        #expect(request.identifier == "one" && request.content == content)
    }
}
