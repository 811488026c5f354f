import CarillonTestSupport
import Foundation
import Testing

/// Issue 22 on a real terminal: the built tool runs with a pseudo-terminal (`openpty`, raw mode so that
/// the bytes read are the bytes written) as its standard output and error, and what reaches the
/// terminal holds no escape sequence, no other control character but the newline, and no bidi control.
@Suite(.timeLimit(.minutes(2))) struct PseudoTerminalTests {
    /// Runs the tool with the slave side of a new pseudo-terminal as stdout and stderr (stdin
    /// /dev/null); returns everything read from the master side and the exit status.
    static func onTerminal(_ arguments: [String]) throws -> (bytes: [UInt8], status: Int32) {
        var master: Int32 = -1
        var slave: Int32 = -1
        var raw = termios()
        cfmakeraw(&raw)
        guard openpty(&master, &slave, nil, &raw, nil) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(master) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, slave, 1)
        posix_spawn_file_actions_adddup2(&actions, slave, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addclose(&actions, slave)
        let argv = ([Paths.tool] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Paths.tool, &actions, nil, argv, environ)
        close(slave)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        // Read until the child has closed its side (EIO on Linux once no slave descriptor is open).
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (bytes, (status >> 8) & 0xFF)
    }

    /// Every character of the rule at once in every payload field, then a server that sends ESC and a
    /// CSI in its Location, Content-Type and reason phrase. One payload per run: a progress line (the
    /// tool's own, shown on a terminal for a run of several that takes a while) never appears.
    @Test(arguments: ["fields", "1b", "9b", "202e"])
    func nothingButTextAndNewlinesReachesTheTerminal(source: String) async throws {
        let work = TemporaryDirectory("pty")
        defer { work.remove() }
        let payload: String
        if source == "fields" {
            let all = HostileTextTests.characters.map(HostileTextTests.json).joined()
            payload = try work.write(
                "all.json",
                #"{"aps":{"alert":{"title":"T\#(all)","body":"B\#(all)"},"mutable-content":1,"k\#(all)":1,"k\#(all)":2},"#
                    + #""carillon":{"delivery_id":"id\#(all)","image":"https://127.0.0.1:\#(TestServer.shared.port)/img/png?\#(all)"}}"#)
        } else {
            payload = try work.write(
                "server.json",
                Payloads.routed(image: TestServer.shared.url("/hostile/redirect?c=\(source)"), deliveryID: TestDeliveryID.text(9)))
        }
        let arguments = [
            "process", "--format", "text", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("att"), "--budget", "5",
            payload,
        ]
        let run = try await onOwnThread { try Self.onTerminal(arguments) }
        let text = String(decoding: run.bytes, as: UTF8.self)
        #expect(!run.bytes.contains(0x1B), "an ESC reached the terminal: \(text)")
        #expect(HostileTextTests.offending(text).isEmpty, "\(HostileTextTests.offending(text)) reached the terminal: \(text)")
        #expect(text.contains(source == "fields" ? "is not a UUID" : "hop 1: 302"), "\(text)")
    }
}
