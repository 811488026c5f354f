// swift-format-ignore-file: AlwaysUseLowerCamelCase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The C library's one room in this module (apple/swift-system's Internals/Exports.swift): the only file
// that imports it. It defines thin names and nothing else: `system_` + the C name for a function (its
// arguments and result as the C library has them), `_` + the C name for a constant, `C` + a name for a
// type. It sits in Support/, the bottom layer every folder may use, so that the file system (Storage/)
// and the clock (Support/Timestamp.swift, Support/Pause.swift), the threads' locks
// (Support/ThreadLocks.swift) and names as bytes (Support/FileName.swift) all look down to it; only they
// use its names, and everything else asks them. A call the module needs that is not here yet: add it
// here, beside its kind.
// ArchitectureTests checks that no other file imports the C library and who uses `system_`.

// MARK: - Types

/// `struct stat`.
typealias CStat = stat
/// `mode_t`: a file's type and permission bits, as the file-system calls take and return them.
@_spi(Tooling) public typealias CModeT = mode_t
/// `struct timespec`.
typealias CTimespec = timespec
/// `struct dirent`.
typealias CDirent = dirent
/// `off_t`: an offset in a file.
typealias COffT = off_t
/// `pthread_mutex_t`.
typealias CMutex = pthread_mutex_t

// MARK: - errno

/// `errno`, read and set.
var system_errno: CInt {
    get { errno }
    set { errno = newValue }
}

// MARK: - Constants

var _EAGAIN: CInt { CInt(EAGAIN) }
var _EEXIST: CInt { CInt(EEXIST) }
var _EFBIG: CInt { CInt(EFBIG) }
var _EINTR: CInt { CInt(EINTR) }
var _EINVAL: CInt { CInt(EINVAL) }
var _EIO: CInt { CInt(EIO) }
var _EISDIR: CInt { CInt(EISDIR) }
var _ELOOP: CInt { CInt(ELOOP) }
var _EMFILE: CInt { CInt(EMFILE) }
var _ENFILE: CInt { CInt(ENFILE) }
var _ENOENT: CInt { CInt(ENOENT) }
var _ENOMEM: CInt { CInt(ENOMEM) }
var _ENOTDIR: CInt { CInt(ENOTDIR) }
var _EPERM: CInt { CInt(EPERM) }
var _EWOULDBLOCK: CInt { CInt(EWOULDBLOCK) }
var _LOCK_EX: CInt { CInt(LOCK_EX) }
var _LOCK_NB: CInt { CInt(LOCK_NB) }
var _O_APPEND: CInt { CInt(O_APPEND) }
var _O_CLOEXEC: CInt { CInt(O_CLOEXEC) }
var _O_CREAT: CInt { CInt(O_CREAT) }
var _O_DIRECTORY: CInt { CInt(O_DIRECTORY) }
var _O_EXCL: CInt { CInt(O_EXCL) }
var _O_NOFOLLOW: CInt { CInt(O_NOFOLLOW) }
var _AT_SYMLINK_NOFOLLOW: CInt { CInt(AT_SYMLINK_NOFOLLOW) }
var _O_NONBLOCK: CInt { CInt(O_NONBLOCK) }
var _O_RDONLY: CInt { CInt(O_RDONLY) }
var _O_RDWR: CInt { CInt(O_RDWR) }
var _O_WRONLY: CInt { CInt(O_WRONLY) }
var _SEEK_END: CInt { CInt(SEEK_END) }
var _CLOCK_REALTIME: CInt { CInt(CLOCK_REALTIME) }
var _S_IFDIR: CModeT { CModeT(S_IFDIR) }
var _S_IFLNK: CModeT { CModeT(S_IFLNK) }
var _S_IFMT: CModeT { CModeT(S_IFMT) }
var _S_IFREG: CModeT { CModeT(S_IFREG) }
var _DT_BLK: CInt { CInt(DT_BLK) }
var _DT_CHR: CInt { CInt(DT_CHR) }
var _DT_DIR: CInt { CInt(DT_DIR) }
var _DT_FIFO: CInt { CInt(DT_FIFO) }
var _DT_LNK: CInt { CInt(DT_LNK) }
var _DT_REG: CInt { CInt(DT_REG) }
var _DT_SOCK: CInt { CInt(DT_SOCK) }

// MARK: - Files and directories

