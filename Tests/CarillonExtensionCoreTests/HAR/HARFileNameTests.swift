import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A recording's file names: each payload's, and which `shared_with` names a replay may read (a bare
/// name in the recording's own directory, nothing a hostile file could point elsewhere with).
@Suite struct HARFileNameTests {
    @Test(arguments: [
        ("a.json", "a.har"), ("c.jsonl:12", "c.jsonl-L12.har"), ("dir/x.json", "dir_x.har"), (".hidden.json", "payload.hidden.har"),
        ("", "payload.har"),
    ])
    func aPayloadsRecordingIsNamedAfterIt(name: String, file: String) {
        #expect(HARFileName.forPayload(named: name) == file)
    }

    @Test(arguments: [
        ("s1.har", true), ("stdin-2.har", true), ("c.jsonl-L12.har", true), ("payload..har", true),
        ("", false), (".", false), ("..", false), ("../s1.har", false), ("/etc/shadow", false), ("sub/s1.har", false),
        ("s1.har\u{0}", false), (String(repeating: "a", count: 256), false), (String(repeating: "a", count: 255), true),
    ])
    func onlyABareNameInTheRecordingsDirectoryIsShared(name: String, bare: Bool) {
        #expect(HARFileName.isBare(name) == bare)
    }
}
