import CarillonTestSupport
import Foundation
import Testing

/// `process --lines -` as a pipe stage (SPEC §6c), as Spark's `rdd.pipe`, Ray and `parallel --pipe` use
/// it: through real pipes, a writer that sends each line only once the answer to the one before has come
/// gets it — with and without `--jobs` — so nothing is held back for input that has not been sent; and
/// memory stays flat in the input's length.
@Suite(.timeLimit(.minutes(2))) struct PipeStageTests {
    /// The tool with pipes on standard input and output (standard error to a file), and the ends this
    /// test holds.
    final class Stage {
        let pid: pid_t
        let input: Int32
        let output: Int32
        private var pending: [UInt8] = []

        init(_ arguments: [String], errors: String) throws {
            var toChild: [Int32] = [0, 0]
            var fromChild: [Int32] = [0, 0]
            guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw POSIXError(.EMFILE) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
            posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            for descriptor in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, descriptor) }
            let argv = ([Paths.tool] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, Paths.tool, &actions, nil, argv, environ)
            close(toChild[0])
            close(fromChild[1])
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
            self.pid = pid
            input = toChild[1]
            output = fromChild[0]
        }

        func send(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        }

        /// The next output line, or nil when none comes within `seconds` (or the output ends).
        func answer(within seconds: Double) -> String? {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                if let newline = pending.firstIndex(of: 0x0A) {
                    defer { pending.removeSubrange(...newline) }
                    return String(decoding: pending[..<newline], as: UTF8.self)
                }
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return nil }
                var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                guard count > 0 else { return nil }
                pending += buffer[..<count]
            }
        }

        /// Closes standard input and waits for the exit status.
        func finish() -> Int32 {
            close(input)
            while answer(within: 10) != nil {}
            close(output)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            return (status >> 8) & 0xFF
        }
    }

    @Test(arguments: [1, 4])
    func eachLineIsAnsweredBeforeTheNextIsSent(jobs: Int) async throws {
        let work = TemporaryDirectory("pipe-stage")
        defer { work.remove() }
        let server = TestServer.shared
        let arguments = ["process", "--lines", "--ca-file", server.caFile, "--jobs", String(jobs), "-"]
        let answers = try await onOwnThread { () -> [String?] in
            let stage = try Stage(arguments, errors: work.file("stderr"))
            var answers: [String?] = []
            for index in 1...12 {
                // Every third line fetches an image (a new one each time: no shared download to lean on).
                let image = index % 3 == 0 ? server.url("/img/png?pipe=\(index)&run=\(UUID().uuidString)") : nil
                stage.send(Payloads.routed(image: image, deliveryID: TestDeliveryID.text(index)))
                let answer = stage.answer(within: 10)
                answers.append(answer)
                if answer == nil { break }
            }
            #expect(stage.finish() == 0, "\((try? String(contentsOfFile: work.file("stderr"), encoding: .utf8)) ?? "")")
            return answers
        }
        #expect(answers.count == 12 && answers.allSatisfy { $0 != nil }, "an answer held back until more input came: \(answers)")
        for (index, answer) in answers.enumerated() {
            let line = try JSONSerialization.jsonObject(with: Data((answer ?? "").utf8)) as? [String: Any]
            #expect(line?["payload"] as? String == "-:\(index + 1)")
            #expect(line?["reason"] as? String == ((index + 1) % 3 == 0 ? "attached" : "no-image"), "\(line ?? [:])")
        }
    }

    /// The same stage fed 40 times as many lines as fast as it takes them: its peak memory barely moves.
    @Test func memoryStaysFlatInTheInputsLength() async throws {
        let script = """
            import resource, subprocess, sys
            line = b'{"aps":{"alert":{"title":"Sale","body":"Recipient"},"mutable-content":1}}\\n'
            child = subprocess.Popen([sys.argv[1], "process", "--lines", "--jobs", "4", "-"], stdin=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(int(sys.argv[2]) // 1000):
                child.stdin.write(line * 1000)
            child.stdin.close()
            sys.exit(child.wait() or print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
            """
        var peaks: [Int] = []
        for count in [1_000, 40_000] {
            let result = try await shell("python3 -c \(Shell.quote(script)) \"$TOOL\" \(count)")
            #expect(result.status == 0, "\(result.standardError)")
            peaks.append(Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
        }
        #expect(peaks[0] > 0 && peaks[1] - peaks[0] < 8 * 1024, "peak RSS in KiB for 1,000 and 40,000 lines: \(peaks)")
    }
}
