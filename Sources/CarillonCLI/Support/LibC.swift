// swift-format-ignore-file: AlwaysUseLowerCamelCase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The C library's one room in the command line's module (as Support/LibC.swift is the core's): the only
// file that imports it. Thin names and nothing else: `system_` + the C name for a function (arguments and
// result as the C library has them), `_` + the C name for a constant, `C` + a name for a type. A call the
// module needs that is not here yet: add it here, beside its kind. ArchitectureTests checks that no other
// file imports the C library.

// MARK: - Types

/// `struct stat`.
typealias CStat = stat
/// `sigset_t`.
typealias CSignalSet = sigset_t

// MARK: - errno

/// `errno`.
var system_errno: CInt { errno }

// MARK: - Constants

var _EBADF: CInt { CInt(EBADF) }
var _EFBIG: CInt { CInt(EFBIG) }
var _EIO: CInt { CInt(EIO) }
var _EPERM: CInt { CInt(EPERM) }
var _F_GETFD: CInt { CInt(F_GETFD) }
var _O_RDONLY: CInt { CInt(O_RDONLY) }
var _O_WRONLY: CInt { CInt(O_WRONLY) }
var _SEEK_SET: CInt { CInt(SEEK_SET) }
var _SIGINT: CInt { CInt(SIGINT) }
var _SIGTERM: CInt { CInt(SIGTERM) }
var _SIG_BLOCK: CInt { CInt(SIG_BLOCK) }
var _SIG_UNBLOCK: CInt { CInt(SIG_UNBLOCK) }

// MARK: - Files and descriptors

@discardableResult func system_open(_ path: UnsafePointer<CChar>, _ flags: CInt) -> CInt { open(path, flags) }
@discardableResult func system_close(_ descriptor: CInt) -> CInt { close(descriptor) }
@discardableResult func system_dup2(_ descriptor: CInt, _ target: CInt) -> CInt { dup2(descriptor, target) }
func system_fcntl(_ descriptor: CInt, _ command: CInt) -> CInt { fcntl(descriptor, command) }
func system_lseek(_ descriptor: CInt, _ offset: Int, _ whence: CInt) -> Int { Int(lseek(descriptor, off_t(offset), whence)) }
func system_isatty(_ descriptor: CInt) -> CInt { isatty(descriptor) }
func system_stat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<CStat>) -> CInt { stat(path, info) }
func system_realpath(_ path: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>? { realpath(path, nil) }

// MARK: - Memory, strings and the environment

func system_free(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }
func system_strlen(_ string: UnsafePointer<CChar>) -> Int { strlen(string) }
func system_getenv(_ name: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>? { getenv(name) }

// MARK: - The process, its signals and threads

func system__exit(_ status: CInt) -> Never { _exit(status) }
func system_getpid() -> CInt { getpid() }
/// `kill(pid, signal)`; signal 0 only asks whether the process exists.
func system_kill(_ process: CInt, _ signal: CInt) -> CInt { kill(process, signal) }
@discardableResult func system_raise(_ signal: CInt) -> CInt { raise(signal) }
@discardableResult func system_sigemptyset(_ set: UnsafeMutablePointer<CSignalSet>) -> CInt { sigemptyset(set) }
@discardableResult func system_sigaddset(_ set: UnsafeMutablePointer<CSignalSet>, _ signal: CInt) -> CInt { sigaddset(set, signal) }
func system_sigismember(_ set: UnsafePointer<CSignalSet>, _ signal: CInt) -> CInt { sigismember(set, signal) }
func system_sigwait(_ set: UnsafePointer<CSignalSet>, _ signal: UnsafeMutablePointer<CInt>) -> CInt { sigwait(set, signal) }
@discardableResult func system_pthread_sigmask(_ how: CInt, _ set: UnsafePointer<CSignalSet>) -> CInt { pthread_sigmask(how, set, nil) }

/// `signal(signal, SIG_DFL)`: the signal's default action again.
func system_signal_default(_ number: CInt) { _ = signal(number, SIG_DFL) }

/// Whether `signal`'s action is `SIG_IGN` (`sigaction`); false when it cannot be read.
func system_signal_isIgnored(_ signal: CInt) -> Bool {
    var current = sigaction()
    guard sigaction(signal, nil, &current) == 0 else { return false }
    return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
}

/// Starts a detached thread running `body` (`pthread_create`, `pthread_detach`); false when none could be made.
func system_startDetachedThread(_ body: @escaping @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?) -> Bool {
    var thread = pthread_t()
    guard pthread_create(&thread, nil, body, nil) == 0 else { return false }
    pthread_detach(thread)
    return true
}
