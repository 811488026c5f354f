@_spi(Tooling) import CarillonExtensionCore
import Testing

@Suite struct UploadResponseTests {
    @Test(arguments: [
        (Int?.none, 100, UploadOutcome.retry),
        (200, 100, .sent), (201, 1, .sent), (202, 50, .sent), (204, 3, .sent),
        (408, 100, .retry), (429, 100, .retry), (500, 100, .retry), (502, 100, .retry), (503, 100, .retry), (504, 100, .retry),
        (501, 100, .retry), (599, 100, .retry), (100, 100, .retry), (301, 100, .retry), (307, 100, .retry),
        (401, 100, .refused), (403, 1, .refused),
        (413, 100, .split), (413, 2, .split), (413, 1, .setAside),
        (400, 100, .setAside), (404, 100, .setAside), (409, 100, .setAside), (415, 100, .setAside), (422, 100, .setAside),
        (499, 100, .setAside),
    ])
    func classification(status: Int?, batchSize: Int, outcome: UploadOutcome) {
        #expect(UploadResponse.classify(status: status, batchSize: batchSize) == outcome)
    }

    @Test(arguments: [
        (#"{"received": 100}"#, Int?.some(100)), (#"{"received":0}"#, 0), (#" {"ok":true,"received":7} "#, 7),
        (#"{"received":"7"}"#, nil), (#"{"received":1.5}"#, nil), ("[]", nil), ("", nil), ("<html>", nil), (#"{"count":3}"#, nil),
    ])
    func receivedCount(body: String, received: Int?) {
        #expect(UploadResponse.received(Array(body.utf8)) == received)
    }

    @Test func outcomeWordsAreTheDocumentedOnes() {
        #expect(UploadOutcome.allCases.map(\.rawValue) == ["sent", "retry", "refused", "split", "set-aside"])
    }
}
