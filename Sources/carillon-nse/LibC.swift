// swift-format-ignore-file: AlwaysUseLowerCamelCase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The C library's one room in the executable (as Storage/LibC.swift is the core's): the only file that
// imports it. `system_` + the C name for a function, `_` + the C name for a constant.

var _O_CLOEXEC: CInt { CInt(O_CLOEXEC) }
var _O_CREAT: CInt { CInt(O_CREAT) }
var _O_RDONLY: CInt { CInt(O_RDONLY) }
var _O_TRUNC: CInt { CInt(O_TRUNC) }
var _O_WRONLY: CInt { CInt(O_WRONLY) }

func system_open(_ path: UnsafePointer<CChar>, _ flags: CInt) -> CInt { open(path, flags) }
func system_open(_ path: UnsafePointer<CChar>, _ flags: CInt, _ mode: mode_t) -> CInt { open(path, flags, mode) }
@discardableResult func system_close(_ descriptor: CInt) -> CInt { close(descriptor) }
func system_read(_ descriptor: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(descriptor, buffer, count) }
@discardableResult func system_write(_ descriptor: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
func system_getenv(_ name: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>? { getenv(name) }
func system_strlen(_ string: UnsafePointer<CChar>) -> Int { strlen(string) }

/// `signal(SIGPIPE, SIG_IGN)`: a write to a closed pipe fails with `EPIPE` instead of ending the process.
func system_ignoreBrokenPipes() { _ = signal(SIGPIPE, SIG_IGN) }

/// `fflush(NULL)`: every C stream's buffered output written out.
func system_flushAllStreams() { _ = fflush(nil) }

func system__exit(_ status: CInt) -> Never { _exit(status) }
