import CarillonCLI
@_spi(Tooling) import CarillonExtensionCore

// Before anything opens a file: a launcher may have closed standard input, output or error, and the
// next file opened (a receipt's temporary file) would then take descriptor 1 and receive output lines.
StandardDescriptors.makeSafe()
// A reader that goes away (`carillon-nse process dir | head`) ends the run through the failed write
// (exit 1, one line on standard error), not through a signal mid-write.
system_ignoreBrokenPipes()
// Ctrl-C or a TERM during `process` removes the partial downloads in progress before the tool goes.
Interruption.removePartialDownloadsOnSignal()
// The arguments as bytes: a path that is not UTF-8 still names its file (see FileName).
// (argc may be 0: a program can be started with no argv at all.) A loop, not `map`: a closure here is
// main-actor isolated, and its run-time isolation check starts the concurrency runtime's executors,
// 0.15 MiB of code and metadata mapped by every run (TestAssets/Bench/README.md, "peak RSS").
var arguments: [String] = []
for index in 1..<max(Int(CommandLine.argc), 1) {
    arguments.append(
        FileName.string(
            fromBytes: UnsafeBufferPointer(
                start: UnsafeRawPointer(CommandLine.unsafeArgv[index]!).assumingMemoryBound(to: UInt8.self),
                count: system_strlen(CommandLine.unsafeArgv[index]!))))
}
let status = CarillonTool.run(arguments, io: .process)
// All output has gone out with write(2) and every file is closed, so the atexit handlers (OpenSSL's and
// the C++ runtime's clean-up of memory the kernel is about to reclaim) are skipped; what that saves is
// in TestAssets/Bench/README.md, "Measurements behind the code".
// (A build instrumented for coverage or LeakSanitizer would need exit(3) here to write its reports.)
system_flushAllStreams()
system__exit(status)
