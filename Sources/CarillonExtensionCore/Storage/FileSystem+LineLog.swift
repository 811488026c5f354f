extension FileSystem {
    /// Opens `path` for appending lines (created with mode 0600 when missing; never through a symbolic
    /// link), first cutting a torn last line — bytes after the last `\n`, left by a write a crash cut
    /// short — so that every line after it starts whole. Returns the descriptor and the bytes cut.
    public static func openLineLog(_ path: String) throws(FileSystemError) -> (descriptor: Int32, cut: Int) {
        let descriptor = FileName.withCString(path) { name in
            SystemCall.retryingInterrupts { system_open(name, _O_RDWR | _O_CREAT | _O_APPEND | _O_CLOEXEC | _O_NOFOLLOW, 0o600) }
        }
        guard descriptor >= 0 else { throw .last("open", path) }
        let size = system_lseek(descriptor, 0, _SEEK_END)
        guard size >= 0 else {
            let error = FileSystemError.last("seek", path)
            system_close(descriptor)
            throw error
        }
        // Back from the end, a chunk at a time, to the last newline.
        var end = Int(size)
        var keep = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        search: while end > 0 {
            let start = max(end - chunk.count, 0)
            let read = chunk.withUnsafeMutableBytes { system_pread(descriptor, $0.baseAddress, end - start, COffT(start)) }
            guard read == end - start else {
                let error = FileSystemError.last("read", path)
                system_close(descriptor)
                throw error
            }
            for index in stride(from: read - 1, through: 0, by: -1) where chunk[index] == 0x0A {
                keep = start + index + 1
                break search
            }
            end = start
        }
        if keep < Int(size) {
            if system_ftruncate(descriptor, COffT(keep)) != 0 || system_fsync(descriptor) != 0 {
                let error = FileSystemError.last("cut the torn last line of", path)
                system_close(descriptor)
                throw error
            }
        }
        return (descriptor, Int(size) - keep)
    }

    /// Appends `bytes` to a descriptor from ``openLineLog(_:)`` and fsyncs it: when this returns, they
    /// are on disk.
    public static func appendDurably(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(FileSystemError) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(FileSystemError) in try writeAll(descriptor, buffer, path: path) }
        }.get()
        if SystemCall.retryingInterrupts({ system_fsync(descriptor) }) != 0 { throw .last("fsync", path) }
    }
}
