@_spi(Tooling) import CarillonExtensionCore

/// Descriptors 0, 1 and 2 as the tool needs them.
public enum StandardDescriptors {
    /// Opens `/dev/null` on each of descriptors 0–2 that is closed, lowest first, so that no file the
    /// tool opens later can take one of their numbers. Call it before anything else opens a file.
    public static func makeSafe() {
        for descriptor: Int32 in 0...2 where system_fcntl(descriptor, _F_GETFD) == -1 && system_errno == _EBADF {
            // open returns the lowest free number, which is this one: the lower ones are open by now.
            let opened = system_open("/dev/null", descriptor == 0 ? _O_RDONLY : _O_WRONLY)
            // Without /dev/null (a bare chroot) the number would stay free for a receipt to take: refuse
            // to run at all (EX_OSERR), before anything is written anywhere.
            guard opened >= 0 else { system__exit(71) }
            if opened != descriptor {
                _ = system_dup2(opened, descriptor)
                system_close(opened)
            }
        }
    }
}
