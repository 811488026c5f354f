import CarillonCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// A reader that goes away (`carillon-nse process dir | head`) must end the run quietly, not kill it.
signal(SIGPIPE, SIG_IGN)
let status = CarillonTool.run(Array(CommandLine.arguments.dropFirst()), io: .process)
// All output has gone out with write(2) and every file is closed, so the atexit handlers (OpenSSL's and
// the C++ runtime's clean-up of memory the kernel is about to reclaim) are skipped: about 0.5 ms a run.
// (A build instrumented for coverage or LeakSanitizer would need exit(3) here to write its reports.)
fflush(nil)
_exit(status)
