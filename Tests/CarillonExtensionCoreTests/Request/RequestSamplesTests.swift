import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Real requests copied from public repositories (TestAssets/Requests/README.md names each source),
/// read and judged: what each is expected to come to.
@Suite struct RequestSamplesTests {
    struct Sample: Sendable, CustomTestStringConvertible {
        var file: String
        var form: String?
        /// APNs' reason, or nil when the input is not readable as a request.
        var apns: String?
        var runs: Bool
        /// A piece of the line's story that must be said (a note, an unknown, a refusal, the problem).
        var says: String
        var testDescription: String { file }
    }

    static let samples = [
        Sample(file: "public/expoll_server-testPushNotification.sh", form: "curl", apns: "BadDeviceToken", runs: false, says: "3 URLs"),
        // The unquoted ${pemfile} splits too: --cert takes PEM, and FILE is the first of six URLs.
        Sample(file: "public/apns_docker-apns.sh", form: "curl", apns: "unknown", runs: false, says: "6 URLs"),
        Sample(file: "public/push_tester-push_prod.sh", form: "curl", apns: "accepted", runs: false, says: "no apns-push-type"),
        // One closing brace too many: the body is not JSON, so FCM refuses it before it sees 'token' outside 'message'.
        Sample(file: "public/mizuka-wu-webpush.sh", form: nil, apns: nil, runs: false, says: "FCM would refuse it"),
        Sample(file: "public/AngularWithCordova-ios-only.json", form: "fcm", apns: "accepted", runs: false, says: "not-mutable"),
        Sample(file: "public/AngularWithCordova-both.json", form: nil, apns: nil, runs: false, says: "not valid JSON"),
        Sample(file: "public/fcm-notify-simple.http", form: nil, apns: nil, runs: false, says: "FCM would refuse it"),
        Sample(file: "apple-sending-notification-requests.txt", form: "apns-text", apns: "accepted", runs: false, says: "not-mutable"),
    ]

    @Test(arguments: samples)
    func eachSampleComesToWhatItShows(sample: Sample) throws {
        let path = Paths.testAssets("Requests/" + sample.file)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let files = RequestFiles(directory: (path as NSString).deletingLastPathComponent)
        let reading: RequestReader.Reading
        do {
            reading = try RequestReader.read(bytes, files: files)
        } catch {
            #expect(sample.form == nil, "\(error)")
            #expect(error.message.contains(sample.says), "\(error)")
            return
        }
        guard case .request(let request) = reading else {
            // A payload file: read as a payload, and refused as one.
            #expect(sample.form == nil)
            let error = #expect(throws: Payload.InvalidPayload.self) { try Payload(bytes: bytes) }
            #expect(error?.message.contains(sample.says) == true, "\(String(describing: error))")
            return
        }
        #expect(request.form.rawValue == sample.form)
        let payload = try JSONParser.parse(request.body)
        let judgement = RequestJudgement.judge(request, payload: payload, attached: false)
        #expect(judgement.apns.reason == sample.apns, "\(judgement.apns.detail)")
        #expect(judgement.extensionVerdict.runs == sample.runs)
        let story = [judgement.apns.detail, judgement.extensionVerdict.why] + judgement.apns.unknown + judgement.warnings
        #expect(story.contains { $0.contains(sample.says) }, "\(story)")
    }
}