@discardableResult func system_open(_ path: UnsafePointer<CChar>, _ flags: CInt) -> CInt { open(path, flags) }
@discardableResult func system_open(_ path: UnsafePointer<CChar>, _ flags: CInt, _ mode: CModeT) -> CInt { open(path, flags, mode) }
@discardableResult func system_openat(_ directory: CInt, _ path: UnsafePointer<CChar>, _ flags: CInt) -> CInt {
    openat(directory, path, flags)
}
@discardableResult func system_fstatat(_ directory: CInt, _ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<CStat>, _ flags: CInt)
    -> CInt
{ fstatat(directory, path, info, flags) }
@discardableResult func system_close(_ descriptor: CInt) -> CInt { close(descriptor) }
@discardableResult func system_read(_ descriptor: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
@discardableResult func system_write(_ descriptor: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
@discardableResult func system_fsync(_ descriptor: CInt) -> CInt { fsync(descriptor) }
@discardableResult func system_pread(_ descriptor: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: COffT) -> Int {
    pread(descriptor, buffer, count, offset)
}
@discardableResult func system_lseek(_ descriptor: CInt, _ offset: COffT, _ whence: CInt) -> COffT { lseek(descriptor, offset, whence) }
@discardableResult func system_ftruncate(_ descriptor: CInt, _ length: COffT) -> CInt { ftruncate(descriptor, length) }
@discardableResult func system_flock(_ descriptor: CInt, _ operation: CInt) -> CInt { flock(descriptor, operation) }
@discardableResult func system_stat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<CStat>) -> CInt { stat(path, info) }
@discardableResult func system_lstat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<CStat>) -> CInt { lstat(path, info) }
@discardableResult func system_fstat(_ descriptor: CInt, _ info: UnsafeMutablePointer<CStat>) -> CInt { fstat(descriptor, info) }
@discardableResult func system_chmod(_ path: UnsafePointer<CChar>, _ mode: CModeT) -> CInt { chmod(path, mode) }
@discardableResult func system_fchmod(_ descriptor: CInt, _ mode: CModeT) -> CInt { fchmod(descriptor, mode) }
@discardableResult func system_mkdir(_ path: UnsafePointer<CChar>, _ mode: CModeT) -> CInt { mkdir(path, mode) }
@discardableResult func system_link(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> CInt {
    link(source, destination)
}
@discardableResult func system_unlink(_ path: UnsafePointer<CChar>) -> CInt { unlink(path) }
@discardableResult func system_rmdir(_ path: UnsafePointer<CChar>) -> CInt { rmdir(path) }
@discardableResult func system_rename(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> CInt {
    rename(source, destination)
}
@discardableResult func system_fdopendir(_ descriptor: CInt) -> OpaquePointer? { fdopendir(descriptor) }
@discardableResult func system_readdir(_ stream: OpaquePointer) -> UnsafeMutablePointer<CDirent>? { readdir(stream) }
@discardableResult func system_closedir(_ stream: OpaquePointer) -> CInt { closedir(stream) }

// MARK: - Memory and strings

@discardableResult func system_memchr(_ bytes: UnsafeRawPointer, _ byte: CInt, _ count: Int) -> UnsafeMutableRawPointer? {
    memchr(bytes, byte, count)
}
@discardableResult func system_memcmp(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, _ count: Int) -> CInt {
    memcmp(first, second, count)
}
@discardableResult func system_strlen(_ string: UnsafePointer<CChar>) -> Int { strlen(string) }
@discardableResult func system_strerror(_ code: CInt) -> UnsafeMutablePointer<CChar> { strerror(code) }

// MARK: - The process and the clock

@discardableResult func system_getpid() -> CInt { getpid() }
@discardableResult func system_clock_gettime(_ clock: CInt, _ time: UnsafeMutablePointer<CTimespec>) -> CInt {
    clock_gettime(clockid_t(clock), time)
}
@discardableResult func system_nanosleep(_ request: UnsafePointer<CTimespec>, _ remaining: UnsafeMutablePointer<CTimespec>?) -> CInt {
    nanosleep(request, remaining)
}

// MARK: - Threads

@discardableResult func system_mutex_init(_ mutex: UnsafeMutablePointer<CMutex>) -> CInt { pthread_mutex_init(mutex, nil) }
@discardableResult func system_mutex_lock(_ mutex: UnsafeMutablePointer<CMutex>) -> CInt { pthread_mutex_lock(mutex) }
@discardableResult func system_mutex_unlock(_ mutex: UnsafeMutablePointer<CMutex>) -> CInt { pthread_mutex_unlock(mutex) }
@discardableResult func system_mutex_destroy(_ mutex: UnsafeMutablePointer<CMutex>) -> CInt { pthread_mutex_destroy(mutex) }
