@_spi(Tooling) import CarillonExtensionCore

/// SIGINT and SIGTERM, handled: staged outputs (``StagedFiles``: a bundle, merged lines, a summary, a
/// report being written) and partial downloads in progress are removed before the tool ends, by the
/// same signal, as a shell expects (its status 130 or 143).
///
/// The two signals are blocked in every thread (threads inherit the mask, so this must run before any
/// is started) and taken by one thread of their own with `sigwait`, where ordinary code — a lock, an
/// `unlink` — is safe, unlike in a signal handler.
public enum Interruption {
    /// Installs the waiting thread. Receipts and queued events need nothing: each is written atomically,
    /// so a signal at any instant leaves a whole one or none.
    public static func removePartialDownloadsOnSignal() {
        var signals = handledSignals()
        guard system_sigismember(&signals, _SIGINT) == 1 || system_sigismember(&signals, _SIGTERM) == 1 else { return }
        system_pthread_sigmask(_SIG_BLOCK, &signals)
        let started = system_startDetachedThread { _ in
            var signals = Interruption.handledSignals()
            var number: Int32 = 0
            while system_sigwait(&signals, &number) != 0 {}
            StagedFiles.removeAll { AttachmentStore.removeFilesInProgress { Interruption.end(by: number) } }
        }
        if !started { system_pthread_sigmask(_SIG_UNBLOCK, &signals) }
    }

    /// Ends the process by the signal `number` itself.
    private static func end(by number: Int32) -> Never {
        // End by the signal itself, so that the parent sees it (a shell's loop stops on a Ctrl-C only
        // when its child died of SIGINT): its default action, unblocked on this thread.
        system_signal_default(number)
        var only = CSignalSet()
        system_sigemptyset(&only)
        system_sigaddset(&only, number)
        system_pthread_sigmask(_SIG_UNBLOCK, &only)
        system_raise(number)
        system__exit(128 + number)  // not reached: the default action of both signals ends the process
    }

    /// SIGINT and SIGTERM, less any the tool was started with ignored: a shell starts background jobs
    /// with SIGINT ignored so that a Ctrl-C meant for it does not end them, and that choice stands.
    private static func handledSignals() -> CSignalSet {
        var signals = CSignalSet()
        system_sigemptyset(&signals)
        for number in [_SIGINT, _SIGTERM] where !system_signal_isIgnored(number) { system_sigaddset(&signals, number) }
        return signals
    }
}
