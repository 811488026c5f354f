import CarillonCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// A reader that goes away (`carillon-nse process dir | head`) must end the run quietly, not kill it.
signal(SIGPIPE, SIG_IGN)
exit(CarillonTool.run(Array(CommandLine.arguments.dropFirst()), io: .process))
