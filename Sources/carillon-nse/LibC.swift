// swift-format-ignore-file: AlwaysUseLowerCamelCase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The C library's one room in the executable (as Support/LibC.swift is the core's): the only file that
// imports it. `system_` + the C name for a function, `_` + the C name for a constant.

func system_strlen(_ string: UnsafePointer<CChar>) -> Int { strlen(string) }

/// `signal(SIGPIPE, SIG_IGN)`: a write to a closed pipe fails with `EPIPE` instead of ending the process.
func system_ignoreBrokenPipes() { _ = signal(SIGPIPE, SIG_IGN) }

/// `fflush(NULL)`: every C stream's buffered output written out.
func system_flushAllStreams() { _ = fflush(nil) }

func system__exit(_ status: CInt) -> Never { _exit(status) }
