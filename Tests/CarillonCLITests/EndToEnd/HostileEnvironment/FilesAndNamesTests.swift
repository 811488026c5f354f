import CarillonTestSupport
import Foundation
import Testing

/// SPEC §8: files in the container and the queue that are not what their names say — FIFOs, links,
/// names that are not UTF-8, numbers at the edge of Int64 — umasks and modes, and misconfigured paths,
/// all with the real tool on real files.
@Suite(.timeLimit(.minutes(3))) struct FilesAndNamesTests {
    let id1 = TestDeliveryID.text(1)

    func receiptText(_ id: String) -> String { #"{"format":1,"delivery_id":"\#(id)","received_at":"2026-08-20T09:16:44.120Z"}"# + "\n" }

    @Test func fifosNamedLikeRecordsNeverBlockAndAreSetAside() async throws {
        let work = TemporaryDirectory("fifos")
        defer { work.remove() }
        let receipts = work.file("c/CarillonReceipts")
        try FileManager.default.createDirectory(atPath: receipts, withIntermediateDirectories: true)
        try receiptText(id1).write(toFile: receipts + "/\(id1).receipt", atomically: true, encoding: .utf8)
        #expect(mkfifo(receipts + "/\(TestDeliveryID.text(2)).receipt", 0o600) == 0)
        let drain = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(drain.status == 1)
        #expect(drain.jsonLines.count == 1)
        #expect(drain.standardError.contains("not a regular file but a FIFO, socket or device; set aside as"))
        #expect(work.contents("c/CarillonReceipts/Quarantine").contains("\(TestDeliveryID.text(2)).receipt"))

        // FIFOs as an event file and as the counter: open and batches go on.
        #expect(mkfifo(work.file("q/received-\(TestDeliveryID.text(3)).event"), 0o600) == 0)
        try FileManager.default.removeItem(atPath: work.file("q/.sequence"))
        #expect(mkfifo(work.file("q/.sequence"), 0o600) == 0)
        let payload = try work.write("p.json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(4)))
        let open = try await tool(["open", "--queue", work.file("q"), payload])
        #expect(open.status == 0, "\(open.standardError)")
        let batches = try await tool(["batches", "--queue", work.file("q")])
        #expect(batches.status == 1)
        #expect(batches.standardError.contains("received-\(TestDeliveryID.text(3)).event: cannot read: not a regular file"))
        #expect(batches.standardOutput.contains(id1) && batches.standardOutput.contains(TestDeliveryID.text(4)))

        // A FIFO named *.json in a payload directory is skipped with a line; the others run.
        try FileManager.default.createDirectory(atPath: work.file("payloads"), withIntermediateDirectories: true)
        _ = try work.write("payloads/a.json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(5)))
        #expect(mkfifo(work.file("payloads/b.json"), 0o600) == 0)
        let process = try await tool(["process", work.file("payloads")])
        #expect(process.status == 1)
        #expect(process.jsonLines.count == 1)
        #expect(process.standardError.contains("b.json: a FIFO, socket or device, not a payload file; skipped"))
        // A pipe named on the command line is still read: process substitution, and /dev/stdin.
        let substituted = try await onOwnThread {
            try Command.run("/bin/bash", ["-c", "\"$TOOL\" process <(cat \(Shell.quote(payload)))"], environment: ["TOOL": Paths.tool])
        }
        #expect(substituted.status == 0, "\(substituted.standardError)")
        #expect(substituted.jsonLines.first?["delivery_id"] as? String == TestDeliveryID.text(4))
        let stdinPipe = try await shell("cat \(Shell.quote(payload)) | \"$TOOL\" process /dev/stdin")
        #expect(stdinPipe.status == 0)
        #expect(stdinPipe.jsonLines.first?["delivery_id"] as? String == TestDeliveryID.text(4))
        let zero = try await tool(["process", "/dev/zero"])
        #expect(zero.status == 1)
        #expect(zero.standardError.contains("/dev/zero: more than 1048576 bytes (the limit for a payload file) from a pipe or device"))
    }

    @Test func aReceiptSwappedForAFifoAfterTheListingIsRefusedOnItsDescriptor() async throws {
        // strace holds the drain's open of the receipt (`-P` traces only calls naming that path, and the
        // listing names none) for three seconds; meanwhile the test swaps the file for a FIFO. Opened with
        // O_NOFOLLOW | O_NONBLOCK and checked with fstat, it is set aside instead of blocking the drain.
        try RequiredPackage.command("strace", package: "strace")
        let work = TemporaryDirectory("swap")
        defer { work.remove() }
        let receipts = work.file("c/CarillonReceipts")
        try FileManager.default.createDirectory(atPath: receipts, withIntermediateDirectories: true)
        let target = receipts + "/\(id1).receipt"
        try receiptText(id1).write(toFile: target, atomically: true, encoding: .utf8)
        // On a thread of its own: the swap must come while the open is held, whatever the other tests
        // are doing to Swift's cooperative threads.
        let container = work.file("c")
        let queue = work.file("q")
        let (hung, status, stderr, swapped) = try await onOwnThread { () throws -> (Bool, Int32, String, Bool) in
            let drain = Process()
            drain.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
            drain.arguments = [
                "-f", "-qq", "-o", "/dev/null", "-P", target, "-e", "inject=openat:delay_enter=3000000", Paths.tool, "drain", "--container",
                container, "--queue", queue,
            ]
            // Standard error to a file, never a pipe (see Command.run).
            let errorPath = container + "/../stderr.txt"
            _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
            let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
            defer { try? errors.close() }
            drain.standardOutput = FileHandle.nullDevice
            drain.standardError = errors
            try drain.run()
            // Swap once the drain sits in the held openat: its /proc/PID/syscall then reads "257 …"
            // (openat on x86_64) and keeps reading so; any other openat passes in microseconds.
            let started = Date()
            var held = 0
            while held < 3 && Date().timeIntervalSince(started) < 10 {
                let children =
                    (try? String(
                        contentsOfFile: "/proc/\(drain.processIdentifier)/task/\(drain.processIdentifier)/children", encoding: .utf8)) ?? ""
                let inOpen = children.split(separator: " ").contains { child in
                    ((try? String(contentsOfFile: "/proc/\(child)/syscall", encoding: .utf8)) ?? "").hasPrefix("257 ")
                }
                held = inOpen ? held + 1 : 0
                Thread.sleep(forTimeInterval: 0.02)
            }
            let swapped = (try? FileManager.default.removeItem(atPath: target)) != nil && mkfifo(target, 0o600) == 0
            let deadline = Date().addingTimeInterval(10)
            while drain.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            let hung = drain.isRunning
            if hung { kill(drain.processIdentifier, SIGKILL) }
            drain.waitUntilExit()
            return (hung, drain.terminationStatus, (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "", swapped)
        }
        #expect(swapped, "the receipt was gone before the swap: the open was not held")
        #expect(!hung, "the drain blocked on the FIFO")
        #expect(status == 1)
        #expect(stderr.contains("cannot read: not a regular file but a FIFO, socket or device; set aside as"), "\(stderr)")

        // A receipt that is a link is never followed, wherever it points.
        try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: "/etc/passwd")
        let linked = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(linked.status == 1)
        #expect(linked.standardError.contains("not a regular file but a symbolic link; set aside"))
        #expect(FileManager.default.fileExists(atPath: "/etc/passwd"))
    }

    @Test func sequenceNumbersAtTheEdgeOfInt64NeverTrap() async throws {
        let work = TemporaryDirectory("int-max")
        defer { work.remove() }
        try FileManager.default.createDirectory(atPath: work.file("q"), withIntermediateDirectories: true)
        try #"{"format":1,"next":9223372036854775806}"#.appending("\n").write(
            toFile: work.file("q/.sequence"), atomically: true, encoding: .utf8)
        let first = try work.write("p1.json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(1)))
        let second = try work.write("p2.json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(2)))
        let open1 = try await tool(["open", "--queue", work.file("q"), first])
        #expect(open1.status == 0, "\(open1.standardError)")
        // An event file at Int64.max itself, as a tampered or corrupt queue may hold.
        let big =
            #"{"format":1,"sequence":9223372036854775807,"type":"received","delivery_id":"\#(TestDeliveryID.text(9))","at":"2026-08-20T09:16:44.120Z"}"#
        try (big + "\n").write(toFile: work.file("q/received-\(TestDeliveryID.text(9)).event"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: work.file("q/.sequence"))
        let open2 = try await tool(["open", "--queue", work.file("q"), second])
        #expect(open2.status == 0, "\(open2.standardError)")
        #expect(open2.standardError.contains("were renumbered 1…2 in their order"), "\(open2.standardError)")
        // Every event is still there, in the order it was queued.
        let batches = try await tool(["batches", "--queue", work.file("q")])
        #expect(batches.status == 0)
        let body = batches.standardOutput
        let order = [TestDeliveryID.text(1), TestDeliveryID.text(9), TestDeliveryID.text(2)].map { body.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        // A counter behind the queued events is rebuilt, never reused.
        try #"{"format":1,"next":1}"#.appending("\n").write(toFile: work.file("q/.sequence"), atomically: true, encoding: .utf8)
        let third = try work.write("p3.json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(3)))
        let rebuilt = try await tool(["open", "--queue", work.file("q"), third])
        #expect(rebuilt.status == 0)
        #expect(rebuilt.standardError.contains("warning: the queue's counter (next 1) was behind its highest queued sequence"))
        let after = try await tool(["batches", "--queue", work.file("q")]).standardOutput
        let (two, three) = (try #require(after.range(of: TestDeliveryID.text(2))), try #require(after.range(of: TestDeliveryID.text(3))))
        #expect(three.lowerBound > two.lowerBound)
    }

    @Test func namesThatAreNotUTF8AreSetAsideAndNeverFillTheContainer() async throws {
        let work = TemporaryDirectory("not-utf8")
        defer { work.remove() }
        let receipts = work.file("c/CarillonReceipts")
        try FileManager.default.createDirectory(atPath: receipts, withIntermediateDirectories: true)
        for number in 0..<1000 {
            let name = Array(receipts.utf8) + Array("/\u{0}".utf8).dropLast() + [0xFF, 0xFE] + Array("\(number).receipt".utf8) + [0]
            let descriptor = name.withUnsafeBufferPointer {
                open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o600)
            }
            #expect(descriptor >= 0)
            close(descriptor)
        }
        let payload = try work.write("p.json", Payloads.routed(image: nil, deliveryID: id1))
        let process = try await tool(["process", "--container", work.file("c"), payload])
        #expect(process.jsonLines.first?["receipt"] as? String == "stored", "not-UTF-8 names are not pending receipts")
        let drain = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(drain.status == 1)
        #expect(drain.jsonLines.count == 1)
        let setAside = drain.standardError.split(separator: "\n").filter { $0.contains("the file name is not valid UTF-8; set aside as") }
        #expect(setAside.count == 1000)
        #expect(setAside.first?.contains("\\xFF\\xFE") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: receipts).count == 2)  // .lock, Quarantine

        // In the queue too: set aside by its bytes, reported, and the queue's own events kept.
        let oddEvent = Array(work.file("q").utf8) + Array("/received-".utf8) + [0xC3, 0x28] + Array(".event".utf8) + [0]
        let eventDescriptor = oddEvent.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o600)
        }
        #expect(eventDescriptor >= 0)
        close(eventDescriptor)
        let batches = try await tool(["batches", "--queue", work.file("q")])
        #expect(batches.status == 1)
        #expect(
            batches.standardError.contains("received-\\xC3(.event: the file name is not valid UTF-8; set aside as"),
            "\(batches.standardError)")
        #expect(batches.standardOutput.contains(id1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.file("q/Quarantine")).count == 2)  // the file and its .reason

        // A payload path that is not UTF-8 opens its file, and the output carries its bytes exactly.
        let pathBytes = Array(work.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".json".utf8)
        let created = (pathBytes + [0]).withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o600)
        }
        let text = Array(Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(2)).utf8)
        #expect(write(created, text, text.count) == text.count)
        close(created)
        let odd = try await shell("\"$TOOL\" process \"$(printf '%s/caf\\351.json' \(Shell.quote(work.path)))\"")
        #expect(odd.status == 0, "\(odd.standardError)")
        let line = try #require(odd.jsonLines.first)
        #expect(line["delivery_id"] as? String == TestDeliveryID.text(2))
        #expect(line["payload"] as? String == work.path + "/caf\\xE9.json")
        #expect(line["payload_base64"] as? String == Data(pathBytes).base64EncodedString())
    }

    @Test func modesAreExactWhateverTheUmaskAndWiderOnesAreTightened() async throws {
        let work = TemporaryDirectory("umask")
        defer { work.remove() }
        let payload = try work.write("p.json", Payloads.routed(image: nil, deliveryID: id1))
        let q = Shell.quote
        let run = try await shell(
            "umask 0277; \"$TOOL\" process --container \(q(work.file("c"))) \(q(payload)) && umask 0277 && \"$TOOL\" drain --container \(q(work.file("c"))) --queue \(q(work.file("q")))"
        )
        #expect(run.status == 0, "\(run.standardError)")
        func mode(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: work.file(path)))?[.posixPermissions] as? Int) ?? -1
        }
        #expect(mode("c/CarillonReceipts") == 0o700)
        #expect(mode("c/CarillonReceipts/.lock") == 0o600)
        #expect(mode("q") == 0o700)
        #expect(mode("q/.sequence") == 0o600)
        let queueFiles = try FileManager.default.contentsOfDirectory(atPath: work.file("q")).filter { $0.hasSuffix(".events") }
        #expect(queueFiles.count == 1 && queueFiles.allSatisfy { mode("q/" + $0) == 0o600 }, "\(queueFiles)")

        // A receipts directory of ours left 0777 is tightened, and said.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: work.file("c/CarillonReceipts"))
        let again = try await tool([
            "process", "--container", work.file("c"),
            try work.write("p2.json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(2))),
        ])
        #expect((again.jsonLines.first?["warnings"] as? [String])?.contains { $0.contains("had mode 777; tightened to 0700") } == true)
        #expect(mode("c/CarillonReceipts") == 0o700)
    }

    @Test func pathsOfOursWithTheWrongTypeAreNamedErrors() async throws {
        let work = TemporaryDirectory("wrong-type")
        defer { work.remove() }
        try FileManager.default.createDirectory(atPath: work.file("c"), withIntermediateDirectories: true)
        _ = try work.write("c/CarillonReceipts", "not a directory")
        let drain = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(drain.status == 1)
        #expect(drain.standardError.contains("CarillonReceipts: a regular file, not a directory"))
        #expect(drain.standardError.contains("1 failed"))
        let process = try await tool([
            "process", "--container", work.file("c"), try work.write("p.json", Payloads.routed(image: nil, deliveryID: id1)),
        ])
        let line = try #require(process.jsonLines.first)
        #expect(line["receipt"] as? String == "failed")
        #expect((line["warnings"] as? [String])?.contains { $0.contains("CarillonReceipts: a regular file, not a directory") } == true)

        // CarillonReceipts as a link out of the container: never followed.
        let elsewhere = TemporaryDirectory("elsewhere")
        defer { elsewhere.remove() }
        try FileManager.default.removeItem(atPath: work.file("c/CarillonReceipts"))
        try FileManager.default.createSymbolicLink(atPath: work.file("c/CarillonReceipts"), withDestinationPath: elsewhere.path)
        _ = try elsewhere.write("\(id1).receipt", receiptText(id1))
        let throughLink = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(throughLink.status == 1)
        #expect(throughLink.standardError.contains("CarillonReceipts: a symbolic link, not a directory"))
        #expect(elsewhere.contents() == ["\(id1).receipt"])
        let linkedProcess = try await tool([
            "process", "--container", work.file("c"),
            try work.write("p2.json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(2))),
        ])
        #expect(linkedProcess.jsonLines.first?["receipt"] as? String == "failed")
        #expect(elsewhere.contents() == ["\(id1).receipt"])

        // Quarantine/ as a link out of the container: nothing is moved through it.
        let other = TemporaryDirectory("outside")
        defer { other.remove() }
        try FileManager.default.removeItem(atPath: work.file("c/CarillonReceipts"))
        try FileManager.default.createDirectory(atPath: work.file("c/CarillonReceipts"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: work.file("c/CarillonReceipts/Quarantine"), withDestinationPath: other.path)
        _ = try work.write("c/CarillonReceipts/\(id1).receipt", "garbage")
        let linked = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(linked.status == 1)
        #expect(linked.standardError.contains("Quarantine: a symbolic link, not a directory"))
        #expect(other.contents().isEmpty)
        #expect(FileManager.default.fileExists(atPath: work.file("c/CarillonReceipts/\(id1).receipt")))
    }

    @Test(arguments: [
        (["process", "--container", "", "p.json"], "option '--container' needs a path, not an empty string"),
        (["process", "--attachments", "", "p.json"], "option '--attachments' needs a path, not an empty string"),
        (
            ["process", "--container", "c", "--attachments", "c/att", "p.json"],
            "option '--attachments' must not be inside the shared container"
        ),
        (["drain", "--container", "", "--queue", "q"], "option '--container' needs a path, not an empty string"),
        (["drain", "--container", "c", "--queue", ""], "option '--queue' needs a path, not an empty string"),
        (
            ["drain", "--container", "c", "--queue", "c/CarillonReceipts"],
            "option '--queue' must not be the container's receipts directory"
        ),
        (
            ["drain", "--container", "c", "--queue", "c/CarillonReceipts/q"],
            "option '--queue' must not be the container's receipts directory"
        ),
        (["open", "--queue", "", "p.json"], "option '--queue' needs a path, not an empty string"),
        (["batches", "--queue", ""], "option '--queue' needs a path, not an empty string"),
    ])
    func misconfiguredPathsAreUsageErrors(arguments: [String], message: String) async throws {
        let work = TemporaryDirectory("misconfigured")
        defer { work.remove() }
        _ = try work.write("p.json", Payloads.routed(image: nil, deliveryID: id1))
        let q = Shell.quote
        let result = try await shell("cd \(q(work.path)) && \"$TOOL\" " + arguments.map(q).joined(separator: " "))
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "/CarillonReceipts"))
        #expect(!FileManager.default.fileExists(atPath: work.file("c/CarillonReceipts/q")))
    }
}
