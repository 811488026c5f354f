@_spi(Tooling) import CarillonExtensionCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM, handled: partial downloads in progress are removed before the tool ends, by
/// the same signal, as a shell expects (its status 130 or 143).
///
/// The two signals are blocked in every thread (threads inherit the mask, so this must run before any
/// is started) and taken by one thread of their own with `sigwait`, where ordinary code — a lock, an
/// `unlink` — is safe, unlike in a signal handler.
public enum Interruption {
    /// Installs the waiting thread. Receipts and queued events need nothing: each is written atomically,
    /// so a signal at any instant leaves a whole one or none.
    public static func removePartialDownloadsOnSignal() {
        var signals = handledSignals()
        guard sigismember(&signals, SIGINT) == 1 || sigismember(&signals, SIGTERM) == 1 else { return }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { _ in
                var signals = Interruption.handledSignals()
                var number: Int32 = 0
                while sigwait(&signals, &number) != 0 {}
                AttachmentStore.removeFilesInProgress {
                    // End by the signal itself, so that the parent sees it (a shell's loop stops on a Ctrl-C
                    // only when its child died of SIGINT): its default action, unblocked on this thread.
                    signal(number, SIG_DFL)
                    var only = sigset_t()
                    sigemptyset(&only)
                    sigaddset(&only, number)
                    pthread_sigmask(SIG_UNBLOCK, &only, nil)
                    raise(number)
                    _exit(128 + number)  // not reached: the default action of both signals ends the process
                }
            }, nil)
        if created == 0 { pthread_detach(thread) } else { pthread_sigmask(SIG_UNBLOCK, &signals, nil) }
    }

    /// SIGINT and SIGTERM, less any the tool was started with ignored: a shell starts background jobs
    /// with SIGINT ignored so that a Ctrl-C meant for it does not end them, and that choice stands.
    private static func handledSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM] where !isIgnored(number) { sigaddset(&signals, number) }
        return signals
    }

    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
