/// An exclusive `flock` on a lock file, waited for until a deadline and never longer.
///
/// `flock` locks belong to the open file, so the lock excludes other processes *and* other threads of
/// this one (each call opens its own descriptor); the kernel releases it if the holder dies. A holder
/// that stalls instead (stopped, or stuck on a slow disk) must not stall everyone else: callers wait
/// until their deadline, then get an error that says another process holds the lock.
@_spi(Tooling) public enum FileLock {
    /// How long the app's commands (`drain`, `open`, `batches`) wait for a lock.
    static let commandWait: Duration = .seconds(5)
    /// How long the extension waits for the receipt lock: well inside the notification's ~30 s, and
    /// never past time-will-expire (the caller passes the earlier of the two).
    public static let extensionWait: Duration = .seconds(1)

    /// Runs `body` while holding an exclusive lock on `path`, which is created empty (exactly 0600) if
    /// missing and never followed if it is a symbolic link.
    ///
    /// - Throws: ``FileSystemError`` from `open`, `flock`, or `EWOULDBLOCK` ("another process holds …")
    ///   when the deadline passed first; or whatever `body` throws.
    static func withExclusiveLock<Result>(
        _ path: String, until deadline: ContinuousClock.Instant, _ body: () throws(FileSystemError) -> Result
    ) throws(FileSystemError) -> Result {
        let descriptor = FileName.withCString(path) { name in
            SystemCall.retryingInterrupts {
                system_open(name, _O_RDWR | _O_CREAT | _O_CLOEXEC | _O_NOFOLLOW | _O_NONBLOCK, 0o600 as CModeT)
            }
        }
        guard descriptor >= 0 else {
            if system_errno == _ELOOP {
                throw FileSystemError("open lock", path, errno: _ELOOP, explanation: "a symbolic link, not followed")
            }
            throw .last("open lock", path)
        }
        defer { system_close(descriptor) }
        var info = CStat()
        guard system_fstat(descriptor, &info) == 0 else { throw .last("inspect lock", path) }
        guard (info.st_mode & _S_IFMT) == _S_IFREG else {
            throw FileSystemError("open lock", path, errno: _EINVAL, explanation: "not a regular file")
        }
        // The umask may have narrowed a new lock file (0277 makes it 0400: unusable for another writer).
        if info.st_mode & 0o777 != 0o600 { _ = system_fchmod(descriptor, 0o600) }
        try acquire(descriptor, path: path, until: deadline)
        return try body()
    }

    /// Tries the lock without blocking, then again after pauses that grow from 0.2 ms to 2 ms, until
    /// the deadline.
    private static func acquire(_ descriptor: Int32, path: String, until deadline: ContinuousClock.Instant) throws(FileSystemError) {
        let started = ContinuousClock.now
        var pause: Duration = .microseconds(200)
        while true {
            if SystemCall.retryingInterrupts({ system_flock(descriptor, _LOCK_EX | _LOCK_NB) }) == 0 { return }
            guard system_errno == _EWOULDBLOCK else { throw .last("lock", path) }
            let now = ContinuousClock.now
            guard now < deadline else {
                throw FileSystemError(
                    "lock", path, errno: _EWOULDBLOCK,
                    explanation: "another process holds the lock (waited \((now - started).wholeMilliseconds) ms)")
            }
            Pause.sleep(for: min(pause, deadline - now))
            pause = min(pause * 2, .milliseconds(2))
        }
    }
}
