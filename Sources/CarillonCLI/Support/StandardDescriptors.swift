@_spi(Tooling) import CarillonExtensionCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Descriptors 0, 1 and 2 as the tool needs them.
public enum StandardDescriptors {
    /// Opens `/dev/null` on each of descriptors 0–2 that is closed, lowest first, so that no file the
    /// tool opens later can take one of their numbers. Call it before anything else opens a file.
    public static func makeSafe() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open returns the lowest free number, which is this one: the lower ones are open by now.
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            // Without /dev/null (a bare chroot) the number would stay free for a receipt to take: refuse
            // to run at all (EX_OSERR), before anything is written anywhere.
            guard opened >= 0 else { _exit(71) }
            if opened != descriptor {
                _ = dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
