/// A fixed number of mutexes in one allocation, taken and released by index: for C callbacks that lock
/// in one call and unlock in another (libcurl's share handle, ``CurlShare``), which `Mutex.withLock`
/// cannot express. The threads' room for the C library: the only file outside the file system and the
/// clock that calls it (`pthread_mutex_*`, through Support/LibC.swift).
///
/// The pointer is stable for the value's life, so it can be handed to C as user data and the callback
/// can lock through ``lock(_:at:)`` without the value.
final class ThreadLocks: @unchecked Sendable {
    /// The mutexes, for a C callback's user data.
    let pointer: UnsafeMutableRawPointer
    private let count: Int

    /// `count` initialised mutexes.
    init(count: Int) {
        let mutexes = UnsafeMutablePointer<CMutex>.allocate(capacity: count)
        for index in 0..<count { system_mutex_init(mutexes + index) }
        self.pointer = UnsafeMutableRawPointer(mutexes)
        self.count = count
    }

    /// Locks mutex `index` of the mutexes at `pointer` (a ``pointer`` value).
    static func lock(_ pointer: UnsafeMutableRawPointer, at index: Int) {
        system_mutex_lock(pointer.assumingMemoryBound(to: CMutex.self) + index)
    }

    /// Unlocks mutex `index` of the mutexes at `pointer` (a ``pointer`` value).
    static func unlock(_ pointer: UnsafeMutableRawPointer, at index: Int) {
        system_mutex_unlock(pointer.assumingMemoryBound(to: CMutex.self) + index)
    }

    deinit {
        let mutexes = pointer.assumingMemoryBound(to: CMutex.self)
        for index in 0..<count { system_mutex_destroy(mutexes + index) }
        mutexes.deallocate()
    }
}
